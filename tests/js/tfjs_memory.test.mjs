// TF.js in WebAssembly holds a model's shards once: each weight is read from its shards into
// one buffer sized by the shards' known sizes (no doubling growth, no concatenated copy beside
// the pieces), and exports stream the weights to the sink. A model of 64 MiB of shards grows
// the heap by less than 1.3x its size through load, a TF.js export and a GraphDef export
// (issue 10's heap target). The model is generated here: Const weights that straddle shards.
import assert from 'node:assert/strict';

import { checkNoLeaksAtEnd, graphport, leakCheckedTest, withModel } from './helpers.mjs';

const MiB = 1 << 20;
const SHARD = 4 * MiB;
const gp = await graphport();
checkNoLeaksAtEnd(gp);

// Float32 weights of these sizes, shard after shard: 64 MiB, most weights crossing a shard.
const WEIGHT_BYTES = [10 * MiB, 6 * MiB + 512, 16 * MiB - 512, 1024, 32 * MiB - 1024];

function tfjsModelFiles() {
  const attr = (type) => ({ type });
  const nodes = WEIGHT_BYTES.map((bytes, i) => ({
    name: `w${i}`, op: 'Const',
    attr: { dtype: attr('DT_FLOAT'), value: { tensor: { dtype: 'DT_FLOAT', tensorShape: { dim: [{ size: String(bytes / 4) }] } } } },
  }));
  nodes.push({ name: 'out', op: 'AddN', input: nodes.map((n) => n.name), attr: { T: attr('DT_FLOAT'), N: { i: String(nodes.length) } } });
  const total = WEIGHT_BYTES.reduce((n, b) => n + b, 0);
  const count = Math.ceil(total / SHARD);
  const paths = Array.from({ length: count }, (_, i) => `group1-shard${i + 1}of${count}.bin`);
  const json = {
    format: 'graph-model', generatedBy: '2.15.0', convertedBy: 'TensorFlow.js Converter v4.22.0',
    modelTopology: { node: nodes, library: {}, versions: { producer: 1286 } },
    weightsManifest: [{ paths, weights: WEIGHT_BYTES.map((b, i) => ({ name: `w${i}`, shape: [b / 4], dtype: 'float32' })) }],
  };
  const files = { 'model.json': new TextEncoder().encode(JSON.stringify(json)) };
  paths.forEach((path, i) => {
    const shard = new Uint8Array(Math.min(SHARD, total - i * SHARD));
    for (let k = 0; k < shard.length; ++k) shard[k] = (i * SHARD + k) * 13 & 0xff;
    files[path] = shard;
  });
  return { files, total };
}

// A sink that counts the bytes of each file and keeps none of them.
function countingSink() {
  const sizes = {};
  return {
    sizes,
    open(name) {
      sizes[name] = 0;
      return { write(view) { sizes[name] += view.length; }, close() {} };
    },
  };
}

const { files, total } = tfjsModelFiles();

leakCheckedTest(gp, '64 MiB of shards: heap growth through load and both exports under 1.3x the model', (t) => {
  const before = gp.heapBytes();
  const growth = {};
  withModel(gp, { files }, {}, (model) => {
    growth.load = gp.heapBytes() - before;
    const tfjs = countingSink();
    model.exportTo({ to: 'tfjs' }, tfjs);
    growth['tfjs export'] = gp.heapBytes() - before;
    const shardBytes = Object.entries(tfjs.sizes).filter(([n]) => n.endsWith('.bin'))
      .reduce((n, [, size]) => n + size, 0);
    assert.equal(shardBytes, total, 'the TF.js export writes every weight byte');
    const graphDef = countingSink();
    model.exportTo({ to: 'graph-def' }, graphDef);
    growth['graph-def export'] = gp.heapBytes() - before;
    const [graphBytes] = Object.values(graphDef.sizes);
    assert.ok(graphBytes > total, 'the GraphDef holds every weight');
  });
  for (const [step, bytes] of Object.entries(growth)) {
    t.diagnostic(`heap growth after ${step}: ${(bytes / total).toFixed(2)}x the shards`);
    assert.ok(bytes < 1.3 * total,
      `after ${step} the heap grew by ${(bytes / MiB).toFixed(1)} MiB for ${(total / MiB).toFixed(1)} MiB of model`);
  }
});

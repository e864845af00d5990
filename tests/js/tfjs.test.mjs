// TensorFlow.js graph models on the WebAssembly build: the corpus models read the same from
// {files}, from their folder and from their model.json; their GraphDef and TF.js exports are
// the native CLI's bytes; a TF.js export loads back to the same graph; unfuseOps leaves only
// TensorFlow's registry ops; a broken manifest is a GraphportError naming model.json; a model
// with modelInitializer exports the same on both builds; filename names the model JSON.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe } from 'node:test';

import {
  assertGraphportError, assertSameBytes, checkNoLeaksAtEnd, corpusPath, graphport,
  leakCheckedTest, readBytes, requireNativeCli, runNative, tempDir, withModel,
} from './helpers.mjs';
import { Msg } from './wire.mjs';
import { filesOf, registryOps } from './tfjs/runtime.mjs';
import { tableModelFiles } from './tfjs/table_model.mjs';

const gp = await graphport();
checkNoLeaksAtEnd(gp);
requireNativeCli();

const MODELS = ['simple', 'prelu'];
const folderOf = (model) => corpusPath(`tfjs/tfjs-to-tf/${model}`);
const filesIn = (dir) => Object.fromEntries(
  readdirSync(dir).filter((n) => n === 'model.json' || n.endsWith('.bin')).map((n) => [n, readBytes(join(dir, n))]),
);

// The native CLI's export of a folder: {name: bytes} of the file or folder it wrote.
function nativeExport(t, input, args, folder) {
  const dir = tempDir(t, 'graphport-tfjs-');
  const out = join(dir, folder ? 'out' : 'graph.pb');
  runNative(['export', input, '-o', out, ...args]);
  if (!folder) return { 'graph.pb': readBytes(out) };
  return Object.fromEntries(readdirSync(out).map((n) => [n, readBytes(join(out, n))]));
}

function assertSameFiles(actual, expected, what) {
  assert.deepEqual(Object.keys(actual).sort(), Object.keys(expected).sort(), `${what}: file names`);
  for (const name of Object.keys(expected)) assertSameBytes(actual[name], expected[name], `${what} ${name}`);
}

// A GraphDef's nodes as {name, op, inputs, attrs}, decoded by the tests' own wire reader
// (NodeDef: name 1, op 2, input 3, device 4, attr 5 as map entries key 1 / value 2).
function decodeNodes(bytes) {
  return new Msg(bytes).msgs(1).map((n) => ({
    name: n.str(1),
    op: n.str(2),
    inputs: n.strs(3),
    device: n.str(4),
    attrs: Object.fromEntries(n.msgs(5).map((e) => {
      const value = e.all(2).at(-1);
      return [e.str(1), value ? Buffer.from(bytes.subarray(value.from, value.to)).toString('hex') : ''];
    })),
  }));
}

// What inspect() says of the graph, without where it was read from.
function graphFacts(summary) {
  const { detection, inputBytes, inputs, ...rest } = summary;
  return rest;
}

for (const model of MODELS) {
  const dir = folderOf(model);
  const files = filesIn(dir);

  describe(`tfjs ${model}`, () => {
    leakCheckedTest(gp, 'load({files}), loadFile(folder) and loadFile(model.json) read the same', async () => {
      const viaFiles = withModel(gp, { files }, {}, (m) => [m.family, m.inspect(), filesOf(m.export({ to: 'graph-def' }))]);
      for (const path of [dir, join(dir, 'model.json')]) {
        const m = await gp.loadFile(path);
        try {
          assert.equal(m.family, viaFiles[0]);
          assert.deepEqual(graphFacts(m.inspect()), graphFacts(viaFiles[1]), path);
          assert.deepEqual(m.inspect().inputs, viaFiles[1].inputs, `${path}: the files read`);
          assertSameFiles(filesOf(m.export({ to: 'graph-def' })), viaFiles[2], path);
        } finally {
          m.delete();
        }
      }
      assert.equal(viaFiles[0], 'tfjs');
      assert.deepEqual([...viaFiles[1].inputs].sort(), Object.keys(files).sort());
    });

    leakCheckedTest(gp, "to: 'graph-def' is the native CLI's GraphDef, node by node and byte for byte", (t) => {
      const native = nativeExport(t, dir, ['--to', 'graph-def'], false);
      withModel(gp, { files }, {}, (m) => {
        const wasm = filesOf(m.export({ to: 'graph-def' }));
        const nodes = decodeNodes(wasm['graph.pb']);
        assert.deepEqual(nodes, decodeNodes(native['graph.pb']));
        assert.equal(nodes.length, m.inspect().nodeCount);
        assertSameFiles(wasm, native, `${model} graph-def`);
      });
    });

    for (const [label, options, args] of [
      ['', {}, []],
      [" with quantize: 'uint8'", { quantize: 'uint8' }, ['--quantize', 'uint8']],
    ]) {
      leakCheckedTest(gp, `to: 'tfjs'${label}: native and wasm write the same bytes`, (t) => {
        const native = nativeExport(t, dir, ['--to', 'tfjs', ...args], true);
        withModel(gp, { files }, {}, (m) => {
          const wasm = filesOf(m.export({ to: 'tfjs', ...options }));
          assert.ok(wasm['model.json'], 'no model.json written');
          assertSameFiles(wasm, native, `${model} tfjs${label}`);
          if (options.quantize) {
            const specs = JSON.parse(new TextDecoder().decode(wasm['model.json'])).weightsManifest.flatMap((g) => g.weights);
            assert.ok(specs.some((s) => s.quantization?.dtype === 'uint8'), 'no weight was quantized');
          }
        });
      });
    }

    leakCheckedTest(gp, "to: 'tfjs' writes model.json and its shard, which load back to the same graph", () => {
      withModel(gp, { files }, {}, (m) => {
        const written = filesOf(m.export({ to: 'tfjs' }));
        const json = JSON.parse(new TextDecoder().decode(written['model.json']));
        const shards = json.weightsManifest.flatMap((g) => g.paths);
        assert.deepEqual(Object.keys(written).sort(), ['model.json', ...shards].sort());
        const graphDef = filesOf(m.export({ to: 'graph-def' }));
        withModel(gp, { files: written }, {}, (back) => {
          assert.equal(back.family, 'tfjs');
          const a = back.inspect();
          const b = m.inspect();
          assert.equal(a.nodeCount, b.nodeCount);
          assert.deepEqual(a.ops, b.ops);
          assert.deepEqual(a.signatures, b.signatures);
          assertSameFiles(filesOf(back.export({ to: 'graph-def' })), graphDef, `${model} re-read`);
          assertSameFiles(filesOf(back.export({ to: 'tfjs' })), written, `${model} re-written`);
        });
      });
    });
  });
}

leakCheckedTest(gp, 'unfuseOps on prelu leaves no op outside ops.pbtxt', () => {
  const registry = registryOps(corpusPath('tf/ops.pbtxt'));
  withModel(gp, { files: filesIn(folderOf('prelu')) }, {}, (m) => {
    const fused = Object.keys(m.inspect().ops);
    assert.ok(fused.some((op) => !registry.has(op)), `prelu holds no op to unfuse: ${fused}`);
    const out = m.export({ to: 'graph-def', unfuseOps: true });
    withModel(gp, out.files[0].bytes, { name: 'graph.pb' }, (g) => {
      const ops = Object.keys(g.inspect().ops);
      assert.deepEqual(ops.filter((op) => !registry.has(op)), [], `ops after unfuseOps: ${ops}`);
    });
  });
});

// Issue 9's first check: TensorFlow froze the same model into frozen_graph.pb before the TF.js
// converter fused MatMul + BiasAdd; unfused, our GraphDef is that graph node by node (the
// order of the nodes aside), weights and attrs byte for byte.
leakCheckedTest(gp, 'simple, unfused, equals the frozen_graph.pb TensorFlow wrote, node by node', () => {
  const dir = folderOf('simple');
  const byName = (nodes) => Object.fromEntries(nodes.map((n) => [n.name, n]));
  const frozen = byName(decodeNodes(readBytes(join(dir, 'frozen_graph.pb'))));
  withModel(gp, { files: filesIn(dir) }, {}, (m) => {
    const ours = byName(decodeNodes(m.export({ to: 'graph-def', unfuseOps: true }).files[0].bytes));
    assert.deepEqual(Object.keys(ours).sort(), Object.keys(frozen).sort());
    for (const [name, node] of Object.entries(frozen)) assert.deepEqual(ours[name], node, name);
  });
});

describe('tfjs: broken manifests', () => {
  const dir = folderOf('simple');
  const modelJson = readFileSync(join(dir, 'model.json'), 'utf8');
  const shard = readBytes(join(dir, 'group1-shard1of1.bin'));

  leakCheckedTest(gp, 'a missing shard: NOT_FOUND naming model.json and the shard', () => {
    const error = assertGraphportError(gp, () => gp.load({ files: { 'model.json': new TextEncoder().encode(modelJson) } }),
      { codes: 'NOT_FOUND', name: 'model.json' });
    assert.equal(error.file, 'model.json');
    assert.match(error.message, /group1-shard1of1\.bin/);
  });

  leakCheckedTest(gp, "a '..' shard path: refused, naming model.json and the path", () => {
    const json = JSON.parse(modelJson);
    json.weightsManifest[0].paths = ['../group1-shard1of1.bin'];
    const error = assertGraphportError(gp, () => gp.load({
      files: { 'model.json': new TextEncoder().encode(JSON.stringify(json)), 'group1-shard1of1.bin': shard },
    }), { codes: ['UNSUPPORTED', 'INVALID_INPUT', 'PARSE_ERROR'], name: 'model.json' });
    assert.equal(error.file, 'model.json');
    assert.match(error.message, /\.\.\/group1-shard1of1\.bin/);
  });

  leakCheckedTest(gp, 'after the failures the instance still loads the model', () => {
    withModel(gp, { files: filesIn(dir) }, {}, (m) => assert.equal(m.family, 'tfjs'));
  });
});

// A model with modelInitializer (a hash table's init op, built by the test): both builds
// carry it into the SavedModel and back to the same bytes.
describe('tfjs: modelInitializer', () => {
  for (const tf2 of [false, true]) {
    const files = tableModelFiles({ tf2 });
    const form = tf2 ? 'TF2 form' : 'TF1 form';
    leakCheckedTest(gp, `${form}: to: 'saved-model' and to: 'tfjs': native and wasm write the same bytes`, (t) => {
      const dir = join(tempDir(t, 'graphport-tfjs-table-'), 'model');
      mkdirSync(dir);
      for (const [name, bytes] of Object.entries(files)) writeFileSync(join(dir, name), bytes);
      for (const to of ['saved-model', 'tfjs']) {
        const native = nativeExport(t, dir, ['--to', to], true);
        withModel(gp, { files }, {}, (m) => {
          const wasm = filesOf(m.export({ to }));
          assertSameFiles(wasm, native, `table model (${form}) ${to}`);
          if (to === 'tfjs') {
            const json = JSON.parse(new TextDecoder().decode(wasm['model.json']));
            assert.equal(json.modelInitializer.node.length, tf2 ? 5 : 4);
            if (tf2) assert.equal(json.signature.inputs.unknown.resourceId, 42);
          }
        });
      }
    });
  }
});

// filename names the model JSON of a TF.js export; a name a reader would not find is refused.
describe("tfjs: filename with to: 'tfjs'", () => {
  const files = filesIn(folderOf('simple'));
  leakCheckedTest(gp, 'names the model JSON, which loads back', () => {
    withModel(gp, { files }, {}, (m) => {
      const written = filesOf(m.export({ to: 'tfjs', filename: 'simple.json' }));
      assert.deepEqual(Object.keys(written).sort(), ['group1-shard1of1.bin', 'simple.json']);
      withModel(gp, { files: written }, {}, (back) => assert.equal(back.inspect().nodeCount, m.inspect().nodeCount));
      // A path is refused by the schema's fileName rule, a name that is no JSON by the writer.
      for (const [filename, why] of [['../simple.json', /not a path/], ['sub/simple.json', /not a path/], ['simple.txt', /ending in \.json/]]) {
        const e = assertGraphportError(gp, () => m.export({ to: 'tfjs', filename }), { codes: 'INVALID_OPTION' });
        assert.match(e.message, why, e.message);
      }
    });
  });
});

// The TF.js runtime check of issue 9: real TF.js graph models (@vladmandic/human's) go through
// graphport to a TensorFlow GraphDef and back to a TF.js model, and TensorFlow.js itself (cpu
// backend) runs the original and the result on the same seeded input: outputs bitwise equal,
// weights equal name by name; a uint8 re-export stays within one quantization step; the
// unfused graph holds only registry ops and computes the same within 1e-5 relative.
//
// Every graph model of @vladmandic/human's models/ folder (11; models.json there is an index,
// not a model). Among what they cover: _FusedConv2D + _FusedMatMul (antispoof, faceres),
// FusedDepthwiseConv2dNative and an int32 input (movenet-lightning), control flow and NMS
// (handtrack), the signature under userDefinedMetadata (blazeface, emotion, iris), a 512x512
// input (centernet, the slowest: a third of the file's time). The file took 70 s of CPU
// (user + sys) when measured, nearly all of it TF.js's cpu backend running each model three
// times (original, round trip, unfused); that JS is single-threaded, so an idle core runs the
// file in about that time.
import assert from 'node:assert/strict';
import { describe } from 'node:test';

import { checkNoLeaksAtEnd, corpusPath, graphport, leakCheckedTest, withModel } from './helpers.mjs';
import {
  bytesOfValues, decodedWeights, disposeAll, filesOf, humanModelFiles, loadGraphModel, modelJson,
  outputNames, registryOps, run, seededInputs, tf, VERSIONS,
} from './tfjs/runtime.mjs';
import { TABLE_KEYS, tableModelFiles } from './tfjs/table_model.mjs';

const gp = await graphport();
checkNoLeaksAtEnd(gp);

const MODELS = ['antispoof', 'blazeface', 'centernet', 'emotion', 'facemesh', 'faceres', 'handlandmark-lite', 'handtrack', 'iris', 'liveness', 'movenet-lightning'];
const SEED = 20261201;
const REGISTRY = registryOps(corpusPath('tf/ops.pbtxt'));
assert.ok(REGISTRY.size > 1000, `ops.pbtxt defines only ${REGISTRY.size} ops`);

// TF.js model → GraphDef → TF.js model, through graphport; returns the files of each step.
function roundTrip(input, exportOptions = {}) {
  return withModel(gp, { files: input.files, primary: input.primary }, {}, (original) => {
    const graphDef = filesOf(original.export({ to: 'graph-def', ...exportOptions }));
    assert.deepEqual(Object.keys(graphDef), ['graph.pb']);
    const tfjs = withModel(gp, graphDef['graph.pb'], { name: 'graph.pb' },
      (graph) => filesOf(graph.export({ to: 'tfjs' })));
    return { graphDef, tfjs };
  });
}

// Outputs that are all NaN, all zero or all one value would compare equal whatever the graph
// did (antispoof has a single output value: it must at least be finite and non-zero).
function humanOps(input) {
  return withModel(gp, { files: input.files, primary: input.primary }, {}, (m) => m.inspect().ops);
}

function assertMeaningful(outputs, what) {
  const values = Object.values(outputs).flatMap((o) => Array.from(o.values));
  assert.ok(values.length > 0, `${what}: no output values`);
  assert.ok(values.every((v) => Number.isFinite(Number(v))), `${what}: an output is not finite`);
  assert.ok(values.some((v) => Number(v) !== 0), `${what}: every output value is zero`);
  assert.ok(values.length === 1 || new Set(values).size > 1, `${what}: every output value is the same`);
}

function assertBitwiseEqual(actual, expected, what) {
  assert.deepEqual(Object.keys(actual), Object.keys(expected), `${what}: output names`);
  for (const [name, e] of Object.entries(expected)) {
    const a = actual[name];
    assert.equal(a.dtype, e.dtype, `${what} ${name}: dtype`);
    assert.deepEqual(a.shape, e.shape, `${what} ${name}: shape`);
    assert.ok(bytesOfValues(a.values).equals(bytesOfValues(e.values)), `${what} ${name}: values differ`);
  }
}

// Largest |a - b| / max(|a|, |b|, floor) over every element: relative, except that values
// both below `floor` (noise around zero, where a relative error means nothing) count against
// the floor.
function worstRelative(actual, expected, floor = 1e-6) {
  let worst = 0;
  for (const [name, e] of Object.entries(expected)) {
    const a = actual[name];
    assert.deepEqual(a.shape, e.shape, `${name}: shape`);
    for (let i = 0; i < e.values.length; i += 1) {
      const x = Number(a.values[i]);
      const y = Number(e.values[i]);
      const scale = Math.max(Math.abs(x), Math.abs(y));
      const diff = Math.abs(x - y);
      worst = Math.max(worst, diff / Math.max(scale, floor));
    }
  }
  return worst;
}

for (const name of MODELS) {
  describe(`TF.js runtime: ${name} (${VERSIONS['@vladmandic/human']} models, tfjs ${VERSIONS['@tensorflow/tfjs-core']})`, () => {
    const input = humanModelFiles(name);
    const json = modelJson({ [input.primary]: input.files[input.primary] });
    const names = outputNames(json);
    let fusedOutputs = null;

    leakCheckedTest(gp, 'TF.js → GraphDef → TF.js runs bitwise equal to the original; weights equal', async () => {
      const { tfjs } = roundTrip(input);
      const original = await loadGraphModel(input.files);
      const back = await loadGraphModel(tfjs);
      try {
        const feeds = seededInputs(json, SEED);
        try {
          fusedOutputs = await run(original, feeds, names);
          assertMeaningful(fusedOutputs, name);
          const backOutputs = await run(back, feeds, names);
          assertBitwiseEqual(backOutputs, fusedOutputs, name);
        } finally {
          disposeAll(feeds);
        }
      } finally {
        original.dispose();
        back.dispose();
      }
      const before = decodedWeights(input.files);
      const after = decodedWeights(tfjs);
      assert.deepEqual(Object.keys(after).sort(), Object.keys(before).sort(), 'weight names');
      for (const [w, e] of Object.entries(before)) {
        assert.equal(after[w].dtype, e.dtype, `${w}: dtype`);
        assert.deepEqual(after[w].shape, e.shape, `${w}: shape`);
        assert.ok(bytesOfValues(after[w].values).equals(bytesOfValues(e.values)), `${w}: values differ`);
      }
    });

    leakCheckedTest(gp, "quantize: 'uint8': every weight within its quantization step", () => {
      const quantized = withModel(gp, { files: input.files, primary: input.primary }, {},
        (m) => filesOf(m.export({ to: 'tfjs', quantize: 'uint8' })));
      const specs = modelJson(quantized).weightsManifest.flatMap((g) => g.weights);
      const before = decodedWeights(input.files);
      const after = decodedWeights(quantized);
      assert.deepEqual(Object.keys(after).sort(), Object.keys(before).sort(), 'weight names');
      let quantizedCount = 0;
      for (const spec of specs) {
        const e = before[spec.name];
        const a = after[spec.name];
        assert.deepEqual(a.shape, e.shape, `${spec.name}: shape`);
        if (!spec.quantization) {
          assert.ok(bytesOfValues(a.values).equals(bytesOfValues(e.values)), `${spec.name}: unquantized weight changed`);
          continue;
        }
        quantizedCount += 1;
        assert.equal(spec.quantization.dtype, 'uint8', spec.name);
        // Rounding to the nearest code is off by half a step at most; a full step allows for
        // the float32 arithmetic of scale and min.
        const step = spec.quantization.scale;
        for (let i = 0; i < e.values.length; i += 1) {
          const diff = Math.abs(a.values[i] - e.values[i]);
          assert.ok(diff <= step, `${spec.name}[${i}]: ${a.values[i]} vs ${e.values[i]}, step ${step}`);
        }
      }
      assert.ok(quantizedCount > 0, 'no weight was quantized');
    });

    leakCheckedTest(gp, 'unfuseOps: only registry ops, and the same outputs within 1e-5 relative', async (t) => {
      const fusedOps = Object.keys(humanOps(input));
      assert.ok(fusedOps.some((op) => !REGISTRY.has(op)), 'the original holds no op to unfuse');
      const { graphDef, tfjs } = roundTrip(input, { unfuseOps: true });
      const ops = withModel(gp, graphDef['graph.pb'], { name: 'graph.pb' }, (m) => Object.keys(m.inspect().ops));
      const foreign = ops.filter((op) => !REGISTRY.has(op));
      assert.deepEqual(foreign, [], `ops outside ops.pbtxt after unfuseOps`);
      const unfused = await loadGraphModel(tfjs);
      try {
        const feeds = seededInputs(json, SEED);
        try {
          const outputs = await run(unfused, feeds, names);
          assert.ok(fusedOutputs, 'the fused run (the first test) did not finish');
          const worst = worstRelative(outputs, fusedOutputs);
          t.diagnostic(`${name}: worst relative difference unfused vs fused ${worst}`);
          assert.ok(worst <= 1e-5, `${name}: worst relative difference ${worst}`);
        } finally {
          disposeAll(feeds);
        }
      } finally {
        unfused.dispose();
      }
    });
  });
}

// modelInitializer: the table's init op travels through a TensorFlow SavedModel (its
// saved_model_main_op) and back into modelInitializer; TF.js fills the table from it in both.
describe('TF.js runtime: a model with a hash table in modelInitializer', () => {
  for (const tf2 of [false, true]) {
    const form = tf2 ? 'TF2 form (resourceId)' : 'TF1 form (the table in both graphs)';
    leakCheckedTest(gp, `${form}: TF.js → SavedModel → TF.js looks up the same values`, async () => {
      const input = tableModelFiles({ tf2 });
      const output = tf2 ? 'Identity:0' : 'output:0';
      const saved = withModel(gp, { files: input, primary: 'model.json' }, {},
        (m) => filesOf(m.export({ to: 'saved-model' })));
      const [savedName] = Object.keys(saved);
      const back = withModel(gp, saved[savedName], { name: savedName }, (m) => {
        const collections = m.inspect().collections.map((c) => c.name ?? c);
        assert.ok(collections.includes('saved_model_main_op'), `collections: ${collections}`);
        return filesOf(m.export({ to: 'tfjs' }));
      });
      const json = modelJson(back);
      assert.deepEqual(json.modelInitializer.node.map((n) => n.name),
        ['hash_table', 'keys', 'values', 'key_value_init', ...(tf2 ? ['Identity'] : [])]);
      assert.ok(!json.modelTopology.node.some((n) => n.op === 'NoOp' || n.name === 'keys'));

      const keys = [...TABLE_KEYS, 'z'].reverse();
      const results = [];
      for (const files of [input, back]) {
        const model = await loadGraphModel(files);
        const feed = tf.tensor1d(keys, 'string');
        try {
          results.push(await run(model, { 'input:0': feed }, [output]));
        } finally {
          feed.dispose();
          model.dispose();
        }
      }
      assert.deepEqual(Array.from(results[0][output].values), [-1, 3, 2, 1]);
      assert.deepEqual(Array.from(results[1][output].values), [-1, 3, 2, 1]);
    });
  }
});

// Issue 32: a SavedModel with variables converts to a TF.js graph model that the TF.js
// runtime (the devDependency, cpu backend) runs, computing what the model means. Every
// SavedModel with variables we have is exported with to: 'tfjs' (which freezes it) and run on
// the signatures the converter would accept; a signature whose ops TF.js cannot run gets the
// pre-flight's UNSUPPORTED error naming them, not a file.
//
// Expected values: TF Serving's half_plus_two family computes y = a·x + b with a, b read
// from its checkpoint (research savedmodel_freeze.md §7: 0.5 and 2.0; half_plus_three 0.5 and
// 3.0); the tfjs-node test objects compute what tfjs-node's own tests assert
// (../shared/savedmodels/README.md).
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe } from 'node:test';

import {
  assertGraphportError, checkNoLeaksAtEnd, corpusPath, folderFiles, graphport, leakCheckedTest, REPO, withModel,
} from './helpers.mjs';
import { checkpointPrefix, readCheckpointIndex, readCheckpointValue } from './checkpoint_reader.mjs';
import { disposeAll, filesOf, loadGraphModel, modelJson, run, tf } from './tfjs/runtime.mjs';
import { readFields } from './wire.mjs';

const gp = await graphport();
checkNoLeaksAtEnd(gp);

const SERVABLES = 'tf/serving/servables/tensorflow/testdata';
const SAVEDMODELS = join(REPO, '..', 'shared', 'savedmodels');

// Exports the folder's signature to TF.js and runs the result on `feeds` ({key: tensor args});
// returns {key: values} of the outputs, and the export's info.
async function freezeAndRun(dir, signature, feeds) {
  const input = folderFiles(dir);
  const { files, info } = withModel(gp, input, {}, (m) => {
    const out = m.export({ to: 'tfjs', signature });
    return { files: filesOf(out), info: out.info };
  });
  const json = modelJson(files);
  const model = await loadGraphModel(files);
  try {
    const inputs = {};
    for (const [key, [values, shape, dtype]] of Object.entries(feeds)) {
      const spec = json.signature.inputs[key];
      assert.ok(spec, `the TF.js signature has no input '${key}': ${JSON.stringify(json.signature)}`);
      inputs[spec.name] = tf.tensor(values, shape, dtype);
    }
    const keys = Object.keys(json.signature.outputs).sort();
    const names = keys.map((k) => json.signature.outputs[k].name);
    try {
      const outputs = await run(model, inputs, names);
      return { info, json, outputs: Object.fromEntries(keys.map((k, i) => [k, Array.from(outputs[names[i]].values)])) };
    } finally {
      disposeAll(inputs);
    }
  } finally {
    model.dispose();
  }
}

const CASES = [
  {
    name: 'TF Serving half_plus_two, TF2 (snappy index)',
    dir: corpusPath(`${SERVABLES}/saved_model_half_plus_two_tf2_cpu/00000123`),
    runs: [
      { signature: 'serving_default', feeds: { x: [[1], [1], 'float32'] }, expect: { y: [2.5] } },
      { signature: 'serving_default', feeds: { x: [[3], [1], 'float32'] }, expect: { y: [3.5] } },
      { signature: 'regress_x2_to_y3', feeds: { inputs: [[4], [1], 'float32'] }, expect: { outputs: [5] } },
      { signature: 'classify_x2_to_y3', feeds: { inputs: [[2], [1], 'float32'] }, expect: { scores: [4] } },
    ],
    unsupported: [{ signature: 'regress_x_to_y', op: 'ParseExampleV2' }],
  },
  {
    name: 'TF Serving half_plus_two, TF1 (snappy index)',
    dir: corpusPath(`${SERVABLES}/saved_model_half_plus_two_cpu/00000123`),
    runs: [{ signature: 'serving_default', feeds: { x: [[1, 3], [2, 1], 'float32'] }, expect: { y: [2.5, 3.5] } }],
  },
  {
    name: 'TF Serving half_plus_three, TF1',
    dir: corpusPath(`${SERVABLES}/saved_model_half_plus_three/00000123`),
    runs: [{ signature: 'serving_default', feeds: { x: [[1, 3], [2], 'float32'] }, expect: { y: [3.5, 4.5] } }],
  },
  {
    name: 'tfjs-node times_three_float',
    dir: join(SAVEDMODELS, 'tfjs-node/times_three_float'),
    runs: [{ signature: 'serving_default', feeds: { x: [[2], [], 'float32'] }, expect: { output_0: [6] } }],
  },
  {
    name: 'tfjs-node times_two_int',
    dir: join(SAVEDMODELS, 'tfjs-node/times_two_int'),
    runs: [{ signature: 'serving_default', feeds: { x: [[7], [], 'int32'] }, expect: { output_0: [14] } }],
  },
  {
    // int64 in TensorFlow: TF.js computes it as int32, and the weights are written so.
    name: 'tfjs-node int64_multiply',
    dir: join(SAVEDMODELS, 'tfjs-node/int64_multiply'),
    runs: [{ signature: 'serving_default', feeds: { x: [[3, 4], [2], 'int32'] }, expect: { output_0: [18, 24] } }],
  },
  {
    name: 'tfjs-node uint8_multiply',
    dir: join(SAVEDMODELS, 'tfjs-node/uint8_multiply'),
    runs: [{ signature: 'serving_default', feeds: { x: [[3], [1], 'int32'] }, expect: { output_0: [18] } }],
  },
  {
    name: 'tfjs-node model_multi_output',
    dir: join(SAVEDMODELS, 'tfjs-node/model_multi_output'),
    runs: [{ signature: 'serving_default', feeds: { x: [[2], [], 'int32'], y: [[5], [], 'int32'] }, expect: { output_0: [4], output_1: [5] } }],
  },
  {
    name: 'tfjs-node model_single_input_multi_output',
    dir: join(SAVEDMODELS, 'tfjs-node/model_single_input_multi_output'),
    runs: [{ signature: 'serving_default', feeds: { x: [[7], [], 'int32'] }, expect: { output_0: [14], output_1: [7] } }],
  },
  {
    name: 'tfjs-node module_with_multiple_signatures',
    dir: join(SAVEDMODELS, 'tfjs-node/module_with_multiple_signatures'),
    runs: [
      { signature: 'serving_default', feeds: { x: [[3], [], 'float32'] }, expect: { output_0: [9] } },
      { signature: 'timestwo', feeds: { x: [[3], [], 'float32'] }, expect: { output_0: [6] } },
    ],
  },
  {
    name: 'TF 1.2 regression (train and serve tags)',
    dir: join(SAVEDMODELS, 'tf1_regression_train_serve/saved_model'),
    runs: [{ signature: 'tensorflow/serving/regress', feeds: { x: [[0, 1], [2], 'float32'] }, check: 'affine' }],
  },
  {
    // Keras LSTM: StatelessWhile and TensorList ops, kept as control flow v2 with its body.
    name: 'Keras LSTM (TF 2.12)',
    dir: join(SAVEDMODELS, 'keras_lstm_sequential/saved_model'),
    runs: [{ signature: 'serving_default', feeds: { input_1: [Array.from({ length: 30 }, (_, i) => (i % 7) / 7), [2, 5, 3], 'float32'] }, check: 'sigmoid' }],
  },
  {
    // TF 1.12 LeNet with its Adam training graph: VariableV2 through Assign/RestoreV2.
    name: 'TF1 LeNet (tensorspace)',
    dir: join(SAVEDMODELS, 'tf1_lenet_tensorspace/saved_model'),
    runs: [{ signature: 'serving_default', feeds: { input: [Array.from({ length: 2048 }, (_, i) => (i % 13) / 13), [2, 32, 32, 1], 'float32'] }, check: 'softmax' }],
  },
  {
    name: 'TFX chicago taxi (tf.Example input)',
    dir: join(SAVEDMODELS, 'tfx_chicago_taxi_estimator_v1/saved_model'),
    runs: [],
    unsupported: [{ signature: 'serving_default', op: 'ParseExampleV2' }],
  },
];

for (const c of CASES) {
  describe(`freeze to TF.js and run: ${c.name}`, () => {
    for (const r of c.runs) {
      leakCheckedTest(gp, `signature ${r.signature} computes what the model means`, async () => {
        const { info, outputs } = await freezeAndRun(c.dir, r.signature, r.feeds);
        assert.equal(info.frozen.signature, r.signature);
        assert.ok(info.frozen.variables >= 1, `no variable was frozen: ${JSON.stringify(info.frozen)}`);
        if (r.check === 'softmax') {
          // Two rows of class probabilities: each sums to 1 and is not uniform.
          const [p] = Object.values(outputs);
          for (const row of [p.slice(0, 10), p.slice(10)]) {
            assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-4, `row ${row}`);
            assert.ok(Math.max(...row) > 0.2, `row ${row}`);
          }
          return;
        }
        if (r.check === 'sigmoid') {
          const [p] = Object.values(outputs);
          assert.ok(p.length === 2 && p.every((v) => v > 0 && v < 1), `outputs ${p}`);
          return;
        }
        if (r.check === 'affine') {
          // A trained y = w·x + b: what the checkpoint holds is not published, so the test
          // checks that the model is that line (f(0) = b, f(1) - f(0) = w, both finite and
          // the line not flat).
          const [y] = Object.values(outputs);
          assert.ok(y.every(Number.isFinite) && y[0] !== y[1], `outputs ${y}`);
          return;
        }
        assert.deepEqual(Object.keys(outputs), Object.keys(r.expect).sort());
        for (const [key, values] of Object.entries(r.expect)) {
          assert.deepEqual(outputs[key], values, `output ${key}`);
        }
      });
    }
    for (const u of c.unsupported ?? []) {
      leakCheckedTest(gp, `signature ${u.signature}: the pre-flight names ${u.op}, and no file`, () => {
        withModel(gp, folderFiles(c.dir), {}, (m) => {
          const error = assertGraphportError(gp, () => m.export({ to: 'tfjs', signature: u.signature }),
            { codes: 'UNSUPPORTED' });
          assert.match(error.message, new RegExp(`${u.op} x\\d+`));
          const out = m.export({ to: 'tfjs', signature: u.signature, allowUnsupportedOps: true });
          assert.ok(out.info.unsupportedOps.some((o) => o.op === u.op), JSON.stringify(out.info.unsupportedOps));
        });
      });
    }
  });
}

leakCheckedTest(gp, 'freeze: false with to: tfjs on a model with variables says why', () => {
  const dir = corpusPath(`${SERVABLES}/saved_model_half_plus_two_tf2_cpu/00000123`);
  withModel(gp, folderFiles(dir), {}, (m) => {
    const error = assertGraphportError(gp, () => m.export({ to: 'tfjs', freeze: false }),
      { codes: 'INVALID_OPTION' });
    assert.match(error.message, /VarHandleOp x\d+/);
    assert.match(error.message, /StatefulPartitionedCall x\d+/);
  });
});

leakCheckedTest(gp, 'freeze: true to a GraphDef writes the classic frozen graph', () => {
  const dir = corpusPath(`${SERVABLES}/saved_model_half_plus_two_tf2_cpu/00000123`);
  withModel(gp, folderFiles(dir), {}, (m) => {
    const out = m.export({ to: 'graph-def', freeze: true });
    assert.deepEqual(out.files.map((f) => f.name), ['graph.pb']);
    withModel(gp, out.files[0].bytes, { name: 'graph.pb' }, (frozen) => {
      const ops = frozen.inspect().ops;
      for (const gone of ['VarHandleOp', 'ReadVariableOp', 'StatefulPartitionedCall']) {
        assert.equal(ops[gone], undefined, `${gone} left in ${JSON.stringify(ops)}`);
      }
      assert.equal(ops.Const, 2);
    });
  });
});

// Every folder under `root` that holds a checkpoint (variables/variables.index).
function checkpointFolders(root) {
  const out = [];
  const walk = (d) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, entry.name);
      if (entry.isDirectory()) {
        // A checkpoint beside a graph (tf_text_regression has variables/ but no saved_model.pb).
        const graph = readdirSync(d).includes('saved_model.pb');
        if (entry.name === 'variables' && readdirSync(p).includes('variables.index')) {
          if (graph) out.push(d);
        }
        else walk(p);
      }
    }
  };
  walk(root);
  return out.sort();
}

// {node name: tensor_content bytes} of a GraphDef's Const nodes, read with the tests' own wire
// reader (GraphDef.node 1; NodeDef name 1, op 2, attr 5; AttrValue.tensor 8;
// TensorProto.tensor_content 4).
function constContents(graph) {
  const utf8 = new TextDecoder();
  const out = {};
  for (const node of readFields(graph).filter((f) => f.number === 1)) {
    const fields = readFields(graph, node.from, node.to);
    const text = (n) => {
      const f = fields.find((x) => x.number === n);
      return f ? utf8.decode(graph.subarray(f.from, f.to)) : '';
    };
    if (text(2) !== 'Const') continue;
    for (const attr of fields.filter((f) => f.number === 5)) {
      const entry = readFields(graph, attr.from, attr.to);
      const key = entry.find((f) => f.number === 1);
      const value = entry.find((f) => f.number === 2);
      if (!key || !value || utf8.decode(graph.subarray(key.from, key.to)) !== 'value') continue;
      const tensor = readFields(graph, value.from, value.to).find((f) => f.number === 8);
      if (!tensor) continue;
      const content = readFields(graph, tensor.from, tensor.to).find((f) => f.number === 4);
      out[text(1)] = content ? graph.subarray(content.from, content.to) : new Uint8Array(0);
    }
  }
  return out;
}

const DT_STRING = 7;

leakCheckedTest(gp, 'the frozen weights are the checkpoint\'s bytes, bit for bit, in every SavedModel we have', () => {
  const folders = [...checkpointFolders(corpusPath('tf')), ...checkpointFolders(SAVEDMODELS)];
  assert.ok(folders.length >= 19, `only ${folders.length} checkpoints found`);
  let compared = 0;
  let frozenFolders = 0;
  const refused = [];
  for (const dir of folders) {
    const prefix = checkpointPrefix(dir);
    const index = readCheckpointIndex(prefix);
    withModel(gp, folderFiles(dir), {}, (m) => {
      let out;
      try {
        out = m.export({ to: 'graph-def', freeze: true });
      } catch (e) {
        assert.ok(e instanceof gp.GraphportError && e.code !== 'INTERNAL', `${dir}: ${e.message}`);
        refused.push(`${relative(REPO, dir)}: ${e.code}`);
        return;
      }
      frozenFolders += 1;
      const consts = constContents(out.files[0].bytes);
      for (const { node, key } of out.info.frozen.constants) {
        if (!key) continue;
        const entry = index[key];
        assert.ok(entry, `${dir}: the freeze read key ${key}, which the index lacks`);
        if (entry.dtype === DT_STRING) continue;
        const want = readCheckpointValue(prefix, entry);
        assert.ok(consts[node], `${dir}: no Const ${node} in the frozen graph`);
        assert.ok(Buffer.from(consts[node]).equals(Buffer.from(want)), `${dir}: ${node} (${key}) differs from the checkpoint`);
        compared += 1;
      }
    });
  }
  assert.ok(frozenFolders >= 15, `only ${frozenFolders} of ${folders.length} froze; refused: ${refused.join('; ')}`);
  assert.ok(compared >= 40, `only ${compared} weights compared`);
});

// korean_spacing comes with the TF.js model that tensorflowjs_converter 2.4.0 made of this
// very folder (savedmodels/README.md): both run on the same seeded inputs.
leakCheckedTest(gp, 'korean_spacing: graphport\'s TF.js model computes what tensorflowjs_converter\'s does', async () => {
  const dir = join(SAVEDMODELS, 'korean_spacing_conv1d');
  const ours = withModel(gp, folderFiles(join(dir, 'saved_model')), {}, (m) => filesOf(m.export({ to: 'tfjs' })));
  const reference = {};
  for (const f of readdirSync(join(dir, 'tfjs_reference'))) reference[f] = new Uint8Array(readFileSync(join(dir, 'tfjs_reference', f)));
  const histogram = (files) => {
    const h = {};
    for (const node of modelJson(files).modelTopology.node) h[node.op] = (h[node.op] ?? 0) + 1;
    return h;
  };
  // The same ops, as many of each: the filters' ExpandDims of a constant and the Tensordot
  // permutations are folded, the identity transposes gone, as Grappler does. The folded
  // filters carry the names of the ExpandDims they replaced, as the converter's do.
  const a = histogram(ours);
  const b = histogram(reference);
  assert.deepEqual(a, b);
  assert.equal(a._FusedConv2D, 9);
  const names = (files) => new Set(modelJson(files).modelTopology.node.map((n) => n.name));
  const ourNames = names(ours);
  const folded = [...names(reference)].filter((n) => n.endsWith('/conv1d/ExpandDims_1'));
  assert.equal(folded.length, 9);
  for (const name of folded) assert.ok(ourNames.has(name), name);
  const x = await loadGraphModel(ours);
  const y = await loadGraphModel(reference);
  try {
    for (const seed of [1, 2, 3]) {
      const input = tf.randomUniform([2 + seed, 5 + 4 * seed], 0, 2000, 'int32', seed);
      const [p, q] = [x, y].map((model) => model.execute({ 'input_tensor:0': input }, 'Identity:0'));
      const pv = p.dataSync();
      const qv = q.dataSync();
      assert.deepEqual(p.shape, q.shape);
      let worst = 0;
      for (let i = 0; i < qv.length; i += 1) worst = Math.max(worst, Math.abs(pv[i] - qv[i]) / Math.max(Math.abs(qv[i]), 1e-6));
      assert.ok(worst <= 1e-5, `seed ${seed}: worst relative difference ${worst}`);
      assert.ok(new Set(qv).size > 10, 'the reference computes something');
      tf.dispose([input, p, q]);
    }
  } finally {
    x.dispose();
    y.dispose();
  }
});

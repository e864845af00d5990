// Issue 32, hash tables: a TF2 SavedModel whose signature reads lookup tables converts to a
// TF.js graph model with the tables in modelInitializer, as tfjs-converter lays it out, and the
// TF.js runtime (the devDependency, cpu backend) fills them and looks keys up in them.
//
// The model: tf.Transform's tfx_tft_tf2_hashtables (../shared/savedmodels/README.md). Its
// serving signature maps each feature; payment_type_xf and company_xf are
// compute_and_apply_vocabulary: a key's line number in its vocabulary file (assets/), or, for
// a key the file lacks (the table's default -1), the table's size plus the key's hash bucket.
// The expected values come from the vocabulary files as this test reads them; the hash bucket
// from TF.js's own StringToHashBucketFast, the part of the graph that is not the table.
//
// tfjs-converter accepts none of this model's signatures: serving_default holds
// BoostedTreesBucketize, which TF.js has no kernel for. So the export is made with
// allowUnsupportedOps and the runtime computes the outputs that do not need it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe } from 'node:test';

import {
  assertGraphportError, checkNoLeaksAtEnd, folderFiles, graphport, leakCheckedTest, REPO, withModel,
} from './helpers.mjs';
import { disposeAll, filesOf, loadGraphModel, modelJson, run, tf } from './tfjs/runtime.mjs';

const gp = await graphport();
checkNoLeaksAtEnd(gp);

const DIR = join(REPO, '..', 'shared', 'savedmodels', 'tfx_tft_tf2_hashtables', 'saved_model');


// The vocabulary as TensorFlow reads a table's text file: a key per line, its value the
// line's number.
function vocabulary(asset) {
  const text = readFileSync(join(DIR, 'assets', asset), 'utf8');
  return text.split('\n').filter((line, i, all) => !(i === all.length - 1 && line === ''));
}

// Each table's output, the sparse feature that feeds it (indices, values, dense_shape: the
// signature's inputs in feature order) and its vocabulary.
const TABLES = [
  { output: 'payment_type_xf', inputs: ['inputs_18', 'inputs_19', 'inputs_20'],
    vocabulary: vocabulary('vocab_compute_and_apply_vocabulary_vocabulary'),
    unknown: ['Bitcoin', 'cash', ''] },
  { output: 'company_xf', inputs: ['inputs', 'inputs_1', 'inputs_2'],
    vocabulary: vocabulary('vocab_compute_and_apply_vocabulary_1_vocabulary'),
    unknown: ['Nobody Cab', 'Flash Cab '] },
];

function exportTfjs(input) {
  return withModel(gp, input, {}, (m) => {
    const out = m.export({ to: 'tfjs', allowUnsupportedOps: true });
    return { files: filesOf(out), info: out.info };
  });
}

// The StringToHashBucketFast node that buckets a table's unknown keys: its num_buckets.
function oovBuckets(json, output) {
  const scope = output === 'company_xf' ? 'compute_and_apply_vocabulary_1/' : 'compute_and_apply_vocabulary/';
  const node = json.modelTopology.node.find(
    (n) => n.op === 'StringToHashBucketFast' && n.name.includes(`/${scope}apply_vocab/`));
  assert.ok(node, `no hash bucket node for ${output}`);
  return Number(node.attr.num_buckets.i);
}

// Runs the TF.js model on every key of each vocabulary and a few it lacks; checks each output
// against the vocabulary.
async function runTables(files) {
  const json = modelJson(files);
  const model = await loadGraphModel(files);
  try {
    const feeds = {};
    const keysOf = {};
    for (const t of TABLES) {
      const keys = [...t.vocabulary, ...t.unknown];
      keysOf[t.output] = keys;
      const [indices, values, shape] = t.inputs.map((k) => json.signature.inputs[k].name);
      feeds[indices] = tf.tensor2d(keys.flatMap((_, i) => [i, 0]), [keys.length, 2], 'int32');
      feeds[values] = tf.tensor1d(keys, 'string');
      feeds[shape] = tf.tensor1d([keys.length, 1], 'int32');
    }
    const names = TABLES.map((t) => json.signature.outputs[t.output].name);
    const outputs = await run(model, feeds, names);
    disposeAll(feeds);
    for (const [i, t] of TABLES.entries()) {
      const got = Array.from(outputs[names[i]].values);
      const keys = keysOf[t.output];
      const buckets = oovBuckets(json, t.output);
      const hashes = tf.string.stringToHashBucketFast(tf.tensor1d(t.unknown, 'string'), buckets);
      const hashed = Array.from(hashes.dataSync());
      hashes.dispose();
      const expected = [
        ...t.vocabulary.map((_, line) => line),
        ...hashed.map((bucket) => t.vocabulary.length + bucket),
      ];
      assert.equal(got.length, keys.length, t.output);
      assert.deepEqual(got, expected, `${t.output}: ${JSON.stringify(keys)}`);
      for (const v of got.slice(t.vocabulary.length)) {
        assert.ok(v >= t.vocabulary.length && v < t.vocabulary.length + buckets, `${t.output}: ${v}`);
      }
    }
  } finally {
    model.dispose();
  }
}

describe('freeze to TF.js with hash tables: tfx_tft_tf2_hashtables', () => {
  leakCheckedTest(gp, 'the tables go to modelInitializer and TF.js looks keys up in them', async () => {
    const { files, info } = exportTfjs(folderFiles(DIR));
    assert.equal(TABLES[0].vocabulary.length, 10);
    assert.equal(TABLES[1].vocabulary.length, 150);
    // What graphport did, in info: each table filled from its asset file.
    const filled = info.frozen.tables.fromTextFiles;
    assert.deepEqual(filled.map((f) => [f.asset, f.entries, f.madeOp]), [
      ['vocab_compute_and_apply_vocabulary_vocabulary', 10, 'LookupTableImportV2'],
      ['vocab_compute_and_apply_vocabulary_1_vocabulary', 150, 'LookupTableImportV2'],
    ]);
    assert.deepEqual(info.unsupportedOps.map((o) => o.op), ['BoostedTreesBucketize']);
    const json = modelJson(files);
    assert.deepEqual(Object.keys(json.initializerSignature.outputs), ['Identity:0', 'Identity_1:0']);
    // Each table's resource input, keyed by tensor name as the converter keys it, paired with
    // its initializer output by resourceId.
    const resources = Object.entries(json.signature.inputs).filter(([, v]) => v.resourceId != null);
    assert.deepEqual(resources.map(([k, v]) => [k, v.resourceId]), [['unknown_6:0', 7], ['unknown_9:0', 9]]);
    assert.deepEqual(Object.values(json.initializerSignature.outputs).map((v) => v.resourceId), [7, 9]);
    await runTables(files);
  });

  leakCheckedTest(gp, 'graphport reads the model back, tables and all, and it runs the same', async () => {
    const { files } = exportTfjs(folderFiles(DIR));
    const again = exportTfjs({ files, primary: 'model.json' });
    assert.deepEqual(modelJson(again.files).initializerSignature, modelJson(files).initializerSignature);
    await runTables(again.files);
  });

  leakCheckedTest(gp, 'the pre-flight checks both graphs and names only what TF.js cannot run', () => {
    withModel(gp, folderFiles(DIR), {}, (m) => {
      const error = assertGraphportError(gp, () => m.export({ to: 'tfjs' }), { codes: 'UNSUPPORTED' });
      assert.match(error.message, /BoostedTreesBucketize x4/);
      assert.doesNotMatch(error.message, /InitializeTableFromTextFile|HashTable|LookupTable/);
    });
  });

  leakCheckedTest(gp, 'without its assets a table is UNSUPPORTED, named with its file', () => {
    const { files, primary } = folderFiles(DIR);
    for (const name of Object.keys(files)) if (name.startsWith('assets/')) delete files[name];
    withModel(gp, { files, primary }, {}, (m) => {
      const error = assertGraphportError(gp, () => m.export({ to: 'tfjs', allowUnsupportedOps: true }),
        { codes: 'UNSUPPORTED' });
      assert.match(error.message, /'unknown_6' \(resource object 7\)/);
      assert.match(error.message, /vocab_compute_and_apply_vocabulary_vocabulary' was not given/);
    });
  });
});

// Issue 32, TF1 hash tables: a TF1 SavedModel whose graph holds lookup tables, filled by the
// init ops of its "table_initializer" collection, converts to a TF.js graph model with the
// init ops in modelInitializer, as tfjs-converter's TF1 path lays it out (no
// initializerSignature: TF.js runs the initializer graph's ends), and the TF.js runtime (the
// devDependency, cpu backend) fills the tables and looks keys up in them.
//
// The model: the TFX Estimator tfx_chicago_taxi_estimator_v1 (../shared/savedmodels/README.md).
// Its tf.Transform layer makes two hash tables and fills each from a vocabulary file (assets/)
// through function calls; the serving graph's LookupTableFindV2 nodes give a key's line number
// in its file, -1 for a key the file lacks. Its signatures parse a tf.Example string, and TF.js
// has no ParseExampleV2: the export is made with allowUnsupportedOps, and the test runs the
// lookups themselves, feeding each one's key tensor by its node name (TF.js runs the subgraph
// between the tensors named in execute(feeds, outputs)).
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

const DIR = join(REPO, '..', 'shared', 'savedmodels', 'tfx_chicago_taxi_estimator_v1', 'saved_model');

// The vocabulary as TensorFlow reads a table's text file: a key per line, its value the
// line's number.
function vocabulary(asset) {
  const text = readFileSync(join(DIR, 'assets', asset), 'utf8');
  return text.split('\n').filter((line, i, all) => !(i === all.length - 1 && line === ''));
}

// Each table by the tf.Transform scope its lookup is in, with its vocabulary and keys it lacks.
const TABLES = [
  { scope: '/compute_and_apply_vocabulary/', asset: 'vocab_compute_and_apply_vocabulary_vocabulary',
    unknown: ['Bitcoin', 'cash', ''] },
  { scope: '/compute_and_apply_vocabulary_1/', asset: 'vocab_compute_and_apply_vocabulary_1_vocabulary',
    unknown: ['Nobody Cab', 'Flash Cab '] },
].map((t) => ({ ...t, vocabulary: vocabulary(t.asset) }));

function exportTfjs(input) {
  return withModel(gp, input, {}, (m) => {
    const out = m.export({ to: 'tfjs', allowUnsupportedOps: true });
    return { files: filesOf(out), info: out.info };
  });
}

function nodesOf(graph, op) {
  return graph.node.filter((n) => n.op === op);
}

// Runs each table's lookup on every key of its vocabulary and a few it lacks.
async function runLookups(files) {
  const json = modelJson(files);
  const model = await loadGraphModel(files);
  try {
    for (const t of TABLES) {
      const find = nodesOf(json.modelTopology, 'LookupTableFindV2').find((n) => n.name.includes(t.scope));
      assert.ok(find, `no lookup in ${t.scope}`);
      const keys = [...t.vocabulary, ...t.unknown];
      const feeds = { [find.input[1]]: tf.tensor1d(keys, 'string') };
      const outputs = await run(model, feeds, [find.name]);
      disposeAll(feeds);
      const expected = [...t.vocabulary.map((_, line) => line), ...t.unknown.map(() => -1)];
      assert.deepEqual(Array.from(outputs[find.name].values), expected, `${t.asset}: ${JSON.stringify(keys)}`);
    }
  } finally {
    model.dispose();
  }
}

describe('freeze to TF.js with TF1 hash tables: tfx_chicago_taxi_estimator_v1', () => {
  leakCheckedTest(gp, 'the init ops go to modelInitializer and TF.js looks keys up in the tables', async () => {
    const { files, info } = exportTfjs(folderFiles(DIR));
    assert.equal(TABLES[0].vocabulary.length, 6);
    assert.equal(TABLES[1].vocabulary.length, 53);
    // What graphport did, in info: the collection's 4 init ops (two per table), each table
    // filled from its asset file.
    const tables = info.frozen.tables;
    assert.deepEqual(tables.tables.map((t) => [t.op, t.filledBy.length, t.readBySignature]),
      [['HashTableV2', 2, true], ['HashTableV2', 2, true]]);
    assert.equal(tables.initOps.length, 4);
    assert.deepEqual(tables.fromTextFiles.map((f) => [f.asset, f.entries, f.madeOp]).sort(), [
      ['vocab_compute_and_apply_vocabulary_1_vocabulary', 53, 'LookupTableImportV2'],
      ['vocab_compute_and_apply_vocabulary_1_vocabulary', 53, 'LookupTableImportV2'],
      ['vocab_compute_and_apply_vocabulary_vocabulary', 6, 'LookupTableImportV2'],
      ['vocab_compute_and_apply_vocabulary_vocabulary', 6, 'LookupTableImportV2'],
    ]);
    assert.deepEqual(info.unsupportedOps.map((o) => o.op).sort(), ['AsString', 'ParseExampleV2']);

    const json = modelJson(files);
    assert.ok(json.modelInitializer, 'model.json has no modelInitializer');
    assert.equal(json.initializerSignature, undefined);
    // Each table of the model's graph is in the initializer, under the same name (TF.js shares
    // a table by node name), and filled there; no init op is left in the model's graph.
    const modelTables = nodesOf(json.modelTopology, 'HashTableV2').map((n) => n.name).sort();
    assert.equal(modelTables.length, 2);
    assert.deepEqual(nodesOf(json.modelInitializer, 'HashTableV2').map((n) => n.name).sort(), modelTables);
    assert.equal(nodesOf(json.modelInitializer, 'LookupTableImportV2').length, 4);
    assert.equal(nodesOf(json.modelTopology, 'LookupTableImportV2').length, 0);
    for (const n of [...json.modelTopology.node, ...json.modelInitializer.node]) {
      assert.doesNotMatch(n.op, /InitializeTableFromTextFile|StatefulPartitionedCall/, n.name);
    }
    await runLookups(files);

    // What graphport writes it reads back: the model, with AsString and ParseExampleV2 (ops of
    // TensorFlow's registry that TF.js lacks), loads and exports again, its tables whole.
    const again = exportTfjs({ files, primary: 'model.json' });
    assert.equal(modelJson(again.files).modelInitializer.node.length, json.modelInitializer.node.length);
    await runLookups(again.files);
  });

  leakCheckedTest(gp, 'the pre-flight names only what TF.js cannot run, no table op', () => {
    withModel(gp, folderFiles(DIR), {}, (m) => {
      const error = assertGraphportError(gp, () => m.export({ to: 'tfjs' }), { codes: 'UNSUPPORTED' });
      assert.match(error.message, /ParseExampleV2/);
      assert.doesNotMatch(error.message, /InitializeTableFromTextFile|HashTable|LookupTable/);
    });
  });

  leakCheckedTest(gp, 'without its assets a table is UNSUPPORTED, named with its init op and file', () => {
    const { files, primary } = folderFiles(DIR);
    for (const name of Object.keys(files)) if (name.startsWith('assets/')) delete files[name];
    withModel(gp, { files, primary }, {}, (m) => {
      const error = assertGraphportError(gp, () => m.export({ to: 'tfjs', allowUnsupportedOps: true }),
        { codes: 'UNSUPPORTED' });
      assert.match(error.message, /\(init op 'transform_features_layer\/StatefulPartitionedCall_2'\)/);
      assert.match(error.message, /'vocab_compute_and_apply_vocabulary_vocabulary' was not given/);
    });
  });
});

// Every family describes its results once (src/core/result_schema.h): the fields of its
// inspect() summary and its export info, each with a type and whether it is always there. Here
// every model of the corpus (../shared/corpus, ../shared/savedmodels) goes through inspect()
// and export() (default options, and the options that add fields: a text or SavedModel
// export, freeze, to: 'tfjs', quantize, unfuseOps, strip info...), and each result must fit its
// family's description: no field the description lacks, every required one there, each of
// its type. index.d.ts's result types are generated from the same description.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';

import { checkValue, parseType, typesByName } from '../../scripts/result_types.mjs';
import { CORPUS, REPO, checkNoLeaksAtEnd, graphport } from './helpers.mjs';

const gp = await graphport();
checkNoLeaksAtEnd(gp);
const SAVEDMODELS = join(REPO, '..', 'shared', 'savedmodels');
const families = gp.optionSchema();
const types = typesByName(families);
const results = Object.fromEntries(families.map((f) => [f.family, f.results]));

// The models of a folder tree: a folder with saved_model.pb is one model; else each graph,
// MegEngine dump and model.json (with the shards beside it) is one.
function models(root) {
  const out = [];
  const walk = (dir) => {
    const names = readdirSync(dir).sort();
    if (names.includes('saved_model.pb')) {
      out.push(dir);
      return;
    }
    for (const name of names) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(meta|mge|json|pb|pbtxt)$/.test(name) && !/^(fingerprint|saved_model_config|keras_metadata)\.pb$/.test(name)) out.push(path);
    }
  };
  walk(root);
  return out;
}

// The exports of each family whose info has fields the default export's lacks. An option
// that does not apply to a model (freeze of a graph without variables, ...) may fail it, but
// every one must succeed on some model (checked at the end).
const EXPORTS = {
  tensorflow: [
    {},
    { asText: true },
    { to: 'saved-model' },
    { to: 'graph-def', stripDefaultAttrs: true, saveDebugInfo: true },
    { exportScope: 'x' },
    { freeze: true },
    { to: 'tfjs' },
    { to: 'tfjs', optimize: true, quantize: 'float16' },
    { to: 'tfjs', allowUnsupportedOps: true },
  ],
  tfjs: [{}, { to: 'tfjs' }, { to: 'tfjs', quantize: 'uint8' }, { unfuseOps: true, allowUnsupportedOps: true }],
  megengine: [{}, { dumpFormat: 'FBS' }, { stripInfoFile: 'strip.json' }, { dumpFormat: 'FBS', compatOlderVersion: '8.14' }],
};

function assertFits(value, typeText, what) {
  const problems = checkValue(value, parseType(typeText), types);
  assert.deepEqual(problems.slice(0, 20), [], `${what} does not fit ${typeText}`);
}

const summaries = {};
const exported = new Map();  // family + options -> models exported with them

for (const path of [...models(CORPUS), ...models(SAVEDMODELS)]) {
  const rel = relative(join(REPO, '..', 'shared'), path);
  test(`results fit their description: ${rel}`, () => {
    let model;
    try {
      model = gp.loadFile(path);
    } catch (e) {
      // Inputs that are no model (an op registry, a protobuf of another kind) fail to load.
      assert.ok(e instanceof gp.GraphportError && e.code !== 'INTERNAL', `${rel}: ${e}`);
      return;
    }
    try {
      const { family } = model;
      assertFits(model.inspect(), results[family].summary, `${rel}: inspect()`);
      summaries[family] = (summaries[family] ?? 0) + 1;
      for (const options of EXPORTS[family]) {
        const key = `${family} ${JSON.stringify(options)}`;
        let info;
        try {
          ({ info } = model.export(options));
        } catch (e) {
          assert.ok(e instanceof gp.GraphportError && e.code !== 'INTERNAL', `${rel} ${key}: ${e}`);
          continue;
        }
        assertFits(info, results[family].exportInfo, `${rel}: export(${JSON.stringify(options)}).info`);
        exported.set(key, (exported.get(key) ?? 0) + 1);
      }
    } finally {
      model.delete();
    }
  });
}

test('every family had models checked, and every export variant succeeded on one', () => {
  for (const family of ['tensorflow', 'tfjs', 'megengine']) {
    assert.ok(summaries[family] > 0, `no ${family} model in the corpus was checked`);
    for (const options of EXPORTS[family]) {
      const key = `${family} ${JSON.stringify(options)}`;
      assert.ok(exported.get(key) > 0, `no model exported with ${key}`);
    }
  }
});

test('the check fails on a field the description lacks, a missing one and a wrong type', () => {
  const model = gp.loadFile(join(CORPUS, 'tfjs', 'tfjs-to-tf', 'simple', 'model.json'));
  const summary = model.inspect();
  model.delete();
  const tree = parseType(results.tfjs.summary);
  assert.deepEqual(checkValue(summary, tree, types), []);
  assert.deepEqual(checkValue({ ...summary, surprise: 1 }, tree, types), ['$.surprise: not described in TfjsSummary']);
  const { nodeCount, ...without } = summary;
  assert.equal(typeof nodeCount, 'number');
  assert.deepEqual(checkValue(without, tree, types), ['$.nodeCount: required by TfjsSummary, missing']);
  const wrong = structuredClone(summary);
  wrong.tfjs.weights[0].shape = ['1'];
  assert.deepEqual(checkValue(wrong, tree, types), ['$.tfjs.weights[0].shape[0]: string where number was described']);
  // A TensorFlow.js summary is not TensorFlow's, nor the other way round.
  assert.deepEqual(checkValue(summary, parseType(results.tensorflow.summary), types).slice(0, 1),
    ['$.tfjs: not described in TensorflowSummary']);
});

test('every family describes its results, and every type they name is described', () => {
  for (const family of families) {
    assert.ok(family.results.summary && family.results.exportInfo, family.family);
    for (const type of [family.results.summary, family.results.exportInfo]) parseType(type);
  }
  assert.ok(types.has('MegEngineParam'));
  assert.ok(existsSync(join(REPO, 'bindings', 'js', 'results.d.ts')));
});

// bindings/js/options.d.ts and the README's option tables are generated from the families'
// option schemas, bindings/js/results*.d.ts from their result descriptions: each must be what
// its generator makes of this build's schemas, or the published types and the documentation
// lie about the options and the results.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

import createGraphport from '../../bindings/js/node.mjs';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const gp = await createGraphport();

test('options.d.ts and results.d.ts are what scripts/gen-types.mjs makes of the current schemas', () => {
  const r = spawnSync(process.execPath, ['scripts/gen-types.mjs', '--check'], { cwd: repo, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
});

test('every option of every family is in options.d.ts with its seed name', () => {
  const types = readFileSync(`${repo}bindings/js/options.d.ts`, 'utf8');
  for (const family of gp.optionSchema()) {
    for (const option of [...family.load.options, ...family.export.options]) {
      assert.match(types, new RegExp(`\\n  ${option.name}\\?: .* \\| null;\\n`), `${family.family}.${option.name}`);
      if (option.seed) assert.ok(types.includes(`/** ${option.seed}: `), `${option.seed} is named`);
    }
  }
});

test('every described result type is in the results files, and Summary is the union by family', () => {
  const dir = `${repo}bindings/js/`;
  const files = readdirSync(dir).filter((f) => /^results(_[a-z]+)?\.d\.ts$/.test(f));
  const text = Object.fromEntries(files.map((f) => [f, readFileSync(dir + f, 'utf8')]));
  const all = Object.values(text).join('\n');
  for (const family of gp.optionSchema()) {
    assert.ok(files.includes(`results_${family.family}.d.ts`), `${family.family} has its own file`);
    for (const type of family.results.types) {
      // Declared once, in one file.
      const declared = Object.keys(text).filter((f) => new RegExp(`\\nexport (interface|type) ${type.name} [={<e]`).test(text[f]));
      assert.equal(declared.length, 1, `${family.family}: ${type.name} in ${declared.join(', ') || 'no file'}`);
    }
  }
  const unions = text['results.d.ts'];
  assert.ok(unions.includes('export type Summary = TensorflowSummary | MegEngineSummary | TfjsSummary;\n'));
  assert.ok(unions.includes('export type ExportInfo = TensorflowExportInfo | MegEngineExportInfo;\n'));
  // The summary header is written once; each summary extends it with its own literals.
  assert.equal(all.match(/\n  detection: string;\n/g).length, 1);
  assert.match(text['results_tensorflow.d.ts'], /\nexport interface TensorflowSummary extends SummaryHeader<'tensorflow', 'TensorFlow', .*>, TensorflowGraphSummary \{/);
  assert.match(text['results_megengine.d.ts'], /\nexport interface MegEngineSummary extends SummaryHeader<'megengine', 'MegEngine', /);
  assert.match(text['results_tfjs.d.ts'], /\nexport interface TfjsSummary extends SummaryHeader<'tfjs', 'TensorFlow.js', 'tfjs-graph-model', 'json'>, TensorflowGraphSummary \{/);
  // The TensorFlow graph's fields, which a TF.js summary has too, are written once.
  assert.equal(all.match(/\n  freezeOps: Record<string, number>;\n/g).length, 1);
  assert.match(text['results_tensorflow.d.ts'], /\nexport interface TensorflowGraphSummary \{\n[^}]*\n  freezeOps: /);
});

// A TF.js model exports through the TensorFlow family's writers, with its options: their type
// is an alias, and becomes an interface of its own the day the two differ.
test('a family whose export options are another\'s gets an alias of its type, not a copy', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'graphport-types-'));
  try {
    const generate = (families) => {
      writeFileSync(path.join(dir, 'schemas.json'), JSON.stringify(families));
      const out = path.join(dir, 'options.d.ts');
      const r = spawnSync(process.execPath, ['scripts/gen-types.mjs', '--schemas', path.join(dir, 'schemas.json'), '--out', out],
        { cwd: repo, encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      return readFileSync(out, 'utf8');
    };
    const families = gp.optionSchema();
    const tf = families.find((f) => f.family === 'tensorflow');
    const tfjs = families.find((f) => f.family === 'tfjs');
    assert.deepEqual(tfjs.export.options, tf.export.options);
    const aliased = generate(families);
    assert.ok(aliased.includes('export type TfjsExportOptions = TensorflowExportOptions;\n'));
    assert.ok(!aliased.includes('export interface TfjsExportOptions'));

    tfjs.export.options = tfjs.export.options.filter((o) => o.name !== 'unfuseOps');
    const own = generate(families);
    assert.ok(own.includes('export interface TfjsExportOptions {\n'));
    const body = own.slice(own.indexOf('export interface TfjsExportOptions'));
    assert.ok(!body.slice(0, body.indexOf('\n}\n')).includes('unfuseOps?:'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the README\'s option tables are what scripts/gen-option-tables.mjs makes of the schemas', () => {
  const r = spawnSync(process.execPath, ['scripts/gen-option-tables.mjs', '--check'], { cwd: repo, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
});

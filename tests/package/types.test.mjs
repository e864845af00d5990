// The installed package's types, as strict TypeScript consumers meet them: the Node ESM entry
// (module node16), a bundler's resolution (moduleResolution bundler, DOM lib) and the CommonJS
// entry (a .cts file). They must compile without errors with `tsc --noEmit`, resolving
// graphport's types from node_modules; a wrong or misspelt option must not compile.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { REPO_NODE_ENTRY, TSC, corpusPath, installPackage, run } from './helpers.mjs';

// The result types: the unions, the summary header, one file per family (sorted as read).
const RESULT_FILES = ['results.d.ts', 'results_common.d.ts', 'results_megengine.d.ts', 'results_tensorflow.d.ts', 'results_tfjs.d.ts']
  .map((f) => `bindings/js/${f}`);
const FIXTURES = fileURLToPath(new URL('./fixtures/types/', import.meta.url));
const pkg = installPackage('types');
const dir = join(pkg.app, 'ts');
mkdirSync(dir);
for (const file of readdirSync(FIXTURES)) copyFileSync(join(FIXTURES, file), join(dir, file));
// The consumer project is ESM, as a new Node project in TypeScript usually is; the .cts file
// is CommonJS whatever the project's type.
writeFileSync(join(dir, 'package.json'), JSON.stringify({ private: true, type: 'module' }));

// Real results as typed literals: the summary and export info of one model of each family, as
// this build's inspect() and export() give them, written into .ts files at test time.
const gp = await import(REPO_NODE_ENTRY).then((m) => m.default());
function realResults(rel, options = {}) {
  const model = gp.loadFile(corpusPath(rel));
  try {
    return { summary: model.inspect(), info: model.export(options).info };
  } finally {
    model.delete();
  }
}
const REAL = {
  tensorflow: realResults('tf/serving/session_bundle/testdata/half_plus_two/00000123/export.meta', { asText: true }),
  tensorflowToTfjs: realResults('tfjs/tfjs-to-tf/simple/frozen_graph.pb', { to: 'tfjs' }),
  tfjs: realResults('tfjs/tfjs-to-tf/simple/model.json', { to: 'tfjs', quantize: 'uint8' }),
  megengine: realResults('mge/mgeconvert_e4a1261_test_test_model.mge', { stripInfoFile: 'strip.json' }),
};
const literal = (value) => JSON.stringify(value, null, 1);
writeFileSync(join(dir, 'real-results.ts'), `// Real results of this build, typed: must compile.
import type {
  ExportInfo, MegEngineExportInfo, MegEngineSummary, Summary, TensorflowExportInfo, TensorflowSummary, TfjsSummary,
} from 'graphport';

const tensorflow: TensorflowSummary = ${literal(REAL.tensorflow.summary)};
const megengine: MegEngineSummary = ${literal(REAL.megengine.summary)};
const tfjs: TfjsSummary = ${literal(REAL.tfjs.summary)};
const summaries: Summary[] = [tensorflow, megengine, tfjs];
const tensorflowInfo: TensorflowExportInfo = ${literal(REAL.tensorflow.info)};
const tfjsInfo: TensorflowExportInfo = ${literal(REAL.tfjs.info)};
const toTfjsInfo: TensorflowExportInfo = ${literal(REAL.tensorflowToTfjs.info)};
const megengineInfo: MegEngineExportInfo = ${literal(REAL.megengine.info)};
const infos: ExportInfo[] = [tensorflowInfo, tfjsInfo, toTfjsInfo, megengineInfo];
export { summaries, infos };
`);
// Real MegEngine and TF.js summaries, typed as their own, assigned to TensorFlow's, and a real
// MegEngine summary's literal typed as TensorFlow's (one line): must not compile (lines 7-9).
writeFileSync(join(dir, 'wrong-summary.ts'), `import type { MegEngineSummary, TensorflowSummary, TfjsSummary } from 'graphport';

declare const megengine: MegEngineSummary;
declare const tfjs: TfjsSummary;
declare const right: TensorflowSummary;
export const fine: TensorflowSummary = right;
export const fromMegengine: TensorflowSummary = megengine;
export const fromTfjs: TensorflowSummary = tfjs;
export const literal: TensorflowSummary = ${JSON.stringify(REAL.megengine.summary)};
`);

const STRICT = {
  strict: true,
  noEmit: true,
  target: 'es2022',
  noUnusedLocals: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  // No @types/node: the package's types must not need it (nor the DOM lib, on Node).
  types: [],
};
const NODE16 = { ...STRICT, module: 'node16', moduleResolution: 'node16', lib: ['es2022', 'esnext.disposable'] };
const BUNDLER = { ...STRICT, module: 'esnext', moduleResolution: 'bundler', lib: ['es2022', 'dom', 'esnext.disposable'] };

// Type-checks `files` under `options`; returns tsc's result and the files it read.
function tsc(name, options, files) {
  writeFileSync(join(dir, `tsconfig.${name}.json`), JSON.stringify({ compilerOptions: options, files }, null, 2));
  const r = run(TSC, ['-p', `tsconfig.${name}.json`, '--listFiles'], { cwd: dir });
  const read = r.stdout.split('\n').filter((line) => line.includes('node_modules/graphport/'))
    .map((line) => line.slice(line.indexOf('node_modules/graphport/') + 'node_modules/graphport/'.length).trim());
  const errors = r.stdout.split('\n').filter((line) => /error TS\d+/.test(line));
  return { ...r, read, errors };
}

function assertCompiles(r) {
  assert.deepEqual(r.errors, [], `tsc reported errors:\n${r.stdout}\n${r.stderr}`);
  assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
}

test('a strict ESM consumer (module node16) compiles against the Node entry types', () => {
  const r = tsc('node16', NODE16, ['node-esm.ts']);
  assertCompiles(r);
  assert.deepEqual(r.read.sort(), ['bindings/js/error_codes.d.ts', 'bindings/js/index.d.ts', 'bindings/js/node.d.mts', 'bindings/js/options.d.ts', ...RESULT_FILES]);
});

test('a strict consumer with moduleResolution bundler compiles against the shared types', () => {
  const r = tsc('bundler', BUNDLER, ['bundler.ts']);
  assertCompiles(r);
  assert.deepEqual(r.read.sort(), ['bindings/js/error_codes.d.ts', 'bindings/js/index.d.ts', 'bindings/js/options.d.ts', ...RESULT_FILES]);
});

test('a strict CommonJS consumer (.cts, module node16) compiles against the CommonJS entry types', () => {
  const r = tsc('commonjs', { ...NODE16, lib: ['es2022'] }, ['commonjs.cts']);
  assertCompiles(r);
  assert.deepEqual(r.read.sort(), ['bindings/js/error_codes.d.ts', 'bindings/js/index.d.cts', 'bindings/js/index.d.ts', 'bindings/js/options.d.ts', ...RESULT_FILES]);
});

test('an export option of the wrong type does not compile', () => {
  for (const [name, options] of [['wrong-node16', NODE16], ['wrong-bundler', BUNDLER]]) {
    const r = tsc(name, options, ['wrong-option.ts']);
    assert.notEqual(r.status, 0, `asText: 'yes' compiled under ${name}`);
    assert.equal(r.errors.length, 1, r.stdout);
    assert.match(r.errors[0], /^wrong-option\.ts\(6,\d+\): error TS2322: Type 'string' is not assignable to type 'boolean/);
  }
});

test('a misspelt export option does not compile', () => {
  const r = tsc('unknown', NODE16, ['unknown-option.ts']);
  assert.notEqual(r.status, 0, 'clearDevice: true compiled');
  assert.equal(r.errors.length, 1, r.stdout);
  assert.match(r.errors[0], /^unknown-option\.ts\(6,\d+\): error TS(2353|2561): .*'clearDevice'/);
});

test('the real results of each family compile as their generated types', () => {
  const r = tsc('real', NODE16, ['real-results.ts']);
  assertCompiles(r);
  for (const file of RESULT_FILES) assert.ok(r.read.includes(file), r.read.join());
});

test('a MegEngine or TF.js summary is not a TensorFlow summary', () => {
  const r = tsc('wrong-summary', NODE16, ['wrong-summary.ts']);
  assert.notEqual(r.status, 0, 'a MegEngine summary compiled as TensorflowSummary');
  const lines = r.errors.map((e) => Number(/^wrong-summary\.ts\((\d+),/.exec(e)?.[1]));
  // Lines 7 and 8 (the typed summaries) and the MegEngine literal (line 9), nothing else.
  assert.deepEqual([...new Set(lines)], [7, 8, 9], r.stdout);
  for (const e of r.errors) assert.match(e, /error TS(2322|2353|2375|2739|2740|2741)/);
});

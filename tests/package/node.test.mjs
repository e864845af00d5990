// The packed package installed into an empty project, used from Node the ways its users do:
// `import` (ESM), `require` (CommonJS), `npx graphport`, and the README's Node example. Every
// export must equal, byte for byte, what the repo's bindings/js/node.mjs makes of the same
// input with the same options.
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

import {
  CASES, EXAMPLES, corpusPath, describeFiles, installPackage, repoExport, run, runOk, sha256,
} from './helpers.mjs';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const JOBS = JSON.stringify(CASES.map(({ rel, options }) => ({ path: corpusPath(rel), options })));

let pkg;
let installed;

before(() => {
  pkg = installPackage('node');
  installed = join(pkg.app, 'node_modules', 'graphport');
  copyFileSync(join(FIXTURES, 'esm-consumer.mjs'), join(pkg.app, 'esm-consumer.mjs'));
  copyFileSync(join(FIXTURES, 'cjs-consumer.cjs'), join(pkg.app, 'cjs-consumer.cjs'));
  copyFileSync(join(EXAMPLES, 'node-example.mjs'), join(pkg.app, 'example.mjs'));
});

// Runs `node <script> <args>` in the installed project.
function node(script, args = []) {
  return run(process.execPath, [script, ...args], { cwd: pkg.app });
}

async function assertSameAsRepo(results) {
  assert.equal(results.length, CASES.length);
  for (let i = 0; i < CASES.length; i += 1) {
    const { rel, options, nodes } = CASES[i];
    const expected = await repoExport(rel, options);
    assert.equal(results[i].summary.nodeCount, nodes, rel);
    assert.deepEqual(results[i].summary, expected.summary, `${rel}: inspect()`);
    assert.deepEqual(results[i].files, describeFiles(expected.files), `${rel}: export(${JSON.stringify(options)})`);
  }
}

test('import "graphport" resolves to the installed Node ESM entry and exports the same bytes', async () => {
  const r = node('esm-consumer.mjs', [JOBS]);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.resolved, pathToFileURL(join(installed, 'bindings', 'js', 'node.mjs')).href);
  assert.equal(out.sameInstance, true, 'the factory is memoized, default and named export alike');
  assert.equal(out.hasLoadFile, true);
  await assertSameAsRepo(out.results);
  for (const result of out.results) {
    assert.deepEqual(result.filesFromBytes, result.files, 'load(bytes) and loadFile(path) export the same');
  }
  assert.deepEqual(out.error, {
    isGraphportError: true, isInstanceClass: true, name: 'GraphportError', code: 'PARSE_ERROR',
    message: out.error.message,
  });
  assert.match(out.error.message, /^bad\.pb: /);
  assert.equal(out.disposed, true, 'model[Symbol.dispose]() deletes the model');
  assert.equal(out.liveModels, 0);
});

test('require("graphport") resolves to the installed CommonJS entry and exports the same bytes', async () => {
  const r = node('cjs-consumer.cjs', [JOBS]);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.resolved, join(installed, 'bindings', 'js', 'index.cjs'));
  assert.equal(out.typeofFactory, 'function');
  assert.equal(out.sameInstance, true);
  assert.equal(out.hasLoadFile, true);
  await assertSameAsRepo(out.results);
  assert.equal(out.error.isInstanceClass, true);
  assert.equal(out.error.code, 'PARSE_ERROR');
  assert.equal(out.liveModels, 0);
});

test('npx graphport --help prints the usage and exits 0', () => {
  const r = runOk('npx', ['--offline', 'graphport', '--help'], { cwd: pkg.app, env: pkg.env });
  assert.match(r.stdout, /^usage:$/m);
  assert.match(r.stdout, /graphport inspect INPUT/);
  assert.match(r.stdout, /graphport export INPUT -o OUT/);
  assert.equal(r.stderr, '');
});

test('npx graphport inspect prints the node count of a corpus graph', () => {
  for (const { rel, nodes } of CASES) {
    const r = runOk('npx', ['--offline', 'graphport', 'inspect', corpusPath(rel)], { cwd: pkg.app, env: pkg.env });
    assert.match(r.stdout, new RegExp(`^nodes:\\s+${nodes} \\(`, 'm'), `${rel}:\n${r.stdout}`);
    const json = runOk('npx', ['--offline', 'graphport', 'inspect', corpusPath(rel), '--json'],
      { cwd: pkg.app, env: pkg.env });
    assert.equal(JSON.parse(json.stdout).nodeCount, nodes);
  }
});

test('npx graphport export writes the same bytes as the repo, and fails cleanly on bad input', async () => {
  const { rel } = CASES[0];
  const outFile = join(pkg.root, 'cli-out', 'model.pbtxt');
  runOk('mkdir', ['-p', join(pkg.root, 'cli-out')]);
  const r = runOk('npx', ['--offline', 'graphport', 'export', corpusPath(rel), '-o', outFile,
    '--as-text', '--clear-devices'], { cwd: pkg.app, env: pkg.env });
  assert.match(r.stderr, /wrote .*model\.pbtxt/);
  const expected = await repoExport(rel, { asText: true, clearDevices: true, filename: 'model.pbtxt' });
  assert.equal(sha256(readFileSync(outFile)), sha256(expected.files[0].bytes));

  const bad = run('npx', ['--offline', 'graphport', 'inspect', join(pkg.root, 'missing.pb')],
    { cwd: pkg.app, env: pkg.env });
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /^graphport: error IO_ERROR: /m);
});

// tests/package/examples/node-example.mjs is the README's Node example, run as a user would.
test('the README Node example runs under the installed package', async () => {
  const { rel, nodes } = CASES[1];
  const outDir = join(pkg.root, 'example-out');
  const r = node('example.mjs', [corpusPath(rel), outDir]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`: saved-model, ${nodes} nodes, TensorFlow 2\\.14\\.0\\n`));
  const expected = await repoExport(rel, { to: 'meta-graph', asText: true, clearDevices: true });
  for (const { name, bytes } of expected.files) {
    assert.match(r.stdout, new RegExp(`wrote .*${name.replace('.', '\\.')}\\n`));
    assert.equal(sha256(readFileSync(join(outDir, name))), sha256(bytes), name);
  }

  const bad = node('example.mjs', [join(FIXTURES, 'esm-consumer.mjs'), outDir]);
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /^error (UNKNOWN_FORMAT|PARSE_ERROR): .*esm-consumer\.mjs/);
});

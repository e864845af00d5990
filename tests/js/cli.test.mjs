// The Node CLI (bindings/js/cli.mjs) against the native CLI: same help, same exit codes, same
// error lines, same files.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';

import {
  GRAPHS, KERAS_METADATA, KINDS, NATIVE_CLI, NODE_CLI, REPO, assertSameBytes, checkNoLeaksAtEnd, exportBytes, graphport,
  readBytes, requireNativeCli, runCli, tempDir, withModel,
} from './helpers.mjs';

const gp = await graphport();
checkNoLeaksAtEnd(gp);
const SAVED = GRAPHS.find((g) => g.rel.includes('saved_model_counter'));

// Runs the same arguments through both CLIs.
function both(args) {
  requireNativeCli();
  return { native: runCli('native', args), node: runCli('node', args) };
}

test('--help and -h print the same text from both CLIs, which is usage()', () => {
  for (const flag of ['--help', '-h']) {
    const { native, node } = both([flag]);
    assert.equal(native.status, 0);
    assert.equal(node.status, 0);
    assert.equal(node.stdout, native.stdout);
    assert.equal(native.stdout, gp.usage());
    assert.match(native.stdout, /^graphport: inspect and export model graphs \(TensorFlow, /);
    assert.equal(native.stderr, '');
    assert.equal(node.stderr, '');
  }
  // --help wins wherever it is, even after bad arguments.
  const { native, node } = both(['export', '--bogus', '--help']);
  assert.equal(native.status, 0);
  assert.equal(node.status, 0);
  assert.equal(node.stdout, native.stdout);
});

test('usage errors: the same exit code and the same error line from both CLIs', () => {
  const cases = [
    { args: [], status: 2, stdout: true },
    { args: ['help'], status: 0, stdout: true },
    { args: ['frobnicate', SAVED.path], status: 1, error: "INVALID_OPTION: unknown command 'frobnicate'" },
    { args: ['export', SAVED.path], status: 1, error: 'INVALID_OPTION: export needs -o OUT' },
    { args: ['inspect'], status: 1, error: 'INVALID_OPTION: inspect needs an INPUT file or folder' },
    { args: ['export', SAVED.path, '-o'], status: 1, error: 'INVALID_OPTION: -o needs a value' },
    { args: ['inspect', SAVED.path, '--bogus'], status: 1, error: "INVALID_OPTION: unknown option '--bogus'" },
    { args: ['inspect', SAVED.path, 'extra'], status: 1, error: "INVALID_OPTION: unexpected argument 'extra'" },
    { args: ['inspect', SAVED.path, '--from', 'onnx'], status: 1, error: "INVALID_OPTION: unknown format 'onnx'" },
    { args: ['inspect', SAVED.path, '--tags', 'nope'], status: 1, error: `NOT_FOUND: ${SAVED.path}: no MetaGraphDef` },
  ];
  for (const c of cases) {
    const { native, node } = both(c.args);
    const what = `graphport ${c.args.join(' ')}`;
    assert.equal(native.status, c.status, `${what}: native exit`);
    assert.equal(node.status, native.status, `${what}: node exit`);
    if (c.stdout) {
      assert.equal(native.stdout, gp.usage(), what);
      assert.equal(node.stdout, native.stdout, what);
    }
    if (c.error) {
      assert.ok(native.stderr.startsWith(`graphport: error ${c.error}`), `${what}: ${native.stderr}`);
      assert.equal(node.stderr, native.stderr, what);
      assert.equal(native.stdout, '');
      assert.equal(node.stdout, '');
    }
  }
});

test('keras_metadata.pb: both CLIs fail with UNKNOWN_FORMAT and write no file', (t) => {
  const dir = tempDir(t);
  for (const which of ['native', 'node']) {
    requireNativeCli();
    const out = join(dir, `${which}.meta`);
    const r = runCli(which, ['export', KERAS_METADATA, '-o', out]);
    assert.notEqual(r.status, 0, which);
    assert.ok(r.stderr.startsWith(`graphport: error UNKNOWN_FORMAT: ${KERAS_METADATA}: `), `${which}: ${r.stderr}`);
    assert.match(r.stderr, /at byte \d+/);
    assert.equal(r.stdout, '');
    const i = runCli(which, ['inspect', KERAS_METADATA]);
    assert.notEqual(i.status, 0);
    assert.equal(i.stderr, r.stderr, `${which}: inspect and export report the same error`);
  }
  assert.deepEqual(readdirSync(dir), [], 'no output and no partial file');
  const { native, node } = both(['export', KERAS_METADATA, '-o', join(dir, 'x.pb')]);
  assert.equal(node.status, native.status);
  assert.equal(node.stderr, native.stderr);
});

test('input errors: a missing file, a directory, an empty file, a truncated file', (t) => {
  const dir = tempDir(t);
  const missing = join(dir, 'missing.pb');
  const empty = join(dir, 'empty.pb');
  writeFileSync(empty, '');
  const truncated = join(dir, 'truncated.pb');
  writeFileSync(truncated, readBytes(SAVED.path).subarray(0, 1000));
  const cases = [
    { args: ['inspect', missing], code: 'IO_ERROR', name: missing },
    // A folder is read as a model's folder: this one holds two graph files, so neither is chosen.
    { args: ['inspect', dir], code: 'UNKNOWN_FORMAT', name: dir },
    { args: ['inspect', empty], code: 'EMPTY_INPUT', name: empty },
    // Detection may call a cut-off file unknown, or see the kind and fail to parse it.
    { args: ['inspect', truncated], code: '(UNKNOWN_FORMAT|PARSE_ERROR)', name: truncated },
    { args: ['inspect', truncated, '--from', 'saved-model'], code: 'PARSE_ERROR', name: truncated },
  ];
  for (const c of cases) {
    const { native, node } = both(c.args);
    for (const [which, r] of Object.entries({ native, node })) {
      assert.equal(r.status, 1, `${which} ${c.args.join(' ')}`);
      assert.ok(new RegExp(`^graphport: error ${c.code}: `).test(r.stderr), `${which}: ${r.stderr}`);
      assert.ok(r.stderr.includes(`: ${c.name}: `), `${which}: ${r.stderr}`);
      assert.equal(r.stdout, '');
    }
    if (c.code !== 'IO_ERROR') assert.equal(node.stderr, native.stderr, 'same message');
  }
  assert.deepEqual(readdirSync(dir).sort(), ['empty.pb', 'truncated.pb']);
});

test('an output directory that does not exist is IO_ERROR on both sides', (t) => {
  const dir = tempDir(t);
  const out = join(dir, 'no', 'such', 'dir', 'model.meta');
  const { native, node } = both(['export', SAVED.path, '-o', out]);
  for (const r of [native, node]) {
    assert.equal(r.status, 1);
    assert.ok(r.stderr.startsWith('graphport: error IO_ERROR: '), r.stderr);
  }
  assert.ok(!existsSync(join(dir, 'no')));
});

test('export: the Node CLI writes the bytes of the native CLI and of the API', async (t) => {
  requireNativeCli();
  const dir = tempDir(t);
  mkdirSync(join(dir, 'native'));
  mkdirSync(join(dir, 'node'));
  const run = promisify(execFile);
  await Promise.all(KINDS.flatMap((to) => [false, true].map(async (asText) => {
    const name = `${to}-${asText ? 'text' : 'binary'}.out`;
    const flags = ['--to', to, ...(asText ? ['--as-text'] : []), '--json'];
    const nativeOut = join(dir, 'native', name);
    const nodeOut = join(dir, 'node', name);
    const [n, j] = await Promise.all([
      run(NATIVE_CLI, ['export', SAVED.path, '-o', nativeOut, ...flags], { cwd: REPO }),
      run(process.execPath, [NODE_CLI, 'export', SAVED.path, '-o', nodeOut, ...flags], { cwd: REPO }),
    ]);
    // The CLI passes the output's base name as export_meta_graph's filename, except for a
    // SavedModel, which is a folder that -o names.
    const folder = to === 'saved-model';
    const expected = withModel(gp, readBytes(SAVED.path), {}, (m) => m.export(folder ? { to, asText } : { to, asText, filename: name }));
    const inside = folder ? `/${expected.files[0].name}` : '';
    if (!folder) assert.equal(expected.files[0].name, name);
    assertSameBytes(readFileSync(nodeOut + inside), readFileSync(nativeOut + inside), `${name}: node vs native`);
    assertSameBytes(readFileSync(nodeOut + inside), expected.files[0].bytes, `${name}: node vs API`);
    // --json prints the info record; stderr says which file was written.
    assert.deepEqual(JSON.parse(j.stdout), expected.info);
    assert.deepEqual(JSON.parse(n.stdout), expected.info);
    assert.equal(j.stderr, `wrote ${nodeOut}${inside}\n`);
    assert.equal(n.stderr, `wrote ${nativeOut}${inside}\n`);
  })));
  assert.equal(readdirSync(join(dir, 'native')).length, 6, 'no partial files left behind');
  assert.equal(readdirSync(join(dir, 'node')).length, 6, 'no partial files left behind');
});

test('inspect --json of a text export, and --from forcing a format, agree across CLIs', (t) => {
  const dir = tempDir(t);
  const text = join(dir, 'model.pbtxt');
  writeFileSync(text, withModel(gp, readBytes(SAVED.path), {}, (m) => exportBytes(m, { to: 'meta-graph', asText: true })));
  for (const args of [['inspect', '--json', text], ['inspect', '--json', text, '--from', 'meta-graph-text']]) {
    const { native, node } = both(args);
    assert.equal(native.status, 0, native.stderr);
    assert.equal(node.status, 0, node.stderr);
    const summary = JSON.parse(native.stdout);
    assert.deepEqual(JSON.parse(node.stdout), summary);
    assert.equal(summary.format, 'meta-graph');
    assert.equal(summary.encoding, 'text');
    assert.equal(summary.nodeCount, SAVED.nodes);
  }
});

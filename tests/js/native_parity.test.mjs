// The WebAssembly build and the native build are the same core: for every corpus file and
// every export kind and encoding the JS API gives the bytes the native CLI writes, and both
// CLIs inspect a file to the same summary.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';

import {
  GRAPHS, KINDS, NATIVE_CLI, NODE_CLI, REPO, assertSameBytes, checkNoLeaksAtEnd, exportBytes,
  graphport, leakCheckedTest, requireNativeCli, runNative, tempDir,
} from './helpers.mjs';

const run = promisify(execFile);
const gp = await graphport();
checkNoLeaksAtEnd(gp);

for (const g of GRAPHS) {
  leakCheckedTest(gp, `${g.name}: JS exports equal the native CLI's files, {binary, text} × 3 kinds`, (t) => {
    requireNativeCli();
    const dir = tempDir(t);
    const model = gp.loadFile(g.path);
    try {
      for (const to of KINDS) {
        for (const asText of [false, true]) {
          const out = join(dir, `${to}-${asText ? 'text' : 'binary'}.out`);
          runNative(['export', g.path, '-o', out, '--to', to, ...(asText ? ['--as-text'] : [])]);
          // A SavedModel is a folder: -o names it, and the graph is saved_model.pb(txt) inside.
          const written = to === 'saved-model' ? join(out, asText ? 'saved_model.pbtxt' : 'saved_model.pb') : out;
          assertSameBytes(exportBytes(model, { to, asText }), readFileSync(written), `${to} ${asText ? 'text' : 'binary'}`);
        }
      }
      // No --to: the default kind on both sides.
      const out = join(dir, 'default.meta');
      runNative(['export', g.path, '-o', out]);
      assertSameBytes(exportBytes(model), readFileSync(out), 'default export');
    } finally {
      model.delete();
    }
    // The CLI wrote exactly the files asked for, and no leftover partial file.
    assert.equal(readdirSync(dir).length, 7);
  });
}

async function inBatches(items, size, fn) {
  const results = [];
  for (let i = 0; i < items.length; i += size) {
    results.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  }
  return results;
}

leakCheckedTest(gp, 'inspect, as JSON and as text: native CLI = Node CLI = API, for every corpus file', async () => {
  requireNativeCli();
  const options = { cwd: REPO, maxBuffer: 1 << 24 };
  await inBatches(GRAPHS, 4, async (g) => {
    const [nativeJson, nodeJson, nativeText, nodeText] = await Promise.all([
      run(NATIVE_CLI, ['inspect', '--json', g.path], options),
      run(process.execPath, [NODE_CLI, 'inspect', '--json', g.path], options),
      run(NATIVE_CLI, ['inspect', g.path], options),
      run(process.execPath, [NODE_CLI, 'inspect', g.path], options),
    ]);
    const native = JSON.parse(nativeJson.stdout);
    assert.deepEqual(JSON.parse(nodeJson.stdout), native, g.name);
    assert.equal(native.format, g.kind);
    const model = gp.loadFile(g.path);
    try {
      assert.deepEqual(model.inspect(), native, `${g.name}: API vs native`);
      assert.equal(gp.summaryText(model.inspect()), nativeText.stdout, `${g.name}: summary text`);
    } finally {
      model.delete();
    }
    assert.equal(nodeText.stdout, nativeText.stdout, `${g.name}: text inspect`);
    assert.equal(nativeJson.stderr, '');
    assert.equal(nodeJson.stderr, '');
  });
});

test('`schema NAME`: both CLIs print the same schemas, and the same error for an unknown family', async () => {
  requireNativeCli();
  const both = (args) => Promise.all([
    run(NATIVE_CLI, args, { cwd: REPO }).then((r) => ({ ...r, code: 0 }), (e) => e),
    run(process.execPath, [NODE_CLI, ...args], { cwd: REPO }).then((r) => ({ ...r, code: 0 }), (e) => e),
  ]);
  const [nativeAll, nodeAll] = await both(['schema']);
  assert.deepEqual(JSON.parse(nodeAll.stdout), JSON.parse(nativeAll.stdout));
  const [nativeOne, nodeOne] = await both(['schema', 'megengine']);
  assert.equal(JSON.parse(nativeOne.stdout).family, 'megengine');
  assert.deepEqual(JSON.parse(nodeOne.stdout), JSON.parse(nativeOne.stdout));
  const [native, node] = await both(['schema', 'caffe']);
  for (const r of [native, node]) {
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^graphport: error INVALID_OPTION: unknown family 'caffe'; graphport has tensorflow, megengine, tfjs\n$/);
  }
  assert.equal(node.stderr, native.stderr);
});

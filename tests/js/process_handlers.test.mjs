// A library must not touch its host's process (issue 11, fault 5): createGraphport() adds no
// 'uncaughtException' or 'unhandledRejection' handler, and nothing of libprotobuf's log
// reaches the console (fault 4). Each check runs in a fresh Node process, whose handlers and
// stderr are its own.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';

import { NODE_ENTRY, tempDir } from './helpers.mjs';

function runNode(source) {
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', source], {
    encoding: 'utf8',
  });
  assert.equal(child.status, 0, `child failed: ${child.stderr}`);
  return child;
}

test('createGraphport() leaves the process handlers as they were', () => {
  const child = runNode(`
    const events = ['uncaughtException', 'unhandledRejection', 'exit'];
    const count = () => events.map((e) => process.listenerCount(e));
    const before = count();
    const { default: createGraphport } = await import(${JSON.stringify(NODE_ENTRY)});
    const gp = await createGraphport();
    gp.load(new TextEncoder().encode('node { name: "a" op: "NoOp" }')).delete();
    console.log(JSON.stringify({ before, after: count() }));
  `);
  const { before, after } = JSON.parse(child.stdout);
  assert.deepEqual(after, before);
});

test("an unrelated error of the user's program is not answered with the loader's source", () => {
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', `
    const { default: createGraphport } = await import(${JSON.stringify(NODE_ENTRY)});
    await createGraphport();
    setTimeout(() => { throw new Error('the user program failed'); }, 0);
  `], { encoding: 'utf8' });
  assert.notEqual(child.status, 0);
  assert.match(child.stderr, /the user program failed/);
  // Node's own report of an uncaught error is a few lines; Emscripten's handler printed the
  // whole minified loader (~55 KB).
  assert.ok(child.stderr.length < 4000, `stderr is ${child.stderr.length} bytes`);
});

test('a parse fault writes nothing to stderr; the field, its path and byte are in the GraphportError', () => {
  const child = runNode(`
    const { default: createGraphport } = await import(${JSON.stringify(NODE_ENTRY)});
    const gp = await createGraphport();
    const messages = [];
    // node { name: "\\xff" }: well-formed wire bytes, a string that is not UTF-8.
    for (const bytes of [[0x0a, 0x03, 0x0a, 0x01, 0xff], [0x12, 0x05, 0x0a, 0x03, 0x0a, 0x01, 0xfe]]) {
      try {
        gp.load(new Uint8Array(bytes), { name: 'utf8.pb' }).delete();
        messages.push('loaded');
      } catch (e) {
        messages.push(e.code + ' ' + e.message);
      }
    }
    console.log(JSON.stringify(messages));
  `);
  assert.equal(child.stderr, '');
  const messages = JSON.parse(child.stdout);
  for (const message of messages) {
    assert.match(message, /^PARSE_ERROR utf8\.pb: .*string field 'tensorflow\.[\w.]+' \([\w.\[\]]+\) is not valid UTF-8 at byte \d+/);
  }
  assert.doesNotMatch(messages.join('\n'), /\.cc:\d+|\[libprotobuf/);
});

// A copy of the package's JS and module in a temporary folder, to be damaged by a test.
function packageCopy(t) {
  const dir = join(tempDir(t), 'js');
  cpSync(dirname(NODE_ENTRY), dir, { recursive: true });
  return dir;
}

test('a damaged .wasm rejects createGraphport() with the compile error, printing nothing', (t) => {
  // The package's JS beside the first half of its .wasm, as a cut-off download leaves it.
  const dir = packageCopy(t);
  const wasm = join(dir, 'wasm', 'graphport_web.wasm');
  const whole = readFileSync(wasm);
  writeFileSync(wasm, whole.subarray(0, whole.length >> 1));
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', `
    const { default: createGraphport } = await import(${JSON.stringify(join(dir, 'node.mjs'))});
    const outcomes = [];
    for (let i = 0; i < 2; ++i) {
      try {
        await createGraphport();
        outcomes.push('instantiated');
      } catch (e) {
        outcomes.push(e.constructor.name + ': ' + e.message);
      }
    }
    console.log(JSON.stringify(outcomes));
  `], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(child.status, 0, `child failed or hung: ${child.stderr}`);
  assert.equal(child.stderr, '');
  const outcomes = JSON.parse(child.stdout);
  assert.equal(outcomes.length, 2);
  // The second call gives the first one's error again rather than trying anew.
  assert.equal(outcomes[1], outcomes[0]);
  // Which file, what V8 found wrong, and at which byte.
  assert.equal(outcomes[0].startsWith(`CompileError: ${wasm}: WebAssembly.compile(): `), true, outcomes[0]);
  assert.match(outcomes[0], /@\+\d+$/);
});

test('a damaged .wasm beside a missing loader: the loader\'s error, and the process lives on', (t) => {
  // The require fails before the compile does: the compile's rejection must not end the
  // user's process.
  const dir = packageCopy(t);
  writeFileSync(join(dir, 'wasm', 'graphport_web.wasm'), 'not a module');
  rmSync(join(dir, 'wasm', 'graphport_node.cjs'));
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', `
    const { default: createGraphport } = await import(${JSON.stringify(join(dir, 'node.mjs'))});
    let outcome = 'instantiated';
    try {
      await createGraphport();
    } catch (e) {
      outcome = e.code;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    console.log(JSON.stringify(outcome));
  `], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(child.status, 0, `child failed: ${child.stderr}`);
  assert.equal(child.stderr, '');
  assert.equal(JSON.parse(child.stdout), 'MODULE_NOT_FOUND');
});

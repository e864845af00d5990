// bindings/js/instantiate.mjs's fetch path, which browsers and the page's worker take, run in
// Node against a local server: a streaming compile when the server says application/wasm, the
// bytes read whole under any other type (a streaming compile would refuse them), and a failed
// fetch or compile as one rejection naming the URL.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, test } from 'node:test';

import { instantiateUrl, startLoader } from '../../bindings/js/instantiate.mjs';

// A module exporting answer() = 42: magic, version, then the type, function, export and code
// sections.
const ANSWER = Uint8Array.from([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7f,
  0x03, 0x02, 0x01, 0x00,
  0x07, 0x0a, 0x01, 0x06, 0x61, 0x6e, 0x73, 0x77, 0x65, 0x72, 0x00, 0x00,
  0x0a, 0x06, 0x01, 0x04, 0x00, 0x41, 0x2a, 0x0b,
]);

// /wasm/ serves the module as application/wasm, /octets/ as application/octet-stream, /cut/
// its first bytes only (as application/wasm); anything else is a 404.
let server;
let origin;

before(async () => {
  server = createServer((request, response) => {
    const kind = /^\/(wasm|octets|cut)\//.exec(request.url)?.[1];
    if (!kind) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': kind === 'octets' ? 'application/octet-stream' : 'application/wasm' });
    response.end(kind === 'cut' ? ANSWER.subarray(0, ANSWER.length - 3) : ANSWER);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${server.address().port}`;
});

after(() => server.close());

// Starts a stand-in for Emscripten's loader, which hands its imports to instantiateWasm and
// whose own promise never settles when no instance comes, with the module at `url`.
function start(url) {
  let received = null;
  const loader = (module) => new Promise((resolve) => {
    module.instantiateWasm({}, (instance) => {
      received = instance;
      resolve(instance);
    });
  });
  return { started: startLoader(loader, (imports) => instantiateUrl(url, imports), url), received: () => received };
}

test('served as application/wasm or as plain octets, the module instantiates the same', async () => {
  for (const path of ['/wasm/m.wasm', '/octets/m.wasm']) {
    const { started, received } = start(`${origin}${path}`);
    const instance = await started;
    assert.equal(instance, received(), path);
    assert.ok(instance instanceof WebAssembly.Instance, path);
    assert.equal(instance.exports.answer(), 42, path);
  }
});

test('a missing .wasm rejects with its HTTP status, prefixed by its URL', async () => {
  const url = `${origin}/missing/m.wasm`;
  const { started, received } = start(url);
  await assert.rejects(started, (e) => e.message === `${url}: cannot fetch the WebAssembly module: HTTP 404`);
  assert.equal(received(), null);
});

test("a cut-off .wasm rejects with V8's CompileError, prefixed by its URL, with the byte", async () => {
  const url = `${origin}/cut/m.wasm`;
  const { started, received } = start(url);
  await assert.rejects(started, (e) => {
    assert.ok(e instanceof WebAssembly.CompileError, String(e));
    assert.ok(e.message.startsWith(`${url}: WebAssembly.instantiateStreaming(): `), e.message);
    assert.match(e.message, /@\+\d+$/);
    return true;
  });
  assert.equal(received(), null);
});

test('a module whose start throws rejects with that error, prefixed by its URL, and does not hang', async () => {
  const url = `${origin}/wasm/m.wasm`;
  // The loader runs the module's constructors and Embind's registrations inside the callback
  // it hands to instantiateWasm; Emscripten's promise settles on neither outcome when they throw.
  const loader = (module) => new Promise(() => {
    module.instantiateWasm({}, () => {
      throw new EvalError("Refused to evaluate a string as JavaScript because 'unsafe-eval' is not allowed");
    });
  });
  await assert.rejects(startLoader(loader, (imports) => instantiateUrl(url, imports), url), (e) => {
    assert.ok(e instanceof EvalError, String(e));
    assert.equal(e.message, `${url}: the module did not start: Refused to evaluate a string as JavaScript ` +
      "because 'unsafe-eval' is not allowed");
    return true;
  });
});

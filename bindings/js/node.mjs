// Node entry (ESM): loads the WebAssembly build from the package and adds file helpers.
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

import { createApi, GraphportError } from './api.mjs';

export { GraphportError };

const require = createRequire(import.meta.url);
let instance = null;

// A source over a file descriptor: the file is streamed into the heap in chunks, never held
// whole in JS memory. Every chunk is read into the same buffer: the reader copies a chunk into
// its heap before it asks for the next (a fresh 1 MiB Buffer per chunk made loadFile ~1.7x
// slower on a 200 MiB graph, bench/wasm_bench.mjs).
function fileSource(fd) {
  let position = 0;
  const size = fstatSync(fd).size;
  const buffer = Buffer.allocUnsafe(1 << 20);
  return {
    size,
    read(max) {
      const n = readSync(fd, buffer, 0, Math.min(max, buffer.length), position);
      position += n;
      return n === 0 ? null : buffer.subarray(0, n);
    },
    rewind() {
      position = 0;
      return true;
    },
  };
}

async function instantiate() {
  const factory = require('./wasm/graphport_node.cjs');
  // Emscripten 3.1.6 fetch()es its .wasm by path under Node 20, which fails: hand it the bytes.
  // The Node and browser loaders share one .wasm (the build checks the two links are the same
  // bytes), so the package ships it once.
  const wasmPath = fileURLToPath(new URL('./wasm/graphport_web.wasm', import.meta.url));
  const wasm = await factory({ wasmBinary: readFileSync(wasmPath) });
  const api = createApi(wasm);
  api.loadFile = (path, options = {}) => {
    let fd;
    let source;
    try {
      fd = openSync(path, 'r');
      source = fileSource(fd);
    } catch (e) {
      if (fd !== undefined) closeSync(fd);
      throw new GraphportError('IO_ERROR', `${path}: cannot open: ${e.message}`);
    }
    try {
      return api.load(source, { name: path, ...options });
    } finally {
      closeSync(fd);
    }
  };
  return api;
}

// The async factory; every call returns the same instance.
export default function createGraphport() {
  if (!instance) instance = instantiate();
  return instance;
}
export { createGraphport };

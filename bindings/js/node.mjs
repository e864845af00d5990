// Node entry (ESM): loads the WebAssembly build from the package and adds file helpers.
import {
  closeSync, fstatSync, openSync, readdirSync, readFileSync, readSync, statSync,
} from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

import { createApi, GraphportError } from './api.mjs';
import { startLoader } from './instantiate.mjs';
import { exportToFile } from './node_files.mjs';

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

// Every regular file under `dir` (hidden ones left out), as '/'-separated relative names.
// Symbolic links are not followed, so nothing outside the folder is read.
function listFolder(dir, recursive = true) {
  const names = [];
  const walk = (path) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const full = join(path, entry.name);
      if (entry.isDirectory()) {
        if (recursive) walk(full);
      } else if (entry.isFile()) {
        names.push(relative(dir, full).split(sep).join('/'));
      }
    }
  };
  walk(dir);
  return names;
}

// A folder as lazily opened chunk sources: a file is opened when the reader first reads it and
// closed at its end, or by release() once a load is over; a later read (a SavedModel export
// passing variables/ through) opens it again.
function folderFiles(dir, recursive = true) {
  const open = new Map();
  // A file read to its end stays at its end until the reader rewinds it, though its
  // descriptor is already closed.
  const ended = new Set();
  const close = (name) => {
    const entry = open.get(name);
    if (entry) closeSync(entry.fd);
    open.delete(name);
  };
  const files = {};
  for (const name of listFolder(dir, recursive)) {
    const path = join(dir, ...name.split('/'));
    files[name] = {
      get size() {
        return statSync(path).size;
      },
      read(max) {
        if (ended.has(name)) return null;
        let entry = open.get(name);
        if (!entry) {
          const fd = openSync(path, 'r');
          entry = { fd, source: fileSource(fd) };
          open.set(name, entry);
        }
        const chunk = entry.source.read(max);
        if (chunk === null) {
          close(name);
          ended.add(name);
        }
        return chunk;
      },
      rewind() {
        close(name);
        ended.delete(name);
        return true;
      },
    };
  }
  const release = () => {
    for (const name of [...open.keys()]) close(name);
  };
  return { files, release };
}

// The module, compiled while its JS loader is required, then instantiated for the loader
// (instantiate.mjs). Emscripten 3.1.6 fetch()es its .wasm by path under Node 20, which fails;
// handed the bytes (wasmBinary) instead, it copies them into a fresh Uint8Array and starts
// compiling only once it has run: a first instantiation took ~7 ms longer
// (bench/wasm_instantiate.mjs). The Node and browser loaders share one .wasm (the build checks
// the two links are the same bytes), so the package ships it once.
async function instantiateModule() {
  const wasmPath = fileURLToPath(new URL('./wasm/graphport_web.wasm', import.meta.url));
  const compiled = WebAssembly.compile(readFileSync(wasmPath));
  // Handled by startLoader; this only keeps a failed compile from being an unhandled
  // rejection, which ends a Node process, when the loader's require throws first.
  compiled.catch(() => {});
  const factory = require('./wasm/graphport_node.cjs');
  return startLoader(factory, (imports) => compiled.then((module) => WebAssembly.instantiate(module, imports)),
    wasmPath);
}

async function instantiate() {
  const wasm = await instantiateModule();
  const api = createApi(wasm);
  api.loadFile = (path, options = {}) => {
    let stat;
    try {
      stat = statSync(path);
    } catch (e) {
      throw new GraphportError('IO_ERROR', `${path}: cannot open: ${e.message}`, { file: path });
    }
    // A folder is read as the model's files; a JSON manifest (a TensorFlow.js model.json)
    // with the files beside it, which it names, itself first.
    const manifest = !stat.isDirectory() && path.endsWith('.json');
    if (stat.isDirectory() || manifest) {
      const dir = manifest ? dirname(path) : path;
      let folder;
      try {
        folder = folderFiles(dir, !manifest);
      } catch (e) {
        throw new GraphportError('IO_ERROR', `${dir}: cannot read the folder: ${e.message}`, { file: dir });
      }
      try {
        const files = { files: folder.files, ...(manifest ? { primary: basename(path) } : {}) };
        return api.load(files, { name: manifest ? dir : path, ...options });
      } finally {
        folder.release();
      }
    }
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
  api.exportToFile = (model, options, path) => exportToFile(api, model, options, path);
  return api;
}

// The async factory; every call returns the same instance.
export default function createGraphport() {
  if (!instance) instance = instantiate();
  return instance;
}
export { createGraphport };

// What the WebAssembly benchmarks share: clocks, best-of-N timing, the memcpy floor in JS and
// a raw instance of graphport's module, whose exports write into outputs that only count
// bytes: the "sink" the JS API does not offer yet (model.export returns whole Uint8Arrays).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { toInputSet } from '../bindings/js/inputs.mjs';

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const MiB = 1024 * 1024;

export const gc = typeof globalThis.gc === 'function' ? globalThis.gc : () => {};

export function now() {
  return Number(process.hrtime.bigint()) / 1e6;
}

export function timeOnce(fn) {
  const start = now();
  fn();
  return now() - start;
}

// The CPU time of the process (user + system, all its threads) that `fn` takes: unlike the
// wall time, it does not stretch while other jobs hold the cores.
export function cpuOnce(fn) {
  const start = process.cpuUsage();
  fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e3;
}

// The least CPU time of n runs.
export function bestCpuOf(n, fn) {
  let best = Infinity;
  for (let i = 0; i < n; ++i) {
    gc();
    best = Math.min(best, cpuOnce(fn));
  }
  return best;
}

// Best of n runs; a step slower than `single` ms runs once (a benchmark run stays minutes).
export function bestOf(n, fn, single = 3000) {
  let best = Infinity;
  for (let i = 0; i < n; ++i) {
    gc();
    best = Math.min(best, timeOnce(fn));
    if (best > single) break;
  }
  return best;
}

// Uint8Array.prototype.set into a pre-faulted buffer (the floor), and into a new Uint8Array
// each time (page faults included: the floor for handing back fresh bytes).
export function memcpyFloor(bytes, repeat) {
  const dst = new Uint8Array(bytes.length);
  dst.fill(1);
  const warm = bestOf(repeat, () => dst.set(bytes));
  const fresh = bestOf(repeat, () => new Uint8Array(bytes.length).set(bytes));
  return { warm, fresh };
}

// A chunk source handing out views of `bytes` of at most `chunk` bytes.
export function chunkSource(bytes, chunk) {
  let offset = 0;
  return {
    size: bytes.length,
    read(max) {
      if (offset >= bytes.length) return null;
      const view = bytes.subarray(offset, offset + Math.min(max, chunk));
      offset += view.length;
      return view;
    },
    rewind() {
      offset = 0;
      return true;
    },
  };
}

// Outputs that count the bytes of every file an export writes and keep nothing.
export function countingOutputs() {
  return {
    bytes: 0,
    files: 0,
    open() {
      this.files += 1;
    },
    write(view) {
      this.bytes += view.length;
    },
    close() {},
  };
}

// A second instance of the module, as node.mjs makes it but without the JS API around it.
export async function rawInstance() {
  const factory = createRequire(import.meta.url)('../bindings/js/wasm/graphport_node.cjs');
  const start = now();
  const raw = await factory({
    wasmBinary: readFileSync(path.join(repo, 'bindings/js/wasm/graphport_node.wasm')),
  });
  return { raw, instantiateMs: now() - start };
}

// The best of n compiles + instantiations of the module from its bytes in memory, each a new
// instance. Not what a first one costs: V8 compiles the same bytes faster the second time in a
// process (bench/wasm_instantiate.mjs measures the first, in a fresh process).
export async function bestInstantiate(n) {
  const factory = createRequire(import.meta.url)('../bindings/js/wasm/graphport_node.cjs');
  const wasmBinary = readFileSync(path.join(repo, 'bindings/js/wasm/graphport_node.wasm'));
  let best = Infinity;
  for (let i = 0; i < n; ++i) {
    const start = now();
    await factory({ wasmBinary });
    best = Math.min(best, now() - start);
  }
  return best;
}

// Loads `input` (bytes or {files}) into the raw instance; returns its model handle.
export function rawLoad(raw, input, label) {
  const record = raw.load(toInputSet(input, label, (source) => source), JSON.stringify({ name: label }), []);
  if (!record.model) throw new Error(`raw load: ${record.error?.message}`);
  return record.model;
}

// Exports a raw model handle into counting outputs; returns them.
export function rawExport(model, options) {
  const out = countingOutputs();
  const record = model.export(typeof options === 'string' ? options : JSON.stringify(options), [], out);
  if (record.error) throw new Error(`raw export: ${record.error.message}`);
  return out;
}

export function heapOf(raw) {
  return raw.HEAP8.buffer.byteLength;
}

// WebAssembly benchmark of graphport's JS API in Node, on one GraphDef file: the same measures
// as bench/native_bench.cc, through gp.load() / model.export(). A benchmark, not a test: it
// prints figures and ratios measured in this one run, and asserts nothing about time.
//
//   node --expose-gc bench/wasm_bench.mjs FILE [--repeat N] [--text | --no-text]
//        [--label NAME] [--json OUT] [--protobufjs DIR]
//
// Measures, with the file's bytes already in a Node Buffer:
//   memcpy (JS)        Uint8Array.prototype.set into a pre-faulted buffer (best of N): the floor;
//                      and into a new Uint8Array each time (page faults included)
//   load (bytes)       gp.load(bytes): 1 MiB chunks copied from the Buffer into the heap
//   load (64 KiB src)  gp.load({read, rewind, size}) handing out 64 KiB views: per-chunk cost
//   loadFile (fd)      gp.loadFile(path): chunks read from the file descriptor (page cache)
//   export             model.export({to: 'graph-def'}): serialized in the heap, streamed out
//                      in chunks, collected into one Uint8Array by the JS layer
//   core only          the same export from a second, raw instance of the module into outputs
//                      that only count bytes: the core's share of `export`
//   export text        the same with asText (by default only for files under 100 MiB)
//   load+export        end to end: bytes in, exported bytes out, model deleted
// and the WebAssembly heap after each step (it grows and never shrinks: its size is its peak)
// relative to the model (file) size. Memory is taken on the first (cold) load and export.
//
// The JS peer, protobufjs, is not a dependency of graphport. It runs only when found:
// --protobufjs DIR (a directory holding protobufjs' package, e.g. .../node_modules/protobufjs),
// GRAPHPORT_BENCH_PROTOBUFJS=DIR, or a protobufjs that resolves from the repository.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import createGraphport from '../bindings/js/node.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..');
const MiB = 1024 * 1024;

function parseArgs(argv) {
  const args = { file: null, repeat: 3, text: null, label: null, json: null, protobufjs: null };
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    if (a === '--repeat') args.repeat = Math.max(1, Number(argv[++i]));
    else if (a === '--text') args.text = true;
    else if (a === '--no-text') args.text = false;
    else if (a === '--label') args.label = argv[++i];
    else if (a === '--json') args.json = argv[++i];
    else if (a === '--protobufjs') args.protobufjs = argv[++i];
    else if (!a.startsWith('-') && !args.file) args.file = a;
    else {
      console.error('usage: node bench/wasm_bench.mjs FILE [--repeat N] [--text|--no-text] ' +
        '[--label NAME] [--json OUT] [--protobufjs DIR]');
      process.exit(2);
    }
  }
  if (!args.file) parseArgs(['--help']);
  return args;
}

const gc = typeof globalThis.gc === 'function' ? globalThis.gc : () => {};

function now() {
  return Number(process.hrtime.bigint()) / 1e6;
}

function timeOnce(fn) {
  const start = now();
  fn();
  return now() - start;
}

function bestOf(n, fn) {
  let best = Infinity;
  for (let i = 0; i < n; ++i) {
    gc();
    best = Math.min(best, timeOnce(fn));
  }
  return best;
}

// A chunk source handing out views of `bytes` of at most `chunk` bytes.
function chunkSource(bytes, chunk) {
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

// protobufjs, if one can be found without adding a dependency.
function findProtobufjs(dir) {
  const candidates = [dir, process.env.GRAPHPORT_BENCH_PROTOBUFJS].filter(Boolean)
    .map((c) => path.resolve(c));
  try {
    candidates.push(path.dirname(
      createRequire(path.join(repo, 'package.json')).resolve('protobufjs/package.json')));
  } catch { /* not installed in the repository */ }
  for (const c of candidates) {
    try {
      const require = createRequire(path.join(c, 'package.json'));
      return { protobuf: require(c), version: require(path.join(c, 'package.json')).version };
    } catch { /* try the next */ }
  }
  return null;
}

const args = parseArgs(process.argv.slice(2));
const label = args.label ?? args.file;
const repeat = args.repeat;

const instantiateStart = now();
const gp = await createGraphport();
const instantiateMs = now() - instantiateStart;
const heapStart = gp.heapBytes();

const bytes = readFileSync(args.file);
const size = bytes.length;
const text = args.text ?? size < 100 * MiB;

// memcpy in JS: into a buffer whose pages are already faulted in, and into a fresh one.
const dst = new Uint8Array(size);
dst.fill(1);
const memcpyMs = bestOf(Math.max(repeat, 5), () => dst.set(bytes));
const freshMs = bestOf(Math.max(repeat, 5), () => new Uint8Array(size).set(bytes));

// Cold load and export: the memory figures.
const heap = { start: heapStart };
gc();
let model;
const firstLoadMs = timeOnce(() => { model = gp.load(bytes, { name: label }); });
heap.afterLoad = gp.heapBytes();
const nodes = model.inspect().nodeCount;

gc();
const abBefore = process.memoryUsage().arrayBuffers;
let out;
const firstExportMs = timeOnce(() => { out = model.export({ to: 'graph-def' }); });
const abAfterExport = process.memoryUsage().arrayBuffers;
heap.afterExport = gp.heapBytes();
const exported = out.files[0].bytes;
const sameBytes = exported.length === size && Buffer.compare(exported, bytes) === 0;
out = null;

let textMs = null;
let textBytes = null;
if (text) {
  gc();
  textMs = timeOnce(() => { textBytes = model.export({ to: 'graph-def', asText: true }).files[0].bytes.length; });
  heap.afterText = gp.heapBytes();
}

// Timing loops.
const exportMs = Math.min(firstExportMs, bestOf(repeat, () => model.export({ to: 'graph-def' })));
model.delete();
heap.afterDelete = gp.heapBytes();
const loadMs = Math.min(firstLoadMs, bestOf(repeat, () => gp.load(bytes).delete()));
heap.afterLoads = gp.heapBytes();
const loadChunkMs = bestOf(repeat, () => gp.load(chunkSource(bytes, 64 * 1024)).delete());
const loadFileMs = bestOf(repeat, () => gp.loadFile(args.file).delete());
const e2eMs = bestOf(repeat, () => {
  const m = gp.load(bytes);
  try {
    m.export({ to: 'graph-def' });
  } finally {
    m.delete();
  }
});
heap.end = gp.heapBytes();

// The core alone: a second, raw instance of the module (as node.mjs makes it) exports into
// outputs that only count, so the difference with `export` above is the JS layer's collection.
const rawFactory = createRequire(import.meta.url)('../bindings/js/wasm/graphport_node.cjs');
const raw = await rawFactory({
  wasmBinary: readFileSync(path.join(repo, 'bindings/js/wasm/graphport_node.wasm')),
});
let rawExportMs = null;
{
  const record = raw.load(chunkSource(bytes, Infinity), '{}');
  if (record.model) {
    const counting = { n: 0, open() { this.n = 0; }, write(view) { this.n += view.length; }, close() {} };
    rawExportMs = bestOf(repeat, () => {
      const result = record.model.export('{"to":"graph-def"}', counting);
      if (result.error) throw new Error(`raw export: ${result.error.message}`);
    });
    record.model.delete();
  }
}

// The JS peer.
let peer = null;
const found = findProtobufjs(args.protobufjs);
if (found) {
  const { protobuf } = found;
  const root = new protobuf.Root();
  const protoRoot = path.join(repo, 'src/tf/proto');
  root.resolvePath = (origin, target) => (path.isAbsolute(target) ? target : path.join(protoRoot, target));
  root.loadSync('tensorflow/graph.proto', { keepCase: true });
  const GraphDef = root.lookupType('tensorflow.GraphDef');
  let message;
  // Two runs each (the first warms the JIT); protobufjs is slow on node-heavy graphs.
  const decodeMs = bestOf(2, () => { message = GraphDef.decode(bytes); });
  let encoded;
  const encodeMs = bestOf(2, () => { encoded = GraphDef.encode(message).finish(); });
  peer = { version: found.version, decodeMs, encodeMs,
    encodedBytes: encoded.length };
}

const mbps = (ms, n = size) => (n / 1e6) / (ms / 1e3);
const row = (what, ms, n = size) => console.log(`  ${what.padEnd(22)} ${ms.toFixed(2).padStart(10)} ms ` +
  `${mbps(ms, n).toFixed(1).padStart(10)} MB/s ${(ms / memcpyMs).toFixed(1).padStart(9)}x memcpy`);
const mib = (b) => (b / MiB).toFixed(1);

console.log(`wasm: ${label}: ${mib(size)} MiB, ${nodes} nodes (instantiate ${instantiateMs.toFixed(1)} ms; ` +
  `gc between runs ${typeof globalThis.gc === 'function' ? 'on' : 'off (run node --expose-gc)'})`);
console.log(`  ${'memcpy (JS set)'.padEnd(22)} ${memcpyMs.toFixed(2).padStart(10)} ms ` +
  `${mbps(memcpyMs).toFixed(1).padStart(10)} MB/s (best of ${Math.max(repeat, 5)})`);
row('  into a new Uint8Array', freshMs);
row('load (bytes)', loadMs);
row('  first load (cold)', firstLoadMs);
row('load (64 KiB source)', loadChunkMs);
row('loadFile (fd)', loadFileMs);
row('export graph-def', exportMs);
row('  first export (cold)', firstExportMs);
if (rawExportMs !== null) row('  core only (no JS copy)', rawExportMs);
if (text) {
  console.log(`  ${'export text'.padEnd(22)} ${textMs.toFixed(2).padStart(10)} ms ` +
    `${mbps(textMs, textBytes).toFixed(1).padStart(10)} MB/s ${(textMs / memcpyMs).toFixed(1).padStart(9)}x memcpy` +
    `  (${mib(textBytes)} MiB of text)`);
}
row('load+export', e2eMs);
console.log(`  export bytes ${sameBytes ? '==' : '!='} input bytes (${exported.length} vs ${size})`);
if (peer) {
  row(`protobufjs ${peer.version} decode`, peer.decodeMs);
  row(`protobufjs encode`, peer.encodeMs);
  row(`protobufjs dec+enc`, peer.decodeMs + peer.encodeMs);
} else {
  console.log('  protobufjs: not run (not a dependency of graphport; pass --protobufjs DIR to add it)');
}
const ratio = (b) => (b / size).toFixed(2);
console.log(`  WebAssembly heap (model = file size ${mib(size)} MiB; the heap only grows):`);
console.log(`    at start              ${mib(heap.start).padStart(8)} MiB`);
console.log(`    after first load      ${mib(heap.afterLoad).padStart(8)} MiB = ${ratio(heap.afterLoad)}x model`);
console.log(`    after first export    ${mib(heap.afterExport).padStart(8)} MiB = ${ratio(heap.afterExport)}x model`);
if (text) console.log(`    after text export     ${mib(heap.afterText).padStart(8)} MiB = ${ratio(heap.afterText)}x model`);
console.log(`    after all loops       ${mib(heap.end).padStart(8)} MiB = ${ratio(heap.end)}x model`);
console.log(`  JS ArrayBuffers grew ${mib(abAfterExport - abBefore)} MiB during the first export ` +
  `(= ${ratio(abAfterExport - abBefore)}x model, before GC)`);

if (args.json) {
  writeFileSync(args.json, JSON.stringify({
    impl: 'wasm', graph: label, bytes: size, nodes, instantiateMs, memcpyMs, freshMemcpyMs: freshMs,
    loadMs, firstLoadMs, firstExportMs, loadChunkMs, loadFileMs, exportMs, rawExportMs, e2eMs, textMs, textBytes, sameBytes, heap,
    exportArrayBufferGrowth: abAfterExport - abBefore, peer,
  }, null, 2) + '\n');
}

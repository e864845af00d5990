// WebAssembly benchmark, in Node, of one model of any family (a MegEngine file, a TF.js
// model.json with its shards in a folder): load, inspect and each export given, against a
// memcpy of all the model's bytes, with the WebAssembly heap each step leaves. The same
// measures as bench/family_bench.cc. A benchmark, not a test.
//
//   node --expose-gc bench/wasm_family_bench.mjs PATH [--export NAME=OPTIONS_JSON]...
//        [--repeat N] [--label L] [--json OUT]
//
// Every file is read into memory first. "load" goes through the JS API (gp.load of the bytes,
// or of {files} for a folder); exports run twice: into outputs that only count bytes (a raw
// instance of the module: the JS API has no sink yet) and through model.export(), which hands
// back fresh Uint8Arrays. "load → export" is the first --export, end to end, to the sink.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import createGraphport from '../bindings/js/node.mjs';
import {
  MiB, bestCpuOf, bestOf, gc, heapOf, memcpyFloor, now, rawExport, rawInstance, rawLoad, timeOnce,
} from './wasm_util.mjs';

function parseArgs(argv) {
  const args = { path: null, repeat: 3, label: null, json: null, exports: [] };
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    if (a === '--repeat') args.repeat = Math.max(1, Number(argv[++i]));
    else if (a === '--label') args.label = argv[++i];
    else if (a === '--json') args.json = argv[++i];
    else if (a === '--export' && argv[i + 1]?.includes('=')) {
      const spec = argv[++i];
      const eq = spec.indexOf('=');
      args.exports.push({ name: spec.slice(0, eq), options: JSON.parse(spec.slice(eq + 1)) });
    } else if (!a.startsWith('-') && !args.path) args.path = a;
    else {
      console.error('usage: node bench/wasm_family_bench.mjs PATH [--export NAME=OPTIONS_JSON]... ' +
        '[--repeat N] [--label L] [--json OUT]');
      process.exit(2);
    }
  }
  if (!args.path) parseArgs(['--help']);
  return args;
}

const args = parseArgs(process.argv.slice(2));
const label = args.label ?? args.path;
const repeat = args.repeat;

// The input as load() takes it: the bytes of one file, or {files} of a folder's files.
let input;
let all;
// A folder's files, subfolders included (a SavedModel's variables/), by relative name.
function readFolder(dir, prefix, files) {
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (name.startsWith('.')) continue;
    if (statSync(full).isFile()) files[prefix + name] = readFileSync(full);
    else if (statSync(full).isDirectory()) readFolder(full, `${prefix}${name}/`, files);
  }
  return files;
}

if (statSync(args.path).isDirectory()) {
  const files = readFolder(args.path, '', {});
  input = { files };
  all = Buffer.concat(Object.values(files));
} else {
  input = readFileSync(args.path);
  all = input;
}
const size = all.length;
const fileCount = input.files ? Object.keys(input.files).length : 1;

const instantiateStart = now();
const gp = await createGraphport();
const instantiateMs = now() - instantiateStart;
const floor = memcpyFloor(all, Math.max(repeat, 5));
all = null;
const memcpyMs = floor.warm;

// Cold load through the JS API: the heap it needs.
const heap = { start: gp.heapBytes() };
gc();
let model;
const loadColdMs = timeOnce(() => { model = gp.load(input, { name: label }); });
heap.afterLoad = gp.heapBytes();
const family = model.family;
const bytesMs = {};
for (const e of args.exports) {
  bytesMs[e.name] = bestOf(repeat, () => model.export(e.options));
  heap[`after ${e.name}`] = gp.heapBytes();
}
model.delete();
const loadMs = Math.min(loadColdMs, bestOf(repeat, () => gp.load(input, { name: label }).delete()));

// The core into counting outputs, in a raw instance: each export's heap, then inspect uncached.
// The heap only grows: its size after the first export is the peak of load + that export.
// JS-side buffers that export leaves (before GC) are counted beside it.
const { raw } = await rawInstance();
const rawHeap = { start: heapOf(raw) };
const rawModel = rawLoad(raw, input, label);
rawHeap.afterLoad = heapOf(raw);
const exports = args.exports.map((e) => {
  gc();
  const arrayBuffersBefore = process.memoryUsage().arrayBuffers;
  const first = timeOnce(() => rawExport(rawModel, e.options));
  const heapAfter = heapOf(raw);
  const jsBuffers = process.memoryUsage().arrayBuffers - arrayBuffersBefore;
  const out = rawExport(rawModel, e.options);
  const sinkMs = Math.min(first, bestOf(repeat, () => rawExport(rawModel, e.options)));
  const sinkCpuMs = bestCpuOf(repeat, () => rawExport(rawModel, e.options));
  return { name: e.name, options: e.options, sinkMs, sinkCpuMs, bytesMs: bytesMs[e.name], heapAfter,
    jsBuffers, bytes: out.bytes, files: out.files };
});
// Inspect last: its heap growth would hide the exports'.
let summary;
const inspectMs = bestOf(repeat, () => { summary = JSON.parse(rawModel.inspect().json); });
rawHeap.afterInspect = heapOf(raw);
const nodes = summary.nodeCount ?? summary.counts?.find(([k]) => k === 'operators')?.[1] ?? null;
rawModel.delete();
let e2eMs = null;
let e2eCpuMs = null;
if (exports.length > 0) {
  const e2e = () => {
    const m = rawLoad(raw, input, label);
    try {
      rawExport(m, exports[0].options);
    } finally {
      m.delete();
    }
  };
  e2eMs = bestOf(repeat, e2e);
  e2eCpuMs = bestCpuOf(repeat, e2e);
}

const mbps = (ms) => (size / 1e6) / (ms / 1e3);
const mib = (b) => (b / MiB).toFixed(1);
const ratio = (b) => (b / size).toFixed(2);
const row = (what, ms, extra = '') => console.log(`  ${what.padEnd(30)} ${ms.toFixed(2).padStart(10)} ms ` +
  `${mbps(ms).toFixed(1).padStart(10)} MB/s ${(ms / memcpyMs).toFixed(1).padStart(9)}x memcpy${extra}`);
console.log(`wasm: ${label} (${family}): ${mib(size)} MiB in ${fileCount} files, ${nodes} operators/nodes ` +
  `(first instantiate ${instantiateMs.toFixed(1)} ms)`);
console.log(`  ${'memcpy (JS set)'.padEnd(30)} ${memcpyMs.toFixed(2).padStart(10)} ms ${mbps(memcpyMs).toFixed(1).padStart(10)} MB/s`);
row('  into a new Uint8Array', floor.fresh);
row('load (bytes)', loadMs);
console.log(`  ${'inspect'.padEnd(30)} ${inspectMs.toFixed(2).padStart(10)} ms`);
for (const e of exports) {
  row(`export ${e.name} -> sink`, e.sinkMs, `  (${e.files} files, ${mib(e.bytes)} MiB; cpu ${e.sinkCpuMs.toFixed(1)} ms)`);
  row(`export ${e.name} -> bytes`, e.bytesMs);
}
if (exports.length > 0) {
  row(`load+export ${exports[0].name} -> sink`, e2eMs);
  console.log(`  ${'  (CPU time)'.padEnd(30)} ${e2eCpuMs.toFixed(2).padStart(10)} ms of CPU (best of ${repeat})`);
}
console.log(`  WebAssembly heap (model = its files, ${mib(size)} MiB; the heap only grows):`);
console.log(`    after first load        ${mib(heap.afterLoad).padStart(8)} MiB = ${ratio(heap.afterLoad)}x model`);
console.log(`    raw: after inspect      ${mib(rawHeap.afterInspect).padStart(8)} MiB = ${ratio(rawHeap.afterInspect)}x model`);
for (const e of exports) {
  console.log(`    raw: after ${e.name.padEnd(11)} ${mib(e.heapAfter).padStart(8)} MiB = ${ratio(e.heapAfter)}x model` +
    ` (after load ${ratio(rawHeap.afterLoad)}x; grew ${ratio(e.heapAfter - rawHeap.start)}x from ` +
    `${mib(rawHeap.start)} MiB; JS buffers +${ratio(e.jsBuffers)}x)`);
}

if (args.json) {
  writeFileSync(args.json, JSON.stringify({
    impl: 'wasm', graph: label, family, bytes: size, files: fileCount, nodes, firstInstantiateMs: instantiateMs,
    memcpyMs, freshMemcpyMs: floor.fresh, loadMs, inspectMs, e2eMs, e2eCpuMs, heap, rawHeap, exports,
  }, null, 2) + '\n');
}

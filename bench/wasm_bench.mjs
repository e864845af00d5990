// WebAssembly benchmark of graphport's JS API in Node, on one GraphDef file, beside its peers
// in the same process: plain libprotobuf compiled to WebAssembly (bench/wasm/protobuf_anchor.cc,
// the anchor) and protobufjs. The same measures as bench/native_bench.cc. A benchmark, not a
// test: it prints figures and ratios measured in this one run, and asserts nothing about time.
//
//   node --expose-gc bench/wasm_bench.mjs FILE [--repeat N] [--text | --no-text] [--scope S]
//        [--label NAME] [--json OUT] [--anchor PROTOBUF_ANCHOR.cjs]
//
// Measures, with the file's bytes already in a Node Buffer:
//   memcpy (JS)        Uint8Array.prototype.set into a pre-faulted buffer (best of N): the floor;
//                      and into a new Uint8Array each time (page faults included)
//   libprotobuf        GraphDef ParseFromArray (heap, and on an Arena) and SerializeToString in
//                      WebAssembly, the bytes already copied into its heap
//   protobufjs         GraphDef.decode and encode(...).finish() from the .proto files
//   load (bytes)       gp.load(bytes): 1 MiB chunks copied from the Buffer into the heap
//   load (64 KiB src)  gp.load({read, rewind, size}) handing out 64 KiB views: per-chunk cost
//   loadFile (fd)      gp.loadFile(path): chunks read from the file descriptor (page cache)
//   inspect            the core's inspect of a loaded model (the JS API caches its result)
//   export -> bytes    model.export({to: 'graph-def'}): collected into one fresh Uint8Array
//   export -> sink     the same export into outputs that only count bytes (a raw instance of
//                      the module, so that no JS sink's own work is timed)
//   export options     clearDevices, stripDefaultAttrs and (--scope) exportScope, to the sink
//   export text        asText, to the sink and to fresh bytes (by default only for files under
//                      100 MiB)
//   export tfjs        to: 'tfjs' (model.json and its shards), to the sink
//   load -> export     end to end, model deleted: with clearDevices to the sink (issue 10's target),
//                      with the options to the sink, and plain to bytes
// and the WebAssembly heap after each step (it grows and never shrinks: its size is its peak)
// relative to the model (file) size. Memory is taken on the first (cold) load and export.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import protobuf from 'protobufjs';

import createGraphport from '../bindings/js/node.mjs';
import {
  MiB, bestInstantiate, bestOf, chunkSource, gc, heapOf, memcpyFloor, now, rawExport, rawInstance,
  rawLoad, repo, timeOnce,
} from './wasm_util.mjs';

function parseArgs(argv) {
  const args = {
    file: null, repeat: 3, text: null, label: null, json: null, scope: null,
    anchor: path.join(repo, 'build/wasm/bench/wasm/protobuf_anchor.cjs'),
  };
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    if (a === '--repeat') args.repeat = Math.max(1, Number(argv[++i]));
    else if (a === '--text') args.text = true;
    else if (a === '--no-text') args.text = false;
    else if (a === '--scope') args.scope = argv[++i];
    else if (a === '--label') args.label = argv[++i];
    else if (a === '--json') args.json = argv[++i];
    else if (a === '--anchor') args.anchor = path.resolve(argv[++i]);
    else if (!a.startsWith('-') && !args.file) args.file = a;
    else {
      console.error('usage: node bench/wasm_bench.mjs FILE [--repeat N] [--text|--no-text] ' +
        '[--scope S] [--label NAME] [--json OUT] [--anchor PROTOBUF_ANCHOR.cjs]');
      process.exit(2);
    }
  }
  if (!args.file) parseArgs(['--help']);
  return args;
}

// Plain libprotobuf in WebAssembly on the same bytes, in its own instance.
async function measureAnchor(anchorPath, bytes, repeat) {
  const factory = createRequire(import.meta.url)(anchorPath);
  const m = await factory({ wasmBinary: readFileSync(anchorPath.replace(/\.cjs$/, '.wasm')) });
  const ptr = m._GraphportAnchorAlloc(bytes.length);
  m.HEAPU8.set(bytes, ptr);
  const parse = (arena) => {
    if (m._GraphportAnchorParse(ptr, bytes.length, arena) !== 1) {
      throw new Error('libprotobuf (wasm) cannot parse the file');
    }
  };
  // Cold: the heap it needs for one parse + serialize, the input's copy included.
  parse(0);
  const serialized = m._GraphportAnchorSerialize();
  const out = m.HEAPU8.subarray(m._GraphportAnchorSerializedData(), m._GraphportAnchorSerializedData() + serialized);
  const sameBytes = serialized === bytes.length && Buffer.compare(out, bytes) === 0;
  const heapBytes = m.HEAPU8.buffer.byteLength;
  const parseMs = bestOf(repeat, () => parse(0));
  const serializeMs = bestOf(repeat, () => m._GraphportAnchorSerialize());
  const arenaParseMs = bestOf(repeat, () => parse(1));
  m._GraphportAnchorReset();
  m._GraphportAnchorFree(ptr);
  return { parseMs, arenaParseMs, serializeMs, heapBytes, sameBytes };
}

// protobufjs from the .proto files graphport compiles.
function measureProtobufjs(bytes) {
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
  const version = createRequire(import.meta.url)('protobufjs/package.json').version;
  return { version, decodeMs, encodeMs, encodedBytes: encoded.length };
}

const args = parseArgs(process.argv.slice(2));
const label = args.label ?? args.file;
const repeat = args.repeat;
const binary = { to: 'graph-def' };
// The end-to-end case issue 10 sets its target on.
const clearDevices = { to: 'graph-def', clearDevices: true };
const withOptions = { to: 'graph-def', clearDevices: true, stripDefaultAttrs: true };
if (args.scope) withOptions.exportScope = args.scope;

// Instantiate: gp's first call in the process (the .wasm read, compiled and instantiated;
// node.mjs keeps that one instance), and the best of three compiles + instantiations of the
// module's bytes already in memory.
const instantiateStart = now();
const gp = await createGraphport();
const firstInstantiateMs = now() - instantiateStart;
const instantiateMs = await bestInstantiate(3);
const heapStart = gp.heapBytes();

const bytes = readFileSync(args.file);
const size = bytes.length;
const text = args.text ?? size < 100 * MiB;
const floorRepeat = Math.max(repeat, 5);
const floor = memcpyFloor(bytes, floorRepeat);
const memcpyMs = floor.warm;

// Cold load and export through the JS API: the memory figures.
const heap = { start: heapStart };
gc();
let model;
const firstLoadMs = timeOnce(() => { model = gp.load(bytes, { name: label }); });
heap.afterLoad = gp.heapBytes();
const nodes = model.inspect().nodeCount;

gc();
const abBefore = process.memoryUsage().arrayBuffers;
let out;
const firstExportMs = timeOnce(() => { out = model.export(binary); });
const abAfterExport = process.memoryUsage().arrayBuffers;
heap.afterExport = gp.heapBytes();
const exported = out.files[0].bytes;
const sameBytes = exported.length === size && Buffer.compare(exported, bytes) === 0;
out = null;
const exportMs = Math.min(firstExportMs, bestOf(repeat, () => model.export(binary)));
// Text to fresh bytes too: beside export -> bytes, the two exports compared on the same terms
// (to a sink, the binary export copies the input's bytes where the text one prints 2.3x as
// many). Only binary exports ran on this model, so its nodes are still printed from bytes.
const textToBytesMs = text ? bestOf(repeat, () => model.export({ ...binary, asText: true })) : null;
model.delete();
const loadMs = Math.min(firstLoadMs, bestOf(repeat, () => gp.load(bytes).delete()));
const loadChunkMs = bestOf(repeat, () => gp.load(chunkSource(bytes, 64 * 1024)).delete());
const loadFileMs = bestOf(repeat, () => gp.loadFile(args.file).delete());
const e2eBytesMs = bestOf(repeat, () => {
  const m = gp.load(bytes);
  try {
    m.export(binary);
  } finally {
    m.delete();
  }
});
heap.end = gp.heapBytes();

// The same core into counting outputs, in a raw instance of its own: its heap shows what an
// export with options needs on top of the loaded model.
const { raw, instantiateMs: rawInstantiateMs } = await rawInstance();
const rawHeap = { start: heapOf(raw) };
const rawModel = rawLoad(raw, bytes, label);
rawHeap.afterLoad = heapOf(raw);
// Text before the export with options: that one parses the nodes (scope, default attrs) and
// the model keeps them parsed, so a text export after it would not print from bytes.
let textMs = null;
let textBytes = null;
if (text) {
  textMs = bestOf(repeat, () => { textBytes = rawExport(rawModel, { ...binary, asText: true }).bytes; });
  rawHeap.afterText = heapOf(raw);
}
const firstOptionsMs = timeOnce(() => rawExport(rawModel, withOptions));
rawHeap.afterOptions = heapOf(raw);
// After the export with options, whose heap figure it would otherwise raise.
// A TF.js graph model (model.json and shards), written a node at a time from the bytes; seconds
// for the nodes graph, so a run slower than one second is not repeated.
let tfjsBytes = null;
const tfjsMs = bestOf(repeat, () => { tfjsBytes = rawExport(rawModel, { to: 'tfjs' }).bytes; }, 1000);
rawHeap.afterTfjs = heapOf(raw);
const optionsBytes = rawExport(rawModel, withOptions).bytes;
const inspectMs = bestOf(repeat, () => rawModel.inspect());
const sinkMs = bestOf(repeat, () => rawExport(rawModel, binary));
const optionsMs = Math.min(firstOptionsMs, bestOf(repeat, () => rawExport(rawModel, withOptions)));
rawModel.delete();
const e2eSinkMs = bestOf(repeat, () => {
  const m = rawLoad(raw, bytes, label);
  try {
    rawExport(m, clearDevices);
  } finally {
    m.delete();
  }
});
const e2eOptionsMs = bestOf(repeat, () => {
  const m = rawLoad(raw, bytes, label);
  try {
    rawExport(m, withOptions);
  } finally {
    m.delete();
  }
});

// The peers.
let anchor = null;
try {
  anchor = await measureAnchor(args.anchor, bytes, repeat);
} catch (e) {
  console.log(`  libprotobuf anchor: not run (${e.message.split('\n')[0]}); build it with ` +
    'cmake --build build/wasm --target graphport_protobuf_anchor');
}
const peer = measureProtobufjs(bytes);

const mbps = (ms, n = size) => (n / 1e6) / (ms / 1e3);
const row = (what, ms, extra = '') => console.log(`  ${what.padEnd(26)} ${ms.toFixed(2).padStart(10)} ms ` +
  `${mbps(ms).toFixed(1).padStart(10)} MB/s ${(ms / memcpyMs).toFixed(1).padStart(9)}x memcpy${extra}`);
const mib = (b) => (b / MiB).toFixed(1);

console.log(`wasm: ${label}: ${mib(size)} MiB, ${nodes} nodes (instantiate ${instantiateMs.toFixed(1)} ms, ` +
  `first ${firstInstantiateMs.toFixed(1)} ms, ` +
  `raw ${rawInstantiateMs.toFixed(1)} ms; gc between runs ${typeof globalThis.gc === 'function' ? 'on' : 'off (run node --expose-gc)'})`);
console.log(`  ${'memcpy (JS set)'.padEnd(26)} ${memcpyMs.toFixed(2).padStart(10)} ms ` +
  `${mbps(memcpyMs).toFixed(1).padStart(10)} MB/s (best of ${floorRepeat})`);
row('  into a new Uint8Array', floor.fresh);
if (anchor) {
  row('libprotobuf parse', anchor.parseMs);
  row('  parse on an arena', anchor.arenaParseMs);
  row('libprotobuf serialize', anchor.serializeMs);
  row('libprotobuf parse+ser.', anchor.parseMs + anchor.serializeMs);
}
row(`protobufjs ${peer.version} decode`, peer.decodeMs);
row('protobufjs encode', peer.encodeMs);
row('protobufjs dec+enc', peer.decodeMs + peer.encodeMs);
row('load (bytes)', loadMs);
row('  first load (cold)', firstLoadMs);
row('load (64 KiB source)', loadChunkMs);
row('loadFile (fd)', loadFileMs);
console.log(`  ${'inspect'.padEnd(26)} ${inspectMs.toFixed(2).padStart(10)} ms`);
row('export -> bytes', exportMs);
row('  first export (cold)', firstExportMs);
row('export -> sink', sinkMs);
row('export options -> sink', optionsMs);
if (text) {
  console.log(`  ${'export text -> sink'.padEnd(26)} ${textMs.toFixed(2).padStart(10)} ms ` +
    `${mbps(textMs, textBytes).toFixed(1).padStart(10)} MB/s ${(textMs / memcpyMs).toFixed(1).padStart(9)}x memcpy` +
    `  (${mib(textBytes)} MiB of text)`);
  row('export text -> bytes', textToBytesMs);
}
console.log(`  ${'export tfjs -> sink'.padEnd(26)} ${tfjsMs.toFixed(2).padStart(10)} ms ` +
  `${mbps(tfjsMs, tfjsBytes).toFixed(1).padStart(10)} MB/s ${(tfjsMs / memcpyMs).toFixed(1).padStart(9)}x memcpy` +
  `  (${mib(tfjsBytes)} MiB in its files)`);
row('load+export cd -> sink', e2eSinkMs);
row('load+export opts -> sink', e2eOptionsMs);
row('load+export -> bytes', e2eBytesMs);
console.log(`  export bytes ${sameBytes ? '==' : '!='} input bytes (${exported.length} vs ${size})` +
  (anchor ? `; libprotobuf's ${anchor.sameBytes ? '==' : '!='} (its default serializer does not sort maps)` : ''));
const ratio = (b) => (b / size).toFixed(2);
console.log(`  WebAssembly heap (model = file size ${mib(size)} MiB; the heap only grows):`);
console.log(`    at start              ${mib(heap.start).padStart(8)} MiB`);
console.log(`    after first load      ${mib(heap.afterLoad).padStart(8)} MiB = ${ratio(heap.afterLoad)}x model`);
console.log(`    after first export    ${mib(heap.afterExport).padStart(8)} MiB = ${ratio(heap.afterExport)}x model`);
console.log(`    after all loops       ${mib(heap.end).padStart(8)} MiB = ${ratio(heap.end)}x model`);
console.log(`    raw: export tfjs      ${mib(rawHeap.afterTfjs).padStart(8)} MiB = ${ratio(rawHeap.afterTfjs)}x model` +
  ` (after load ${ratio(rawHeap.afterLoad)}x)`);
console.log(`    raw: export options   ${mib(rawHeap.afterOptions).padStart(8)} MiB = ${ratio(rawHeap.afterOptions)}x model` +
  ` (after load ${ratio(rawHeap.afterLoad)}x)`);
if (anchor) {
  console.log(`    libprotobuf parse+ser ${mib(anchor.heapBytes).padStart(8)} MiB = ${ratio(anchor.heapBytes)}x model` +
    ' (its copy of the input included)');
}
console.log(`  JS ArrayBuffers grew ${mib(abAfterExport - abBefore)} MiB during the first export ` +
  `(= ${ratio(abAfterExport - abBefore)}x model, before GC)`);

if (args.json) {
  writeFileSync(args.json, JSON.stringify({
    impl: 'wasm', graph: label, bytes: size, nodes, instantiateMs, firstInstantiateMs, rawInstantiateMs, memcpyMs,
    freshMemcpyMs: floor.fresh, loadMs, firstLoadMs, firstExportMs, loadChunkMs, loadFileMs,
    inspectMs, exportMs, sinkMs, exportOptions: withOptions, optionsMs, optionsBytes, e2eSinkMs,
    e2eOptionsMs, e2eBytesMs, textMs, textToBytesMs, textBytes, tfjsMs, tfjsBytes, sameBytes, heap, rawHeap,
    exportArrayBufferGrowth: abAfterExport - abBefore, anchor, peer,
  }, null, 2) + '\n');
}

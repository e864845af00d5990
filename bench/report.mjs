// Prints one table of the figures bench/run.sh collected: for each model, native vs wasm, each
// side's time as a ratio to its own memcpy of the same bytes and to its peers in the same run
// (plain libprotobuf parse + serialize on that side; protobufjs decode + encode in Node), the
// memory per model size, and the module's size and instantiate time.
//
//   node bench/report.mjs RESULTS_DIR
//
// RESULTS_DIR holds native-<model>.json and wasm-<model>.json (native_bench, family_bench,
// wasm_bench.mjs and wasm_family_bench.mjs with --json), instantiate-<n>.json
// (wasm_instantiate.mjs, one per fresh process) and module.json (run.sh).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const dir = process.argv[2] ?? 'bench/out/results';
const read = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null);
const order = ['weights', 'nodes', 'mge', 'tfjs', 'freeze200', 'keras5k'];
const rank = (g) => (order.includes(g) ? order.indexOf(g) : order.length);
const graphs = [...new Set(readdirSync(dir)
  .map((f) => /^(?:native|wasm)-(.+)\.json$/.exec(f)?.[1])
  .filter(Boolean))].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));

const MiB = 1024 * 1024;
const ms = (v) => (v === null || v === undefined ? '-' : v >= 100 ? v.toFixed(0) : v.toFixed(1));
const x = (v, base) => (v === null || v === undefined || !base ? '-' : `${(v / base).toFixed(v / base < 10 ? 2 : 1)}x`);
const pad = (s, n) => String(s).padStart(n);
const per = (b, size) => (b === null || b === undefined ? '-' : `${(b / size).toFixed(2)}x`);

// A GraphDef model, with both peers.
function graphTable(graph, n, w) {
  const any = n ?? w;
  const nLib = n?.anchor ? n.anchor.parse_ms + n.anchor.serialize_ms : null;
  const wLib = w?.anchor ? w.anchor.parseMs + w.anchor.serializeMs : null;
  const wPbjs = w?.peer ? w.peer.decodeMs + w.peer.encodeMs : null;
  console.log(`\n${graph}: GraphDef, ${(any.bytes / MiB).toFixed(1)} MiB, ${any.nodes} nodes`);
  console.log('  ms, and time as a ratio to: memcpy of the same bytes, libprotobuf parse+serialize ' +
    '(lpb) on the same side, protobufjs decode+encode (pbjs); all in this run');
  console.log(`  ${''.padEnd(30)}${pad('native ms', 10)}${pad('/memcpy', 9)}${pad('/lpb', 8)}` +
    `${pad('wasm ms', 10)}${pad('/memcpy', 9)}${pad('/lpb', 8)}${pad('/pbjs', 8)}`);
  const line = (what, nv, wv) => {
    console.log(`  ${what.padEnd(30)}${pad(ms(nv), 10)}${pad(x(nv, n?.memcpy_ms), 9)}${pad(x(nv, nLib), 8)}` +
      `${pad(ms(wv), 10)}${pad(x(wv, w?.memcpyMs), 9)}${pad(x(wv, wLib), 8)}${pad(x(wv, wPbjs), 8)}`);
  };
  line('memcpy (C / JS set)', n?.memcpy_ms, w?.memcpyMs);
  line('  into a new buffer', n?.fresh_memcpy_ms, w?.freshMemcpyMs);
  line('libprotobuf parse', n?.anchor?.parse_ms, w?.anchor?.parseMs);
  line('  parse on an arena', n?.anchor?.arena_parse_ms, w?.anchor?.arenaParseMs);
  line('libprotobuf serialize', n?.anchor?.serialize_ms, w?.anchor?.serializeMs);
  line('libprotobuf parse+serialize', nLib, wLib);
  if (w?.peer) line(`protobufjs ${w.peer.version} decode+encode`, null, wPbjs);
  line('load from memory', n?.load_ms, w?.loadMs);
  line('  first load (cold)', n?.first_load_ms, w?.firstLoadMs);
  line('load, chunked source', n?.load_stream_ms, w?.loadChunkMs);
  line('loadFile (fd stream)', null, w?.loadFileMs);
  line('inspect', n?.inspect_ms, w?.inspectMs);
  line('export -> sink', n?.export_ms, w?.sinkMs);
  line('export -> bytes', null, w?.exportMs);
  line('export options -> sink', n?.export_options_ms, w?.optionsMs);
  if (n?.text_ms || w?.textMs) line('export text -> sink', n?.text_ms, w?.textMs);
  if (w?.textToBytesMs) line('export text -> bytes', null, w.textToBytesMs);
  if (w?.tfjsMs) line('export tfjs -> sink', null, w.tfjsMs);
  line('load -> export clearDevices -> sink', n?.e2e_ms, w?.e2eSinkMs);
  line('load -> export options -> sink', n?.e2e_options_ms, w?.e2eOptionsMs);
  line('load -> export -> bytes', n?.e2e_bytes_ms, w?.e2eBytesMs);
  const opts = w?.exportOptions ?? (n ? JSON.parse(n.export_options) : null);
  if (opts) console.log(`  (options: ${Object.keys(opts).filter((k) => k !== 'to').map((k) => (opts[k] === true ? k : `${k}=${opts[k]}`)).join(', ')})`);
  if (n) {
    console.log(`  native memory / model:  libprotobuf ${per(n.anchor?.peak_bytes, n.bytes)}; graphport: ` +
      `holds ${per(n.model_held_bytes, n.bytes)}, load peak ${per(n.load_peak_bytes, n.bytes)}, ` +
      `export adds ${per(n.export_peak_bytes, n.bytes)}, with options ${per(n.export_options_peak_bytes, n.bytes)}` +
      `${n.text_peak_bytes !== undefined ? `, text ${per(n.text_peak_bytes, n.bytes)}` : ''}` +
      `${n.peak_resettable ? '' : ' (peaks are process-wide: no VmHWM reset)'}`);
  }
  if (w) {
    console.log(`  wasm heap / model:      libprotobuf ${per(w.anchor?.heapBytes, w.bytes)} (with its input copy); ` +
      `graphport: after load ${per(w.heap.afterLoad, w.bytes)}, after export ${per(w.heap.afterExport, w.bytes)}, ` +
      `export with options ${per(w.rawHeap.afterOptions, w.bytes)}, ` +
      `${w.rawHeap.afterTfjs ? `to tfjs ${per(w.rawHeap.afterTfjs, w.bytes)}, ` : ''}all loops ${per(w.heap.end, w.bytes)} ` +
      `(${(w.heap.start / MiB).toFixed(0)} MiB at start)`);
    console.log(`  JS memory, first export: ArrayBuffers +${per(w.exportArrayBufferGrowth, w.bytes)} of the model ` +
      '(before GC; 1x = the exported file only)');
  }
  if (w && n) {
    console.log(`  round trip:             native ${n.export_bytes === n.bytes ? 'identical' : 'DIFFERENT'}` +
      ` bytes, wasm ${w.sameBytes ? 'identical' : 'DIFFERENT'} bytes`);
  }
}

// A model of another family: load, inspect and its natural exports.
function familyTable(graph, n, w) {
  const any = n ?? w;
  console.log(`\n${graph}: ${any.family}, ${(any.bytes / MiB).toFixed(1)} MiB in ${any.files} files, ` +
    `${any.nodes} operators/nodes`);
  console.log(`  ${''.padEnd(30)}${pad('native ms', 10)}${pad('/memcpy', 9)}${pad('wasm ms', 10)}${pad('/memcpy', 9)}` +
    `${pad('wasm/native', 13)}`);
  const line = (what, nv, wv) => {
    const ratio = nv && wv ? (wv / nv).toFixed(2) : '-';
    console.log(`  ${what.padEnd(30)}${pad(ms(nv), 10)}${pad(x(nv, n?.memcpy_ms), 9)}` +
      `${pad(ms(wv), 10)}${pad(x(wv, w?.memcpyMs), 9)}${pad(ratio, 13)}`);
  };
  line('memcpy (C / JS set)', n?.memcpy_ms, w?.memcpyMs);
  line('  into a new buffer', n?.fresh_memcpy_ms, w?.freshMemcpyMs);
  line('load from memory', n?.load_ms, w?.loadMs);
  line('inspect', n?.inspect_ms, w?.inspectMs);
  const names = (n ?? w).exports.map((e) => e.name);
  for (const name of names) {
    const ne = n?.exports.find((e) => e.name === name);
    const we = w?.exports.find((e) => e.name === name);
    line(`export ${name} -> sink`, ne?.ms, we?.sinkMs);
    line(`export ${name} -> bytes`, null, we?.bytesMs);
  }
  if (names.length > 0) line(`load -> export ${names[0]} -> sink`, n?.e2e_ms, w?.e2eMs);
  if (n) {
    console.log(`  native memory / model:  holds ${per(n.model_held_bytes, n.bytes)}, load peak ` +
      `${per(n.load_peak_bytes, n.bytes)}, ` +
      n.exports.map((e) => `export ${e.name} adds ${per(e.peak_bytes, n.bytes)}`).join(', '));
  }
  if (w) {
    console.log(`  wasm heap / model:      after load ${per(w.heap.afterLoad, w.bytes)}, ` +
      `after inspect ${per(w.rawHeap.afterInspect, w.bytes)}, ` +
      w.exports.map((e) => `after ${e.name} ${per(e.heapAfter, w.bytes)}`).join(', '));
    if (w.rawHeap.start !== undefined) {
      console.log(`  wasm heap growth / model (load + first export, from ${(w.rawHeap.start / MiB).toFixed(0)} MiB; ` +
        '+ JS buffers left): ' + w.exports.map((e) => `${e.name} ${per(e.heapAfter - w.rawHeap.start, w.bytes)}` +
        ` + ${per(Math.max(0, e.jsBuffers), w.bytes)}`).join(', '));
    }
  }
  freezeTargets(graph, n, w);
}

// Issue 32's acceptance figures for the freeze models, each beside its target. The CPU times
// (best of the runs) say what the code costs where other jobs share the cores.
function freezeTargets(graph, n, w) {
  const tfjs = (side) => side?.exports.find((e) => e.name === 'tfjs');
  if (graph === 'freeze200' && w && tfjs(w)) {
    const e = tfjs(w);
    const heap = (e.heapAfter - w.rawHeap.start + Math.max(0, e.jsBuffers)) / w.bytes;
    console.log(`  target (issue 32): wasm freeze -> TF.js -> sink ${x(e.sinkMs, w.memcpyMs)} memcpy ` +
      `(at most 3x; CPU time ${x(e.sinkCpuMs, w.memcpyMs)}); heap ${heap.toFixed(2)}x the model (at most 1.3x)` +
      `${n && tfjs(n) ? `; native ${x(tfjs(n).ms, n.memcpy_ms)} memcpy (CPU ${x(tfjs(n).cpu_ms, n.memcpy_ms)}), ` +
        `peak +${per(tfjs(n).peak_bytes, n.bytes)}` : ''}`);
  }
  if (graph === 'keras5k' && (n || w)) {
    const both = [n && `native ${ms(n.e2e_ms)} ms (CPU ${ms(n.e2e_cpu_ms)})`,
      w && `wasm ${ms(w.e2eMs)} ms (CPU ${ms(w.e2eCpuMs)})`].filter(Boolean);
    console.log(`  target (issue 32): load -> freeze + optimize -> TF.js -> sink ${both.join(', ')} ` +
      `(at most 200 ms); the export alone: ${[n && tfjs(n) && `native ${ms(tfjs(n).ms)}`, w && tfjs(w) && `wasm ${ms(tfjs(w).sinkMs)}`].filter(Boolean).join(', ')} ms`);
  }
}

for (const graph of graphs) {
  const n = read(path.join(dir, `native-${graph}.json`));
  const w = read(path.join(dir, `wasm-${graph}.json`));
  if ((n ?? w).family) familyTable(graph, n, w);
  else graphTable(graph, n, w);
}

const module = read(path.join(dir, 'module.json'));
const instantiate = graphs.map((g) => read(path.join(dir, `wasm-${g}.json`))?.instantiateMs)
  .filter((v) => typeof v === 'number');
const first = graphs.map((g) => read(path.join(dir, `wasm-${g}.json`))?.firstInstantiateMs)
  .filter((v) => typeof v === 'number');
if (module) {
  const kb = (b) => `${(b / 1000).toFixed(0)} KB`;
  const sets = Object.entries(module.sets).map(([k, v]) => `${k} ${kb(v)}`).join(', ');
  console.log(`\nmodule: ${module.module} ${kb(module.gzip)} gzip -9 (${kb(module.raw)} raw)` +
    `${sets ? `; scripts/wasm-sizes.sh builds: ${sets}` : '; other family sets: run scripts/wasm-sizes.sh'}` +
    `; instantiate ${instantiate.length ? `${Math.min(...instantiate).toFixed(1)} ms (best)` : '-'}` +
    `${first.length ? `, first in a process ${Math.min(...first).toFixed(1)}-${Math.max(...first).toFixed(1)} ms` : ''}`);
}

// The first instantiation in a fresh process: each phase's median over the processes, and the
// package's createGraphport() whole.
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const range = (values) => `${median(values).toFixed(1)} ms (${Math.min(...values).toFixed(1)}-` +
  `${Math.max(...values).toFixed(1)})`;
const runs = (pattern) => readdirSync(dir).filter((f) => pattern.test(f)).map((f) => read(path.join(dir, f)));
const steps = runs(/^instantiate-\d+\.json$/);
if (steps.length) {
  const phases = ['glue', 'read', 'compile', 'instantiate', 'start'];
  console.log(`first instantiation in a fresh process (median of ${steps.length}; ` +
    `bench/wasm_instantiate.mjs), step by step: ${phases.map((p) => `${p} ${median(steps.map((s) => s[p])).toFixed(1)}`).join(', ')}` +
    ` ms; total ${range(steps.map((s) => s.total))}`);
}
const packaged = runs(/^instantiate-package-\d+\.json$/);
if (packaged.length) {
  console.log(`  the package's createGraphport(), which compiles while the glue loads: ` +
    `${range(packaged.map((s) => s.package))}`);
}

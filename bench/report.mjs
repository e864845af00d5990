// Prints one table of the figures bench/run.sh collected: for each graph, native vs wasm vs
// memcpy (each side's own memcpy of the same bytes in the same run) and the JS peer when it ran.
//
//   node bench/report.mjs RESULTS_DIR
//
// RESULTS_DIR holds native-<graph>.json and wasm-<graph>.json, as written by native_bench and
// wasm_bench.mjs with --json.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const dir = process.argv[2] ?? 'bench/out/results';
const read = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null);
const graphs = [...new Set(readdirSync(dir)
  .map((f) => /^(?:native|wasm)-(.+)\.json$/.exec(f)?.[1])
  .filter(Boolean))].sort((a, b) => (a === 'weights' ? -1 : b === 'weights' ? 1 : a.localeCompare(b)));

const MiB = 1024 * 1024;
const ms = (v) => (v === null || v === undefined ? '-' : v >= 100 ? v.toFixed(0) : v.toFixed(1));
const x = (v, base) => (v === null || v === undefined || !base ? '-' : `${(v / base).toFixed(1)}x`);
const pad = (s, n) => String(s).padStart(n);

for (const graph of graphs) {
  const n = read(path.join(dir, `native-${graph}.json`));
  const w = read(path.join(dir, `wasm-${graph}.json`));
  const any = n ?? w;
  console.log(`\n${graph}: ${(any.bytes / MiB).toFixed(1)} MiB, ${any.nodes} nodes` +
    ' (ms; "x" = time / memcpy of the same bytes on the same side, in the same run)');
  console.log(`  ${''.padEnd(26)}${pad('native ms', 11)}${pad('x', 8)}${pad('wasm ms', 11)}${pad('x', 8)}` +
    `${pad('wasm/native', 13)}`);
  const line = (what, nv, wv) => {
    const ratio = nv && wv ? `${(wv / nv).toFixed(2)}` : '-';
    console.log(`  ${what.padEnd(26)}${pad(ms(nv), 11)}${pad(x(nv, n?.memcpy_ms), 8)}` +
      `${pad(ms(wv), 11)}${pad(x(wv, w?.memcpyMs), 8)}${pad(ratio, 13)}`);
  };
  line('memcpy (C / JS set)', n?.memcpy_ms, w?.memcpyMs);
  line('  into a new buffer', n?.fresh_memcpy_ms, w?.freshMemcpyMs);
  line('load from memory', n?.load_ms, w?.loadMs);
  line('  first load (cold)', n?.first_load_ms, w?.firstLoadMs);
  line('load, chunked source', n?.load_stream_ms, w?.loadChunkMs);
  line('loadFile (fd stream)', null, w?.loadFileMs);
  line('export graph-def', n?.export_ms, w?.exportMs);
  line('  first export (cold)', n?.first_export_ms, w?.firstExportMs);
  line('  core only (no JS copy)', n?.export_ms, w?.rawExportMs);
  if (n?.text_ms || w?.textMs) line('export text', n?.text_ms, w?.textMs);
  line('load -> export (e2e)', n?.e2e_ms, w?.e2eMs);
  if (w?.peer) {
    line(`protobufjs ${w.peer.version} decode`, null, w.peer.decodeMs);
    line('protobufjs encode', null, w.peer.encodeMs);
    line('protobufjs decode+encode', null, w.peer.decodeMs + w.peer.encodeMs);
  } else if (w) {
    console.log(`  ${'protobufjs'.padEnd(26)}   not run (not a dependency; GRAPHPORT_BENCH_PROTOBUFJS=DIR)`);
  }
  const r = (b) => `${(b / any.bytes).toFixed(2)}x`;
  if (n) {
    console.log(`  native memory / model:     loaded model holds ${r(n.model_held_bytes)}, ` +
      `load peak ${r(n.load_peak_bytes)}, export adds ${r(n.export_peak_bytes)}` +
      `${n.peak_resettable ? '' : ' (peaks are process-wide: no VmHWM reset)'}`);
  }
  if (w) {
    console.log(`  wasm heap / model:         after load ${r(w.heap.afterLoad)}, after export ` +
      `${r(w.heap.afterExport)}, peak ${r(w.heap.end)} (${(w.heap.end / MiB).toFixed(0)} MiB; ` +
      `${(w.heap.start / MiB).toFixed(0)} MiB at start)`);
    console.log(`  JS memory, first export:   ArrayBuffers +${r(w.exportArrayBufferGrowth)} of the model ` +
      '(before GC; 1x = the exported file only, no chunk copies)');
  }
  if (w && n) {
    console.log(`  round trip:                native ${n.export_bytes === n.bytes ? 'identical' : 'DIFFERENT'}` +
      ` bytes, wasm ${w.sameBytes ? 'identical' : 'DIFFERENT'} bytes`);
  }
}

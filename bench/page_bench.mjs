// The page with a 110 MiB GraphDef in headless Chromium: how long the main thread stalls at
// most while the worker loads and exports it, and how many distinct values the progress bar
// takes. Figures, not a test (they depend on the machine and its load); page_large.test.mjs
// checks what does not: the work runs in the worker, progress comes in order, Cancel works.
//
//   node bench/page_bench.mjs [MiB]      (default 110; needs the WebAssembly build)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { writeBigGraph } from '../tests/e2e/big_graph.mjs';
import { clickExport, startPageSession } from '../tests/e2e/page_helpers.mjs';

const mib = Number(process.argv[2] ?? 110);

// A 10 ms interval on the main thread: the longest gap between its ticks, and the bar's
// value at each tick.
async function startHeartbeat(page) {
  await page.evaluate(() => {
    clearInterval(window.heartbeat?.timer);
    const beat = { last: performance.now(), maxGap: 0, samples: [] };
    beat.timer = setInterval(() => {
      const now = performance.now();
      beat.maxGap = Math.max(beat.maxGap, now - beat.last);
      beat.last = now;
      const bar = document.getElementById('progress');
      if (!bar.closest('[hidden]') && bar.hasAttribute('value')) beat.samples.push([bar.value, bar.max]);
    }, 10);
    window.heartbeat = beat;
  });
}

async function heartbeat(page) {
  return page.evaluate(() => {
    const { maxGap, samples } = window.heartbeat;
    const inside = samples.filter(([v, max]) => v > 0 && v < max).map(([v]) => v);
    return { maxGapMs: Math.round(maxGap), distinctProgressValues: new Set(inside).size };
  });
}

const temp = mkdtempSync(join(tmpdir(), 'graphport-page-bench-'));
const session = await startPageSession();
try {
  const big = join(temp, 'weights.pb');
  writeBigGraph(big, mib);
  const page = await session.newPage();
  await startHeartbeat(page);
  const settled = await page.evaluate(() => window.graphportPage.settled);
  let start = performance.now();
  await page.setInputFiles('#file-input', big);
  await page.waitForFunction((n) => window.graphportPage.settled > n, settled, { timeout: 300000 });
  const load = { ...(await heartbeat(page)), seconds: (performance.now() - start) / 1000 };
  await startHeartbeat(page);
  await page.click('label:has(input[name="opt-to"][value="graph-def"])');
  start = performance.now();
  await clickExport(page);
  const exported = { ...(await heartbeat(page)), seconds: (performance.now() - start) / 1000 };
  console.log(JSON.stringify({ graphMiB: mib, load, export: exported }, null, 2));
} finally {
  await session.close();
  rmSync(temp, { recursive: true, force: true });
}

// The page with a 100 MB+ GraphDef: loading and exporting run in the worker, which reports
// its progress in order; Cancel stops a load or an export and leaves no model and no output;
// the page stays usable. Nothing here depends on the machine's speed: how long the main
// thread stalls and how often the bar moves are figures, measured by bench/page_bench.mjs.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { writeBigGraph } from './big_graph.mjs';
import {
  clickExport, field, nodeReference, openFiles, repo, screenshot, startPageSession,
} from './page_helpers.mjs';
import { instrumentWorker, requests, workerLog } from './worker_log.mjs';

const MIB = 110;
let session;
let temp;
let big;

before(async () => {
  temp = mkdtempSync(join(tmpdir(), 'graphport-large-'));
  big = join(temp, 'weights.pb');
  const how = writeBigGraph(big, MIB);
  assert.ok(statSync(big).size > 100e6, `${big} (${how}) is under 100 MB`);
  session = await startPageSession();
});

after(async () => {
  await session?.close();
  if (temp) rmSync(temp, { recursive: true, force: true });
});

// One request's progress: in the phase asked for, each `done` at least the one before and
// at most `total`, all of it before the request ended.
function assertProgressInOrder(request, phase) {
  const values = request.progress.filter((p) => p.phase === phase);
  assert.ok(values.length >= 1, `no ${phase} progress for request ${request.id}`);
  for (let i = 1; i < values.length; i += 1) {
    assert.ok(values[i].done >= values[i - 1].done,
      `${phase} progress went back: ${values[i - 1].done} then ${values[i].done}`);
  }
  for (const v of values) {
    if (typeof v.total === 'number') assert.ok(v.done <= v.total, `${v.done} of ${v.total}`);
  }
  assert.equal(request.afterEnd, 0, 'progress arrived after the request ended');
}

test(`a ${MIB} MiB GraphDef loads and exports in the worker, reporting progress in order`, async () => {
  const page = await session.newPage();
  await instrumentWorker(page);
  await page.reload();
  await page.waitForFunction(() => window.graphportPage?.ready === true, null, { timeout: 30000 });
  const settled = await page.evaluate(() => window.graphportPage.settled);
  await page.setInputFiles('#file-input', big);
  await page.waitForFunction((n) => window.graphportPage.settled > n, settled, { timeout: 120000 });

  const { summary } = await nodeReference(big);
  assert.equal(await field(page, 'nodes'), summary.nodeCount.toLocaleString('en-US'));
  assert.equal(await field(page, 'format'), 'GraphDef');

  await page.click('label:has(input[name="opt-to"][value="graph-def"])');
  await clickExport(page);
  assert.match(await page.textContent('#outputs'), /graph\.pb/);
  const size = await page.evaluate(() => document.querySelector('#outputs td.num').textContent);
  assert.match(size, /MB$/);
  await screenshot(page, 'large-exported');

  // Both ran in the worker: their progress and their results came from it, in order.
  // The page asks for more than these two (the pre-flight and the preview): pick them by type.
  const asked = requests(await workerLog(page));
  const load = asked.find((r) => r.type === 'load');
  const exported = asked.find((r) => r.type === 'export');
  assert.equal(load?.end, 'done');
  assertProgressInOrder(load, 'read');
  assert.equal(load.progress.at(-1).done, load.progress.at(-1).total, 'the load reported its end');
  assert.equal(exported?.end, 'done');
  assertProgressInOrder(exported, 'write');
  // The main thread never instantiated the module: the worker holds it.
  assert.equal(await page.evaluate(() => typeof window.createGraphportWasm), 'undefined');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('Cancel stops a load, and an export, leaving no model and no output', async () => {
  const page = await session.newPage();
  await instrumentWorker(page);
  await page.reload();
  await page.waitForFunction(() => window.graphportPage?.ready === true, null, { timeout: 30000 });
  const sample = join(repo, 'web/samples/half_plus_two.pbtxt');

  // Cancel during a load: clicked on its first progress message, while the worker reads.
  await page.evaluate(() => { window.cancelOnFirst = 'read'; });
  await page.setInputFiles('#file-input', big);
  await page.waitForSelector('#cancelled');
  assert.match(await page.textContent('#cancelled'), /cancelled; nothing is loaded/);
  assert.equal(await page.evaluate(() => window.graphportPage.busy), null);
  assert.equal(await page.evaluate(() => window.graphportPage.summary), null);
  assert.equal(await page.isVisible('#activity'), false);
  assert.equal(await page.isDisabled('#export-button'), true);
  let load = requests(await workerLog(page)).find((r) => r.type === 'load');
  assert.equal(load.end, null, 'the cancelled load never reported a result');
  await screenshot(page, 'large-cancelled');

  // A later small load works (in the fresh worker).
  await openFiles(page, sample);
  assert.equal(await field(page, 'nodes'), '5');

  // Cancel during an export, the same way; then open the same file again from the notice.
  await openFiles(page, big);
  const exportedBefore = await page.evaluate(() => window.graphportPage.exported);
  await page.setChecked('#opt-asText', true);
  await page.evaluate(() => { window.cancelOnFirst = 'write'; });
  await page.click('#export-button');
  await page.waitForSelector('#cancelled');
  assert.match(await page.textContent('#cancelled'), /export was cancelled/);
  await page.waitForFunction((n) => window.graphportPage.exported > n, exportedBefore);
  assert.equal(await page.evaluate(() => window.graphportPage.summary), null, 'no model is left');
  const outputs = await page.evaluate(() => document.getElementById('outputs')?.textContent ?? '');
  assert.doesNotMatch(outputs, /\.pbtxt/, 'no output is left');
  const last = requests(await workerLog(page)).filter((r) => r.type === 'export').at(-1);
  assert.equal(last.end, null, 'the cancelled export never reported a result');

  const settled = await page.evaluate(() => window.graphportPage.settled);
  await page.click('#cancelled button');
  await page.waitForFunction((n) => window.graphportPage.settled > n, settled, { timeout: 120000 });
  assert.equal(await field(page, 'file'), 'weights.pb');
  assert.deepEqual(page.errors, []);
  await page.close();
});

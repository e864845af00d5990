// The page with a 100 MB+ GraphDef: loading and exporting run in the worker, so the main
// thread keeps ticking; the progress bar moves; Cancel stops a load or an export and leaves
// the page usable.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { writeBigGraph } from './big_graph.mjs';
import {
  clickExport, field, nodeReference, openFiles, repo, screenshot, startPageSession,
} from './page_helpers.mjs';

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

// A heartbeat on the main thread (the longest gap between ticks) that also samples the
// progress bar on every tick.
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
    return { maxGap, ticks: samples.length, distinctInside: new Set(inside).size };
  });
}

// Waits until the page is busy with `phase` ("Reading", "Writing") and has moved: a value on
// the bar, or (text output, whose size is not known in advance) bytes written in the label.
async function waitForProgress(page, phase) {
  await page.waitForFunction((text) => {
    const bar = document.getElementById('progress');
    const label = document.getElementById('activity-label').textContent;
    const detail = document.getElementById('activity-detail').textContent;
    return window.graphportPage.busy && label.startsWith(text) &&
      ((bar.hasAttribute('value') && bar.value > 0) || /[1-9].* written/.test(detail));
  }, phase, { timeout: 30000, polling: 10 });
}

test(`a ${MIB} MiB GraphDef loads and exports in the worker; the page stays responsive`, async (t) => {
  const page = await session.newPage();
  await startHeartbeat(page);
  const before = await page.evaluate(() => window.graphportPage.settled);
  await page.setInputFiles('#file-input', big);
  await waitForProgress(page, 'Reading');
  await screenshot(page, 'large-loading');
  await page.waitForFunction((n) => window.graphportPage.settled > n, before, { timeout: 60000 });
  const load = await heartbeat(page);
  t.diagnostic(`load: longest main-thread gap ${load.maxGap.toFixed(0)} ms`);
  assert.ok(load.maxGap < 500, `the main thread stalled ${load.maxGap.toFixed(0)} ms during the load`);
  assert.ok(load.distinctInside >= 2,
    `the progress bar took ${load.distinctInside} distinct values between 0 and max during the load`);

  const { summary } = await nodeReference(big);
  assert.equal(await field(page, 'nodes'), summary.nodeCount.toLocaleString('en-US'));
  assert.equal(await field(page, 'format'), 'GraphDef');

  await startHeartbeat(page);
  await page.click('label:has(input[name="opt-to"][value="graph-def"])');
  await clickExport(page);
  const exported = await heartbeat(page);
  t.diagnostic(`export: longest main-thread gap ${exported.maxGap.toFixed(0)} ms`);
  assert.ok(exported.maxGap < 500, `the main thread stalled ${exported.maxGap.toFixed(0)} ms during the export`);
  assert.match(await page.textContent('#outputs'), /graph\.pb/);
  const size = await page.evaluate(() => document.querySelector('#outputs td.num').textContent);
  assert.match(size, /MB$/);
  await screenshot(page, 'large-exported');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('Cancel stops a load, and an export; the page stays usable', async () => {
  const page = await session.newPage();
  const sample = join(repo, 'web/samples/half_plus_two.pbtxt');

  // Cancel during a load.
  await page.setInputFiles('#file-input', big);
  await waitForProgress(page, 'Reading');
  await page.click('#cancel');
  await page.waitForSelector('#cancelled');
  assert.match(await page.textContent('#cancelled'), /cancelled; nothing is loaded/);
  assert.equal(await page.evaluate(() => window.graphportPage.busy), null);
  assert.equal(await page.evaluate(() => window.graphportPage.summary), null);
  assert.equal(await page.isVisible('#activity'), false);
  assert.equal(await page.isDisabled('#export-button'), true);
  await screenshot(page, 'large-cancelled');

  // A later small load works (in the fresh worker).
  await openFiles(page, sample);
  assert.equal(await field(page, 'nodes'), '5');

  // Cancel during an export (text format of 110 MiB of weights takes a while), then open
  // the same file again from the notice.
  await openFiles(page, big);
  await page.setChecked('#opt-asText', true);
  await page.click('#export-button');
  await waitForProgress(page, 'Writing');
  await page.click('#cancel');
  await page.waitForSelector('#cancelled');
  assert.match(await page.textContent('#cancelled'), /export was cancelled/);
  const before = await page.evaluate(() => window.graphportPage.settled);
  await page.click('#cancelled button');
  await page.waitForFunction((n) => window.graphportPage.settled > n, before, { timeout: 60000 });
  assert.equal(await field(page, 'file'), 'weights.pb');
  assert.deepEqual(page.errors, []);
  await page.close();
});

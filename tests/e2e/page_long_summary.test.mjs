// A MegEngine model with more operators than its summary lists (inspect() holds the first
// 100): the page's operator table counts all of them, pages past the summary's first ones by
// asking the worker (model.summaryPage), and filters in the core, in Chromium.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import createGraphport from '../../bindings/js/node.mjs';
import { immutableTensorRegistration, longMgeModel } from '../js/mge_test_models.mjs';
import { corpus, openFiles, requireCorpus, screenshot, startPageSession } from './page_helpers.mjs';

const COUNT = 250;
const ROWS = '#summary table.mge-operators tr[data-operator]';
let session;
let temp;
let path;

before(async () => {
  requireCorpus();
  const gp = await createGraphport();
  const readBytes = (p) => new Uint8Array(readFileSync(p));
  temp = mkdtempSync(join(tmpdir(), 'graphport-long-summary-'));
  path = join(temp, 'long.mge');
  writeFileSync(path, longMgeModel(immutableTensorRegistration(gp, readBytes, corpus), COUNT));
  session = await startPageSession();
});

after(async () => {
  await session?.close();
  if (temp) rmSync(temp, { recursive: true, force: true });
});

const shownIndexes = (page) => page.$$eval(ROWS, (trs) => trs.map((tr) => Number(tr.dataset.operator)));
const status = (page) => page.textContent('#summary .paged .pager-status');

for (const width of [1366, 420]) {
  test(`at ${width} px: ${COUNT} operators paged through the worker past the summary's 100`, async () => {
    const page = await session.newPage();
    await page.setViewportSize({ width, height: 900 });
    await openFiles(page, path);
    const summary = await page.evaluate(() => window.graphportPage.summary);
    assert.equal(summary.megengine.operators.length, 100);
    assert.equal(summary.megengine.operatorCount, COUNT);
    assert.equal(await page.textContent('#summary [data-tab="operators"] .count'), String(COUNT));
    assert.equal(await status(page), `1–12 of ${COUNT} operators`);
    assert.deepEqual(await shownIndexes(page), [...Array(12).keys()]);

    // Page 9 holds operators 96-107: the summary's last four and the first eight it lacks.
    for (let k = 0; k < 8; ++k) await page.click('#summary .paged .pager button:last-child');
    await page.waitForFunction((sel) => document.querySelectorAll(sel).length === 12 &&
      document.querySelector(sel)?.dataset.operator === '96', ROWS);
    assert.deepEqual(await shownIndexes(page), Array.from({ length: 12 }, (_, i) => 96 + i));
    assert.equal(await status(page), `97–108 of ${COUNT} operators`);
    const names = await page.$$eval(ROWS, (trs) => trs.map((tr) => tr.children[2].textContent));
    assert.deepEqual(names, Array.from({ length: 12 }, (_, i) => `holder${96 + i}`));

    // The filter runs in the core over all 250: holder24 and holder240-249.
    await page.fill('#summary .paged input.filter', 'Holder24');
    await page.waitForFunction((sel) => document.querySelectorAll(sel).length === 11, ROWS);
    assert.deepEqual(await shownIndexes(page), [24, ...Array.from({ length: 10 }, (_, i) => 240 + i)]);
    assert.equal(await status(page), '11 operators');
    await page.fill('#summary .paged input.filter', 'no such operator');
    await page.waitForSelector('#summary .paged .empty');
    assert.match(await page.textContent('#summary .paged .empty'), /No operators match/);
    await screenshot(page, `long-summary-${width}`);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
}

// The page's layout at 1366 and 420 px wide: nothing wider than the window, the export
// results whole (names broken at their slashes, every Download button on screen), "What was
// exported" readable in the one scroll area, "Export this scope" bringing the field and its
// plan into view. Each state is also saved as a screenshot (test-results/screenshots/).
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';

import { clickExport, corpusFile, openFiles, requireCorpus, screenshot, startPageSession } from './page_helpers.mjs';

let session;
let temp;

before(async () => {
  requireCorpus();
  temp = mkdtempSync(join(tmpdir(), 'graphport-layout-'));
  session = await startPageSession();
});

after(async () => {
  await session?.close();
  if (temp) rmSync(temp, { recursive: true, force: true });
});

// Elements wider than the window or reaching past its right edge (none, when the page fits).
function overflowing(page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out = [];
    if (document.documentElement.scrollWidth > width) out.push(`the page scrolls sideways (${document.documentElement.scrollWidth} > ${width})`);
    for (const el of document.querySelectorAll('#result-panel a.button, #result-panel code, .option, .summary, #open-message > *')) {
      const box = el.getBoundingClientRect();
      if (box.width > 0 && box.right > width + 0.5) out.push(`${el.tagName}.${el.className} "${el.textContent.slice(0, 40)}" ends at ${box.right.toFixed(0)}`);
    }
    return out;
  });
}

// How many lines each output name takes: a name broken every two letters takes many.
function nameLines(page) {
  return page.$$eval('#outputs td.name code', (codes) => codes.map((c) => {
    const lineHeight = parseFloat(getComputedStyle(c).lineHeight) || 18;
    return { name: c.textContent, lines: Math.round(c.getBoundingClientRect().height / lineHeight) };
  }));
}

for (const width of [1366, 420]) {
  test(`at ${width} px: a SavedModel folder's export results fit, and "What was exported" reads whole`, async () => {
    const folder = join(temp, `folder_${width}`);
    mkdirSync(folder);
    cpSync(dirname(corpusFile('savedModel')), join(folder, '00000123'), { recursive: true });
    const page = await session.newPage();
    await page.setViewportSize({ width, height: 800 });
    await openFiles(page, folder, '#folder-input');
    await page.click('label:has(input[name="opt-to"][value="saved-model"])');
    await clickExport(page);
    assert.deepEqual(await overflowing(page), []);
    for (const { name, lines } of await nameLines(page)) assert.ok(lines <= 2, `${name} takes ${lines} lines`);
    // Every Download button can be brought on screen whole.
    for (const link of await page.$$('#result-panel a.button')) {
      await link.scrollIntoViewIfNeeded();
      const box = await link.boundingBox();
      assert.ok(box.x >= 0 && box.x + box.width <= width, `a Download button at ${box.x}..${box.x + box.width}`);
    }
    // The footer's export preview settles first: it changes the scroll area's height.
    await page.waitForFunction(() => !document.querySelector('#export-preview[aria-busy]'), null, { timeout: 60000 });
    await page.click('.export-info summary');
    await page.waitForTimeout(100);
    // The info list's last row is visible inside the export column after the toggle.
    const last = page.locator('.export-info dd').last();
    assert.equal(await last.isVisible(), true);
    const place = await page.evaluate(() => {
      const dd = [...document.querySelectorAll('.export-info dd')].pop().getBoundingClientRect();
      const scroll = document.getElementById('export-scroll').getBoundingClientRect();
      return { top: dd.top, bottom: dd.bottom, visibleBottom: Math.min(scroll.bottom, window.innerHeight) };
    });
    assert.ok(place.bottom <= place.visibleBottom + 1 && place.top >= 0, JSON.stringify(place));
    await screenshot(page, `export-results-${width}`);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test(`at ${width} px: "Export this scope" fills the field, brings it into view with its plan`, async () => {
    const page = await session.newPage();
    await page.setViewportSize({ width, height: 800 });
    await openFiles(page, corpusFile('meta'));
    await page.click('[data-tab="scopes"]');
    await page.click('button[data-scope="save"]');
    assert.equal(await page.inputValue('#opt-exportScope'), 'save');
    const plan = page.locator('[data-option="exportScope"] .option-plan');
    assert.match(await plan.textContent(), /exports the \d+ nodes in scope “save”/);
    assert.equal(await page.evaluate(() => {
      const field = document.querySelector('#opt-exportScope').getBoundingClientRect();
      const note = document.querySelector('[data-option="exportScope"] .option-plan').getBoundingClientRect();
      return field.top >= 0 && note.bottom <= window.innerHeight;
    }), true);
    assert.deepEqual(await overflowing(page), []);
    await screenshot(page, `export-this-scope-${width}`);
    await page.close();
  });

  test(`at ${width} px: the messages for random bytes, an OpList and a Keras layers model fit`, async () => {
    const random = join(temp, 'random.bin');
    writeFileSync(random, Buffer.from([0xde, 0xad, 0xbe, 0xef, 0x12, 0x99, 0x77, 0x01, 0xff, 0xfe]));
    const ops = join(temp, 'ops.pbtxt');
    writeFileSync(ops, 'op {\n  name: "Foo"\n}\n');
    const layers = join(temp, 'model.json');
    writeFileSync(layers, JSON.stringify({ format: 'layers-model', modelTopology: { class_name: 'Sequential', config: {} }, weightsManifest: [] }));
    const page = await session.newPage();
    await page.setViewportSize({ width, height: 800 });
    for (const [name, path, title] of [['random-bytes', random, /This is not a protobuf/],
      ['oplist', ops, /This is an OpList/], ['layers-model', layers, /This TensorFlow\.js input is not supported/]]) {
      await openFiles(page, path);
      assert.match(await page.textContent('#open-message'), title);
      assert.deepEqual(await overflowing(page), []);
      await page.locator('#open-message').scrollIntoViewIfNeeded();
      await screenshot(page, `${name}-${width}`);
    }
    await page.close();
  });

  test(`at ${width} px: a file option with no file shows no "remove"`, async () => {
    const page = await session.newPage();
    await page.setViewportSize({ width, height: 800 });
    await openFiles(page, corpusFile('meta'));
    assert.deepEqual(await page.$$eval('[data-remove]', (els) => els.filter((el) => el.offsetParent !== null).map((el) => el.dataset.remove)), []);
    await page.locator('[data-option="opRegistry"]').scrollIntoViewIfNeeded();
    assert.deepEqual(await overflowing(page), []);
    await screenshot(page, `file-options-${width}`);
    await page.close();
  });
}

// Issue 35, keyboard and names: axe-core (the devDependency) finds no serious or critical
// violation in the page's states; the summary's tabs follow the ARIA tabs pattern (arrow keys,
// Home, End, a tabpanel named by its tab); keyboard focus on the file pickers shows; each
// picker, the progress bar and each "Export this scope" button has a name of its own; and at
// 420 px the progress strip fits, Cancel on screen, while a 60 MiB graph loads, and Export
// stays on screen beside the options.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';

import { writeBigGraph } from './big_graph.mjs';
import { clickExport, corpusFile, openFiles, requireCorpus, screenshot, startPageSession } from './page_helpers.mjs';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let session;
let temp;

before(async () => {
  requireCorpus();
  temp = mkdtempSync(join(tmpdir(), 'graphport-a11y-'));
  session = await startPageSession();
});

after(async () => {
  await session?.close();
  if (temp) rmSync(temp, { recursive: true, force: true });
});

// axe-core's serious and critical violations of the page as it is, as "rule: targets".
async function seriousViolations(page) {
  if (!(await page.evaluate(() => Boolean(window.axe)))) await page.addScriptTag({ content: AXE });
  const violations = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] }))
    .violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`));
  return violations;
}

for (const width of [1366, 420]) {
  test(`at ${width} px: no serious or critical axe-core violation in any state of the page`, async () => {
    const page = await session.newPage();
    await page.setViewportSize({ width, height: 900 });
    const states = {};
    states.start = await seriousViolations(page);
    await openFiles(page, corpusFile('meta'));
    states['MetaGraphDef'] = await seriousViolations(page);
    await page.click('#summary [data-tab="scopes"]');
    states['MetaGraphDef, scopes'] = await seriousViolations(page);
    await clickExport(page);
    states['MetaGraphDef, exported'] = await seriousViolations(page);
    const folder = join(temp, `saved_model_${width}`);
    mkdirSync(folder);
    cpSync(dirname(corpusFile('savedModel')), join(folder, '00000123'), { recursive: true });
    await openFiles(page, folder, '#folder-input');
    await page.click('#summary [data-tab="variables"]');
    states['SavedModel folder, variables'] = await seriousViolations(page);
    await openFiles(page, [corpusFile('tfjsModel'), corpusFile('tfjsShard')]);
    states['TF.js model'] = await seriousViolations(page);
    await openFiles(page, corpusFile('mge'));
    states['MegEngine'] = await seriousViolations(page);
    await openFiles(page, corpusFile('keras'));
    states['an error'] = await seriousViolations(page);
    for (const [state, violations] of Object.entries(states)) assert.deepEqual(violations, [], state);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
}

test('the summary\'s tabs: arrow keys, Home and End move and pick; the panel is named by its tab', async () => {
  const page = await session.newPage();
  await openFiles(page, corpusFile('meta'));
  const tabs = await page.$$eval('#summary [role="tab"]', (ts) => ts.map((t) => t.dataset.tab));
  assert.ok(tabs.length >= 3, tabs.join());
  const state = () => page.evaluate(() => {
    const selected = document.querySelector('#summary [role="tab"][aria-selected="true"]');
    const panel = document.getElementById(selected.getAttribute('aria-controls'));
    return {
      selected: selected.dataset.tab,
      focused: document.activeElement === selected,
      tabStops: [...document.querySelectorAll('#summary [role="tab"]')].filter((t) => t.tabIndex === 0).length,
      panelRole: panel.getAttribute('role'),
      panelNamedBy: panel.getAttribute('aria-labelledby') === selected.id,
    };
  });
  await page.focus('#summary [role="tab"][aria-selected="true"]');
  await page.keyboard.press('ArrowRight');
  assert.deepEqual(await state(), { selected: tabs[1], focused: true, tabStops: 1, panelRole: 'tabpanel', panelNamedBy: true });
  await page.keyboard.press('End');
  assert.equal((await state()).selected, tabs[tabs.length - 1]);
  await page.keyboard.press('ArrowRight');
  assert.equal((await state()).selected, tabs[0], 'ArrowRight wraps to the first tab');
  await page.keyboard.press('ArrowLeft');
  assert.equal((await state()).selected, tabs[tabs.length - 1], 'ArrowLeft wraps to the last tab');
  await page.keyboard.press('Home');
  assert.deepEqual(await state(), { selected: tabs[0], focused: true, tabStops: 1, panelRole: 'tabpanel', panelNamedBy: true });
  await page.close();
});

test('keyboard focus shows on the file pickers; pickers, progress and scope buttons have names of their own', async () => {
  const page = await session.newPage();
  // Tab from the top of the page reaches "Choose files…" (its input is hidden for looks).
  for (let i = 0; i < 10 && !(await page.evaluate(() => document.activeElement?.id === 'file-input')); i += 1) {
    await page.keyboard.press('Tab');
  }
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'file-input');
  const outline = await page.$eval('label[for="file-input"]', (l) => getComputedStyle(l).outlineStyle);
  assert.notEqual(outline, 'none', 'the focused picker shows no focus ring');
  await screenshot(page, 'focus-choose-files');

  await openFiles(page, corpusFile('meta'));
  const pickers = await page.$$eval('#export-panel input[type="file"], form input[type="file"]', (inputs) =>
    [...new Set(inputs)].map((i) => i.getAttribute('aria-label') ?? i.labels?.[0]?.textContent));
  assert.ok(pickers.length >= 4, pickers.join(' | '));
  assert.equal(new Set(pickers).size, pickers.length, `pickers share a name: ${pickers.join(' | ')}`);
  assert.equal(await page.getAttribute('#progress', 'aria-labelledby'), 'activity-label');
  await page.click('#summary [data-tab="scopes"]');
  const scopes = await page.$$eval('#summary button[data-scope]', (bs) => bs.map((b) => [b.dataset.scope, b.getAttribute('aria-label')]));
  assert.ok(scopes.length > 0);
  for (const [scope, name] of scopes) assert.equal(name, `Export this scope: ${scope}`);
  await page.close();
});

test('at 420 px, while a 60 MiB graph loads, the progress strip fits and Cancel is on screen', async () => {
  const big = join(temp, 'weights.pb');
  writeBigGraph(big, 60);
  const page = await session.newPage();
  await page.setViewportSize({ width: 420, height: 800 });
  await page.setInputFiles('#file-input', big);
  // The strip is measured while the load runs (busy 'load' says it still did), shot after.
  await page.waitForSelector('#activity:not([hidden])', { timeout: 30000 });
  const seen = await page.evaluate(() => {
    const box = (el) => el.getBoundingClientRect();
    const cancel = box(document.getElementById('cancel'));
    return {
      width: document.documentElement.clientWidth,
      scrollWidth: document.documentElement.scrollWidth,
      activityRight: box(document.getElementById('activity')).right,
      cancel: [cancel.left, cancel.right, cancel.top, cancel.bottom],
      busy: window.graphportPage.busy,
    };
  });
  await screenshot(page, 'progress-420');  // the load may have ended by now
  assert.equal(seen.busy, 'load', 'the load ended before the strip was measured');
  assert.ok(seen.scrollWidth <= seen.width, `the page scrolls sideways: ${seen.scrollWidth} > ${seen.width}`);
  assert.ok(seen.activityRight <= seen.width, `the strip ends at ${seen.activityRight}`);
  assert.ok(seen.cancel[0] >= 0 && seen.cancel[1] <= seen.width && seen.cancel[3] <= 800, `Cancel at ${seen.cancel}`);
  await page.waitForFunction(() => window.graphportPage.busy === null, null, { timeout: 120000 });
  await page.close();
});

test('at 420 px, Export stays on screen beside "Write as" (the plan and button stick to the bottom)', async () => {
  const page = await session.newPage();
  await page.setViewportSize({ width: 420, height: 800 });
  await openFiles(page, corpusFile('meta'));
  await page.locator('input[name="opt-to"]').first().scrollIntoViewIfNeeded();
  const seen = await page.evaluate(() => {
    const button = document.getElementById('export-button').getBoundingClientRect();
    const writeAs = document.querySelector('input[name="opt-to"]').getBoundingClientRect();
    return { button: [button.top, button.bottom], writeAs: writeAs.top, height: innerHeight };
  });
  assert.ok(seen.writeAs >= 0 && seen.writeAs < seen.height, `"Write as" at ${seen.writeAs}`);
  assert.ok(seen.button[0] >= 0 && seen.button[1] <= seen.height, `Export at ${seen.button} of ${seen.height}`);
  await screenshot(page, 'export-sticky-420');
  await page.close();
});

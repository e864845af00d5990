// The page (web/) in Chromium: open each kind of corpus file through the file input, check the
// summary against the Node API's inspect(), set export options, export, download, and compare
// the bytes with the Node API's export of the same file with the same options.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { unzipSync } from 'fflate';

import { startServer } from '../../scripts/serve.mjs';
import {
  assertSameBytes, clickExport, corpusFile, download, field, nodeReference, openFiles, repo,
  requireCorpus, screenshot, startPageSession,
} from './page_helpers.mjs';

let session;
let temp;

before(async () => {
  requireCorpus();
  temp = mkdtempSync(join(tmpdir(), 'graphport-page-'));
  session = await startPageSession();
});

after(async () => {
  await session?.close();
  if (temp) rmSync(temp, { recursive: true, force: true });
});

async function setOptions(page, options) {
  for (const [key, value] of Object.entries(options)) {
    if (key === 'to') await page.click(`label:has(input[name="opt-to"][value="${value}"])`);
    else if (typeof value === 'boolean') await page.setChecked(`#opt-${key}`, value);
    else if (typeof value === 'string') await page.fill(`#opt-${key}`, value);
    else throw new Error(`setOptions: ${key}`);
  }
}

async function checkSummary(page, path, format) {
  const { summary } = await nodeReference(path);
  assert.equal(summary.format, format);
  assert.equal(await page.getAttribute('#summary [data-field="format"]', 'title'), format);
  assert.equal(await field(page, 'nodes'), summary.nodeCount.toLocaleString('en-US'));
  assert.equal(await field(page, 'encoding'), summary.encoding);
  assert.equal(await field(page, 'detection'), summary.detection);
  assert.equal(await field(page, 'op-types'), String(Object.keys(summary.ops).length));
  const pageSummary = await page.evaluate(() => window.graphportPage.summary);
  assert.deepEqual(pageSummary, summary);
  return summary;
}

async function exportAndCompare(page, path, options, { zip = false } = {}) {
  await clickExport(page);
  assert.equal(await page.locator('#result-panel .error').count(), 0,
    await page.textContent('#result-panel'));
  const { out } = await nodeReference(path, { to: 'meta-graph', ...options });
  const names = await page.$$eval('#outputs [data-download]', (links) => links.map((a) => a.dataset.download));
  assert.deepEqual(names, out.files.map((f) => f.name));
  for (let i = 0; i < out.files.length; i += 1) {
    const got = await download(page, `#download-${i}`);
    assert.equal(got.name, out.files[i].name);
    assertSameBytes(got.bytes, out.files[i].bytes, out.files[i].name);
  }
  if (zip) {
    const got = await download(page, '#download-zip');
    assert.match(got.name, /\.zip$/);
    const entries = unzipSync(got.bytes);
    assert.deepEqual(Object.keys(entries).sort(), out.files.map((f) => f.name).sort());
    for (const f of out.files) assertSameBytes(entries[f.name], f.bytes, `${got.name}:${f.name}`);
  } else {
    assert.equal(await page.locator('#download-zip').count(), out.files.length > 1 ? 1 : 0);
  }
  return out;
}

test('a MetaGraphDef: summary, then asText + clearDevices + exportScope "save"', async () => {
  const page = await session.newPage();
  const path = corpusFile('meta');
  await openFiles(page, path);
  const summary = await checkSummary(page, path, 'meta-graph');
  assert.equal(await field(page, 'collections'), String(summary.collections.length));
  assert.match(await field(page, 'producer'), /graph producer 19 .* TensorFlow 0\.12\.head/);
  await screenshot(page, 'meta-graph-loaded');
  // Only a SavedModel has a Meta graphs tab. The scope comes from the Scopes tab, with its
  // node count.
  assert.equal(await page.locator('[data-tab="meta-graphs"]').count(), 0);
  await page.click('[data-tab="scopes"]');
  const rows = await page.$$eval('#summary table.grid tr', (trs) => trs.slice(1).map((tr) => tr.cells[0].textContent));
  assert.deepEqual(rows, summary.scopes.slice(0, rows.length).map((s) => s.name));
  await screenshot(page, 'meta-graph-scopes');
  await page.click('button[data-scope="save"]');
  assert.equal(await page.inputValue('#opt-exportScope'), 'save');
  const saveCount = summary.scopes.find((s) => s.name === 'save').nodeCount;
  assert.match(await page.textContent('#plan'), new RegExp(`exports the ${saveCount} nodes in scope “save”`));
  await setOptions(page, { asText: true, clearDevices: true });
  assert.match(await page.textContent('#plan'), /model\.pbtxt/);
  await exportAndCompare(page, path, { asText: true, clearDevices: true, exportScope: 'save' });
  await page.click('.export-info summary');
  await screenshot(page, 'meta-graph-exported');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a MetaGraphDef: chosen collections, and none', async () => {
  const page = await session.newPage();
  const path = corpusFile('meta');
  await openFiles(page, path);
  await page.click('label:has(input[name="collection-mode"][value="choose"])');
  // Everything ticked at first: untick all but two.
  for (const name of ['asset_filepaths', 'serving_assets', 'serving_graph', 'serving_init_op', 'serving_signatures']) {
    await page.setChecked(`#opt-collectionList input[value="${name}"]`, false);
  }
  await exportAndCompare(page, path, { collectionList: ['trainable_variables', 'variables'] });
  await page.click('#opt-collectionList button:has-text("tick none")');
  assert.match(await page.textContent('#plan'), /none is exported \(collection_list=\[\]\)/);
  await exportAndCompare(page, path, { collectionList: [] });
  await page.close();
});

test('a SavedModel: signatures and meta graphs, then stripDefaultAttrs to a SavedModel', async () => {
  const page = await session.newPage();
  const path = corpusFile('savedModel');
  await openFiles(page, path);
  const summary = await checkSummary(page, path, 'saved-model');
  assert.equal(await field(page, 'signatures'), String(summary.signatures.length));
  await page.click('[data-tab="signatures"]');
  assert.match(await page.textContent('.tab-body'), /classify_x2_to_y3/);
  assert.match(await page.textContent('.tab-body'), /float/);
  await page.click('[data-tab="meta-graphs"]');
  assert.match(await page.textContent('.tab-body'), /serve/);
  await page.click('[data-tab="functions"]');
  assert.match(await page.textContent('.tab-body'), /__inference_predict_235/);
  await setOptions(page, { to: 'saved-model', stripDefaultAttrs: true });
  await exportAndCompare(page, path, { to: 'saved-model', stripDefaultAttrs: true });
  // A tag set the SavedModel does not have: the error lists the ones it has.
  await page.click('#read-options summary');
  await page.fill('#read-tags', 'train');
  const before = await page.evaluate(() => window.graphportPage.settled);
  await page.click('#reload');
  await page.waitForFunction((n) => window.graphportPage.settled > n, before);
  const error = await page.textContent('#open-message .error');
  assert.match(error, /NOT_FOUND/);
  assert.match(error, /no MetaGraphDef has the tags \[train\]; the SavedModel has \[serve\]/);
  assert.match(error, /SavedModel tags/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a GraphDef: to GraphDef with debug info, two downloads and a zip', async () => {
  const page = await session.newPage();
  const path = corpusFile('graphDef');
  await openFiles(page, path);
  await checkSummary(page, path, 'graph-def');
  await setOptions(page, { to: 'graph-def', saveDebugInfo: true, filename: 'frozen.pb' });
  assert.match(await page.textContent('#plan'), /frozen_debug\.pb/);
  await exportAndCompare(page, path, { to: 'graph-def', saveDebugInfo: true, filename: 'frozen.pb' },
    { zip: true });
  await page.click('.export-info summary');
  await screenshot(page, 'graph-def-exported-zip');
  await page.close();
});

test('a text SavedModel written by the Node API, exported to binary', async () => {
  const source = corpusFile('savedModel');
  const { out } = await nodeReference(source, { to: 'saved-model', asText: true });
  const path = join(temp, out.files[0].name);
  writeFileSync(path, out.files[0].bytes);
  const page = await session.newPage();
  await openFiles(page, path);
  await checkSummary(page, path, 'saved-model');
  assert.equal(await field(page, 'encoding'), 'text');
  await setOptions(page, { clearDevices: true });
  await exportAndCompare(page, path, { clearDevices: true });
  await page.close();
});

test('the sample button and the sample through the file input give the same summary', async () => {
  const page = await session.newPage();
  const before = await page.evaluate(() => window.graphportPage.settled);
  await page.click('#sample');
  await page.waitForFunction((n) => window.graphportPage.settled > n, before);
  const path = join(repo, 'web/samples/half_plus_two.pbtxt');
  await checkSummary(page, path, 'meta-graph');
  await screenshot(page, 'sample-loaded');
  await setOptions(page, { asText: true, stripDefaultAttrs: true });
  await exportAndCompare(page, path, { asText: true, stripDefaultAttrs: true });
  await openFiles(page, path);
  await checkSummary(page, path, 'meta-graph');
  await page.close();
});

test('invalid combinations are explained before export; a scope that matches nothing is warned of, then refused', async () => {
  const page = await session.newPage();
  await openFiles(page, corpusFile('meta'));
  await setOptions(page, { exportScope: '/save' });
  assert.equal(await page.isDisabled('#export-button'), true);
  assert.match(await page.textContent('#plan'), /starts with “\/”/);
  await setOptions(page, { exportScope: 'my scope' });
  assert.match(await page.textContent('#plan'), /has a space/);
  await setOptions(page, { exportScope: 'save', filename: 'out/model.meta' });
  assert.match(await page.textContent('#plan'), /is a path/);
  assert.equal(await page.isDisabled('#export-button'), true);
  await screenshot(page, 'invalid-options');
  await setOptions(page, { filename: '', asText: false, exportScope: 'nowhere', to: 'graph-def' });
  assert.equal(await page.isDisabled('#export-button'), false);
  assert.match(await page.textContent('#plan'), /collections will not be written/);
  assert.match(await page.textContent('#plan'), /no node name starts with “nowhere\/”/);
  await screenshot(page, 'scope-warning');
  // The scopes are offered as suggestions.
  const offered = await page.$$eval('#suggest-scopes option', (options) => options.map((o) => o.value));
  assert.ok(offered.includes('save'), offered.join());
  assert.equal(await page.getAttribute('#opt-exportScope', 'list'), 'suggest-scopes');
  await clickExport(page);
  const error = await page.textContent('#result-panel .error');
  assert.match(error, /NOT_FOUND/);
  assert.match(error, /nowhere/);
  assert.match(error, /What to try/);
  // The model is still loaded: a valid export works right after.
  await setOptions(page, { exportScope: 'save' });
  await exportAndCompare(page, corpusFile('meta'), { to: 'graph-def', exportScope: 'save' });
  await page.close();
});

test('keras_metadata.pb is refused with a clear error', async () => {
  const page = await session.newPage();
  await openFiles(page, corpusFile('keras'));
  const text = await page.textContent('#open-message .error');
  assert.match(text, /not a graph format graphport reads/);
  assert.match(text, /UNKNOWN_FORMAT/);
  assert.match(text, /keras_metadata\.pb/);
  assert.match(text, /not a SavedModel: .* not a MetaGraphDef: .* not a GraphDef/);
  assert.match(text, /Whereas SavedModel: byte 0 · as MetaGraphDef: byte 5 · as GraphDef: byte 29/);
  assert.match(text, /What to try/);
  assert.equal(await page.isVisible('#summary-panel'), false);
  assert.equal(await page.isDisabled('#export-button'), true);
  await screenshot(page, 'keras-metadata-error');
  await page.close();
});

test('damaged files: the error names the byte offset or the line and column', async () => {
  const meta = readFileSync(corpusFile('meta'));
  const truncated = join(temp, 'truncated.meta');
  writeFileSync(truncated, meta.subarray(0, 6000));
  const sample = readFileSync(join(repo, 'web/samples/half_plus_two.pbtxt'), 'utf8');
  const broken = join(temp, 'broken.pbtxt');
  writeFileSync(broken, sample.replace('op: "Mul"', 'op: "Mul" bogus {'));
  const page = await session.newPage();
  await openFiles(page, truncated);
  let text = await page.textContent('#open-message .error');
  assert.match(text, /damaged or not what it seems/);
  assert.match(text, /PARSE_ERROR/);
  assert.match(text, /Wherebyte offset 1,283/);
  await openFiles(page, broken);
  text = await page.textContent('#open-message .error');
  assert.match(text, /PARSE_ERROR/);
  assert.match(text, /Whereline 37, column 21/);
  assert.match(text, /no field named "bogus"/);
  await screenshot(page, 'text-parse-error');
  await page.close();
});

test('TensorFlow.js and MegEngine models are reported as not supported yet', async () => {
  const page = await session.newPage();
  await openFiles(page, [corpusFile('tfjsModel'), corpusFile('tfjsShard')]);
  assert.match(await page.textContent('#open-message'), /TensorFlow\.js graph models are not supported yet/);
  await screenshot(page, 'tfjs-not-supported');
  await openFiles(page, corpusFile('tfjsModel'));
  assert.match(await page.textContent('#open-message'), /TensorFlow\.js graph models are not supported yet/);
  await openFiles(page, corpusFile('mge'));
  assert.match(await page.textContent('#open-message'), /MegEngine models are not supported yet/);
  await page.close();
});

test('a SavedModel folder opens its saved_model.pb; several graphs ask which', async () => {
  const dir = join(temp, 'half_plus_two', '00000123');
  mkdirSync(join(dir, 'variables'), { recursive: true });
  copyFileSync(corpusFile('savedModel'), join(dir, 'saved_model.pb'));
  writeFileSync(join(dir, 'variables', 'variables.index'), Buffer.from([0, 1, 2, 3]));
  writeFileSync(join(dir, 'variables', 'variables.data-00000-of-00001'), Buffer.alloc(64));
  writeFileSync(join(dir, 'fingerprint.pb'), Buffer.from([8, 1]));
  const page = await session.newPage();
  await openFiles(page, join(temp, 'half_plus_two'), '#folder-input');
  await checkSummary(page, corpusFile('savedModel'), 'saved-model');
  assert.match(await page.textContent('#summary .note'), /saved_model\.pb/);
  await openFiles(page, [corpusFile('graphDef'), corpusFile('meta')]);
  assert.match(await page.textContent('#choose'), /pick the one that holds the graph/);
  const before = await page.evaluate(() => window.graphportPage.settled);
  await page.click('#choose li:has-text("export.meta") button');
  await page.waitForFunction((n) => window.graphportPage.settled > n, before);
  await checkSummary(page, corpusFile('meta'), 'meta-graph');
  await page.close();
});

test('a file dropped on the page opens', async () => {
  const page = await session.newPage();
  const before = await page.evaluate(() => window.graphportPage.settled);
  await page.evaluate(async () => {
    const text = await (await fetch('samples/half_plus_two.pbtxt')).text();
    const data = new DataTransfer();
    data.items.add(new File([text], 'dropped.pbtxt'));
    document.getElementById('dropzone').dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  });
  await page.waitForFunction((n) => window.graphportPage.settled > n, before);
  assert.equal(await field(page, 'file'), 'dropped.pbtxt');
  await checkSummary(page, join(repo, 'web/samples/half_plus_two.pbtxt'), 'meta-graph');
  await page.close();
});

test('without the WebAssembly build the page says what is wrong and what to do', async () => {
  const empty = mkdtempSync(join(temp, 'no-wasm-'));
  const server = await startServer({ '/': repo, '/bindings/js/wasm/': empty });
  try {
    const page = await session.openUrl(`http://127.0.0.1:${server.address().port}/web/`);
    await page.waitForSelector('#open-message .error', { timeout: 20000 });
    const text = await page.textContent('#open-message .error');
    assert.match(text, /The converter stopped unexpectedly/);
    assert.match(text, /scripts\/build\.sh wasm/);
    assert.equal(await page.getAttribute('#engine', 'data-state'), 'failed');
    // Opening a file then fails with the same explanation instead of waiting forever.
    await openFiles(page, join(repo, 'web/samples/half_plus_two.pbtxt'));
    assert.match(await page.textContent('#open-message .error'), /WORKER/);
    await page.close();
  } finally {
    server.closeAllConnections();
    server.close();
  }
});

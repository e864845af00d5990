// The page (web/) in Chromium: open each kind of corpus file through the file input, check the
// summary against the Node API's inspect(), set export options, export, download, and compare
// the bytes with the Node API's export of the same file with the same options.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, before, test } from 'node:test';

import { unzipSync } from 'fflate';

import { startServer } from '../../scripts/serve.mjs';
import { whereRows } from '../../web/errors_view.mjs';
import {
  assertSameBytes, checkHeader, clickExport, corpusFile, download, field, nodeReference, openFiles,
  repo, requireCorpus, screenshot, startPageSession,
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
  await checkHeader(page, summary);
  assert.equal(await field(page, 'nodes'), summary.nodeCount.toLocaleString('en-US'));
  assert.equal(await field(page, 'ops'), String(Object.keys(summary.ops).length));
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
  assert.match(await page.textContent('[data-tab="collections"]'), new RegExp(`Collections${summary.collections.length}`));
  assert.match(await field(page, 'producer'), /TensorFlow 0\.12\.head, graph producer 19/);
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
  // The plan's word on the scope shows under the field too, and the field is in view.
  assert.match(await page.textContent('[data-option="exportScope"] .option-plan'), /exports the \d+ nodes in scope “save”/);
  assert.equal(await page.evaluate(() => {
    const box = document.querySelector('#opt-exportScope').getBoundingClientRect();
    return box.top >= 0 && box.bottom <= window.innerHeight;
  }), true);
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
  assert.equal(await page.locator('#summary [data-field="folder-files"]').count(), 0, 'one saved_model.pb has no folder');
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
  await page.fill('#load-tags', 'train');
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
  const offered = await page.$$eval('#suggest-exportScope option', (options) => options.map((o) => o.value));
  assert.ok(offered.includes('save'), offered.join());
  assert.equal(await page.getAttribute('#opt-exportScope', 'list'), 'suggest-exportScope');
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

test('keras_metadata.pb is refused: a protobuf with no graph, the core\'s reasons per family', async () => {
  const page = await session.newPage();
  await openFiles(page, corpusFile('keras'));
  const text = await page.textContent('#open-message .error');
  assert.match(text, /This protobuf holds no TensorFlow graph/);
  assert.match(text, /UNKNOWN_FORMAT/);
  assert.match(text, /keras_metadata\.pb/);
  assert.match(text, /not a SavedModel: .* not a MetaGraphDef: .* not a GraphDef/);
  assert.match(text, /MegEngine: .*TensorFlow\.js: /);
  assert.match(text, /What to try/);
  assert.equal(await page.textContent('#open-message [data-where="file"]'), 'keras_metadata.pb');
  assert.equal(await page.isVisible('#summary-panel'), false);
  assert.equal(await page.isDisabled('#export-button'), true);
  await screenshot(page, 'keras-metadata-error');
  await page.close();
});

test('random bytes are "not a protobuf"; an OpList points to the op registry option', async () => {
  const random = join(temp, 'random.bin');
  writeFileSync(random, Buffer.from([0xde, 0xad, 0xbe, 0xef, 0x12, 0x99, 0x77, 0x01, 0xff, 0xfe]));
  const ops = join(temp, 'ops.pbtxt');
  writeFileSync(ops, 'op {\n  name: "Foo"\n  output_arg { name: "y" type: DT_FLOAT }\n}\n');
  const page = await session.newPage();
  await openFiles(page, random);
  let text = await page.textContent('#open-message .error');
  assert.match(text, /This is not a protobuf/);
  assert.doesNotMatch(text, /keras_metadata/);
  await screenshot(page, 'random-bytes-error');
  await openFiles(page, ops);
  text = await page.textContent('#open-message .error');
  assert.match(text, /This is an OpList/);
  const label = await page.textContent('[data-option="opRegistry"] .option-label');
  assert.ok(text.includes(`“${label.trim()}”`), text);
  await screenshot(page, 'oplist-error');
  await page.close();
});

// The rows the error box shows above its details, and the ones the Node API's error fields
// call for (the page reads the fields, not the message).
async function whereShown(page) {
  return page.$$eval('#open-message .error-body dd[data-where]', (dds) => dds.map((dd) => [dd.previousSibling.textContent, dd.textContent]));
}

async function whereExpected(path) {
  const error = await nodeReference(path).then(() => null, (e) => e);
  assert.ok(error, `${path} loaded`);
  return whereRows({ ...error, file: basename(error.file ?? path) });
}

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
  assert.match(text, /at byte 1283/);
  assert.deepEqual(await whereShown(page), await whereExpected(truncated));
  await openFiles(page, broken);
  text = await page.textContent('#open-message .error');
  assert.match(text, /PARSE_ERROR/);
  assert.match(text, /line 37 column 21/);
  assert.match(text, /no field named "bogus"/);
  assert.deepEqual(await whereShown(page), await whereExpected(broken));
  await screenshot(page, 'text-parse-error');
  await page.close();
});

test('several graph files: the core cannot choose, the page offers the ones it named', async () => {
  const page = await session.newPage();
  await openFiles(page, [corpusFile('graphDef'), corpusFile('meta')]);
  assert.match(await page.textContent('#choose'), /cannot tell which one holds the model/);
  assert.deepEqual(await page.$$eval('#choose li code', (codes) => codes.map((c) => c.textContent)),
    ['frozen_graph.pb', 'export.meta']);
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

// MegEngine and TensorFlow.js in the page, in Chromium: both corpus .mge files, an mgbtest0
// container built from them, and the TF.js "simple" folder are dropped in, their summaries checked against inspect() from Node, the
// MegEngine form against its schema, and their exports against model.export() from Node:
// an FBS dump compatible with 8.14 is the original file byte for byte, a TF.js model comes
// back as a SavedModel and as a TF.js folder (a zip). Screenshots at 1366 and 420 px.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { after, before, test } from 'node:test';

import { unzipSync } from 'fflate';

import createGraphport from '../../bindings/js/node.mjs';
import {
  assertSameBytes, checkHeader, clickExport, corpus, download, field, openFiles, requireCorpus,
  screenshot, startPageSession,
} from './page_helpers.mjs';

const MGE_FILES = ['mgeconvert_e4a1261_test_test_model.mge', 'mgeconvert_HEAD_test_mge_convolution-backward-filter.mge']
  .map((name) => join(corpus, 'mge', name));
const TFJS_FOLDER = join(corpus, 'tfjs/tfjs-to-tf/simple');
const WIDTHS = [1366, 420];

let session;
let temp;
let gp;

before(async () => {
  requireCorpus();
  temp = mkdtempSync(join(tmpdir(), 'graphport-mge-tfjs-'));
  session = await startPageSession();
  gp = await createGraphport();
});

after(async () => {
  await session?.close();
  if (temp) rmSync(temp, { recursive: true, force: true });
});

function filesUnder(dir, base = dir) {
  const out = {};
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) Object.assign(out, filesUnder(path, base));
    else out[relative(base, path).split('\\').join('/')] = readFileSync(path);
  }
  return out;
}

// Elements wider than the viewport push the page sideways on a phone.
async function overflowing(page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    return [...document.querySelectorAll('#summary *, #export-form *')]
      .filter((el) => el.offsetParent !== null && el.getBoundingClientRect().right > width + 1)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}`).slice(0, 5);
  });
}

async function tab(page, name) {
  await page.click(`#summary [data-tab="${name}"]`);
}

// "var3" for an unnamed var, as the page and graphport's dumps name it.
const varName = (v) => v.name ?? `var${v.id}`;

function withModel(bytes, name, fn) {
  const model = gp.load(bytes, { name });
  try {
    return fn(model);
  } finally {
    model.delete();
  }
}

for (const path of MGE_FILES) {
  test(`MegEngine ${basename(path)}: the summary is inspect()'s, operators in order with their params by field name`, async () => {
    const bytes = readFileSync(path);
    const summary = withModel(bytes, basename(path), (m) => m.inspect());
    const mge = summary.megengine;
    const page = await session.newPage();
    await openFiles(page, path);
    assert.deepEqual(await page.evaluate(() => window.graphportPage.summary), summary);
    await checkHeader(page, summary);
    assert.match(await field(page, 'mge-header'), new RegExp(`^${mge.header.format} · ${mge.header.magic}`));

    // Operators: the first page, in graph order, type, name, inputs → outputs, params.
    const rows = await page.$$eval('#summary table.mge-operators tr[data-operator]', (trs) => trs.map((tr) => ({
      index: Number(tr.dataset.operator),
      cells: [...tr.children].map((td) => td.textContent),
    })));
    assert.deepEqual(rows.map((r) => r.index), mge.operators.slice(0, 12).map((o) => o.index));
    for (const row of rows) {
      const op = mge.operators[row.index];
      assert.ok(row.cells[1].startsWith(op.type), row.cells[1]);
      assert.equal(row.cells[3], `${op.inputs.map(varName).join(', ') || 'none'} → ${op.outputs.map(varName).join(', ') || 'none'}`);
      for (const param of op.params) {
        for (const [k, v] of Object.entries(param.fields)) {
          const text = typeof v === 'object' ? JSON.stringify(v) : String(v);
          assert.ok(row.cells[4].includes(`${k}=${text}`), `${op.type}: ${k}=${text} in ${row.cells[4]}`);
        }
      }
      for (const t of op.tensors) assert.ok(row.cells[4].includes(t.dtype.dtype), row.cells[4]);
    }
    // Filtering by type, when the list is long enough to have a filter.
    if (mge.operators.length > 12) {
      await page.fill('#summary .paged input.filter', 'immutable');
      const shown = await page.$$eval('#summary table.mge-operators tr[data-operator]', (trs) => trs.length);
      assert.equal(shown, mge.operators.filter((o) => o.type.toLowerCase().includes('immutable')).length);
    }
    await tab(page, 'op-types');
    const bars = await page.$$eval('#summary .bar-row', (rs) => rs.map((r) => [r.querySelector('.bar-name').textContent, r.querySelector('.bar-count').textContent]));
    assert.deepEqual(Object.fromEntries(bars), Object.fromEntries(Object.entries(mge.ops).map(([k, n]) => [k, String(n)])));
    await tab(page, 'dump-info');
    assert.equal(await field(page, 'content-hash'), mge.dumpInfo.content_hash);
    assert.equal(await field(page, 'nr-opr'), String(mge.dumpInfo.nr_opr));
    assert.equal(await field(page, 'dump-inputs'), mge.dumpInfo.inputs.join(', '));
    assert.equal(await field(page, 'dump-outputs'), mge.outputs.map(varName).join(', '));
    await tab(page, 'metadata');
    assert.equal(mge.metadata, null, 'the corpus files were dumped without metadata');
    assert.match(await page.textContent('#summary .tab-body'), /No metadata/);
    // One graph, no test cases: no tabs for them.
    assert.equal(await page.locator('#summary [data-tab="graphs"]').count(), mge.graphs.length > 1 ? 1 : 0);
    assert.equal(await page.locator('#summary [data-tab="test-cases"]').count(), 0);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
}

test('MegEngine: the export form is the schema (groups, seed names, help) with int choices, text and file pickers', async () => {
  const schema = gp.optionSchema('megengine').export;
  const page = await session.newPage();
  await openFiles(page, MGE_FILES[0]);
  const shown = await page.$$eval('#export-form [data-option]', (rows) => rows.map((row) => ({
    name: row.dataset.option,
    group: row.closest('fieldset')?.dataset.group,
    label: row.querySelector('.option-label').textContent.trim(),
    seed: row.querySelector('.seed').textContent.trim(),
    help: row.querySelector('.help').textContent,
  })));
  assert.deepEqual(shown.map((o) => o.name), schema.options.map((o) => o.name));
  for (const option of schema.options) {
    const row = shown.find((o) => o.name === option.name);
    assert.deepEqual([row.group, row.label, row.seed, row.help], [option.group, option.label, option.seed || 'graphport option', option.help], option.name);
  }
  assert.deepEqual(await page.$$eval('#export-form legend', (ls) => ls.map((l) => l.textContent)), schema.groups.map((g) => g.title));
  assert.match(await page.textContent('#export-api'), /megengine\.utils\.network\.Network\.dump/);
  const radios = (name) => page.$$eval(`input[name="opt-${name}"]`, (is) => is.map((i) => [i.value, i.checked]));
  assert.deepEqual(await radios('keepVarName'), [['0', false], ['1', true], ['2', false]]);
  assert.deepEqual(await radios('dumpFormat'), [['FBS', false], ['FBS_V2', true]]);
  assert.equal(await page.getAttribute('#opt-compatOlderVersion', 'type'), 'text');
  assert.equal(await page.getAttribute('#opt-stripInfoFile', 'type'), 'text');
  for (const name of ['append', 'appendJson']) assert.equal(await page.getAttribute(`#opt-${name}`, 'type'), 'file');
  const optimize = schema.options.filter((o) => o.group === 'optimize').map((o) => o.name);
  assert.ok(optimize.length > 5);
  assert.deepEqual(await page.$$eval('fieldset[data-group="optimize"] [data-option]', (rs) => rs.map((r) => r.dataset.option)), optimize);
  // The plan refuses compat_older_version without FBS before the export runs.
  await page.fill('#opt-compatOlderVersion', '8.14');
  assert.equal(await page.isDisabled('#export-button'), true);
  assert.match(await page.textContent('#plan'), /only works when dump_format is FBS/);
  await page.click('label:has(input[name="opt-dumpFormat"][value="FBS"])');
  assert.equal(await page.isDisabled('#export-button'), false);
  await page.click('label:has(input[name="opt-keepVarName"][value="2"])');
  assert.match(await page.textContent('#plan-options'), /keep_var_name=2/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('MegEngine: FBS compatible with 8.14, kept as loaded, is the original file byte for byte; with a strip-info file, a zip of both', async () => {
  const path = MGE_FILES[0];
  const original = readFileSync(path);
  const page = await session.newPage();
  await openFiles(page, path);
  await page.click('label:has(input[name="opt-dumpFormat"][value="FBS"])');
  await page.fill('#opt-compatOlderVersion', '8.14');
  // Network.dump would optimize and add metadata; "Keep as loaded" writes the file as it was.
  await page.setChecked('#opt-asLoaded', true);
  await clickExport(page);
  assert.equal(await page.locator('#result-panel .error').count(), 0, await page.textContent('#result-panel'));
  assert.equal(await page.locator('#download-zip').count(), 0);
  const file = await download(page, '#download-0');
  assert.equal(file.name, 'model.mge');
  assertSameBytes(file.bytes, original, 'FBS, compat 8.14');

  await page.fill('#opt-stripInfoFile', 'strip_info.json');
  await page.fill('#opt-userInfo', 'page2');
  await clickExport(page);
  assert.equal(await page.locator('#result-panel .error').count(), 0, await page.textContent('#result-panel'));
  const expected = withModel(original, basename(path), (m) => m.export({ dumpFormat: 'FBS', compatOlderVersion: '8.14', asLoaded: true, stripInfoFile: 'strip_info.json', userInfo: 'page2' }));
  const zip = await download(page, '#download-zip');
  assert.equal(zip.name, 'model.zip');
  const entries = unzipSync(zip.bytes);
  assert.deepEqual(Object.keys(entries).sort(), ['model.mge', 'strip_info.json']);
  for (const f of expected.files) assertSameBytes(entries[f.name], f.bytes, `zip:${f.name}`);
  // What the page wrote reads back with its user_info.
  const back = withModel(entries['model.mge'], 'model.mge', (m) => m.inspect());
  assert.equal(back.megengine.metadata.userInfo.value, 'page2');
  assert.match(await page.textContent('#result-panel .result-head'), new RegExp(`MegEngine FBS · ${expected.info.nr_opr} operators`));
  await page.click('#result-panel .export-info summary');
  assert.match(await page.textContent('#result-panel .export-info'), new RegExp(expected.info.content_hash));
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    assert.deepEqual(await overflowing(page), []);
    await page.locator('#result-panel').scrollIntoViewIfNeeded();
    await screenshot(page, `mge-exported-${width}`);
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('MegEngine: the default export is optimized as Network.dump does; the result lists the options, the operator counts and what each pass did', async () => {
  const path = MGE_FILES[1];
  const original = readFileSync(path);
  const page = await session.newPage();
  await openFiles(page, path);
  await page.setChecked('#opt-enableFuseConvBiasNonlinearity', true);
  await clickExport(page);
  assert.equal(await page.locator('#result-panel .error').count(), 0, await page.textContent('#result-panel'));
  const expected = withModel(original, basename(path), (m) => m.export({ enableFuseConvBiasNonlinearity: true }));
  const { before, after } = expected.info.optimized.operators;
  await page.click('#result-panel .export-info summary');
  const text = await page.textContent('#result-panel .export-info');
  assert.match(text, /yes \(enable_fuse_conv_bias_nonlinearity, enable_fuse_grain; optimize_options 68\)/);
  assert.ok(text.includes(`operators ${before} → ${after}`), text);
  assert.ok(text.includes('no pass changed the graph'), text);
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    assert.deepEqual(await overflowing(page), []);
    await page.locator('#result-panel').scrollIntoViewIfNeeded();
    await screenshot(page, `mge-optimized-${width}`);
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('MegEngine: a dump appended to another makes a file of two graphs; the page opens the second, with its user_info', async () => {
  const path = MGE_FILES[0];
  const original = readFileSync(path);
  const page = await session.newPage();
  await openFiles(page, path);
  // The page writes the file: the original's bytes, then a new FBS_V2 dump with metadata.
  await page.setInputFiles('#opt-append', path);
  await page.waitForSelector('[data-option="append"] [data-remove]', { state: 'visible' });
  await page.fill('#opt-userInfo', 'two graphs');
  await clickExport(page);
  assert.equal(await page.locator('#result-panel .error').count(), 0, await page.textContent('#result-panel'));
  const written = await download(page, '#download-0');
  const expected = withModel(original, basename(path), (m) => m.export({ append: new Uint8Array(original), userInfo: 'two graphs' }));
  assertSameBytes(written.bytes, expected.files[0].bytes, 'appended dump');
  assertSameBytes(written.bytes.subarray(0, original.length), original, 'the appended-to bytes come first');
  const two = join(temp, 'two.mge');
  writeFileSync(two, written.bytes);

  await openFiles(page, two);
  await tab(page, 'graphs');
  assert.equal(await page.locator('#summary tr[data-graph]').count(), 2);
  const before = await page.evaluate(() => window.graphportPage.settled);
  await page.click('#summary tr[data-graph="1"] button');
  await page.waitForFunction((n) => window.graphportPage.settled > n, before);
  const second = withModel(written.bytes, 'two.mge', (m) => m.inspect());
  assert.equal(second.megengine.graph, 0);
  const reference = gp.load(written.bytes, { name: 'two.mge', graph: 1 });
  try {
    const summary = reference.inspect();
    assert.deepEqual(await page.evaluate(() => window.graphportPage.summary), summary);
    assert.equal(await field(page, 'graph'), '#1 (the 2nd of 2 graphs in the file)');
    await tab(page, 'metadata');
    assert.equal(await field(page, 'user-info'), `"two graphs" (${summary.megengine.metadata.userInfo.size} B pickled)`);
    assert.equal(await field(page, 'is-valid'), 'true');
  } finally {
    reference.delete();
  }
  await screenshot(page, 'mge-two-graphs-metadata');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('TensorFlow.js folder: TensorFlow\'s summary plus the manifest\'s; exported to SavedModel and to tfjs as Node does', async () => {
  const folder = join(temp, 'simple');
  cpSync(TFJS_FOLDER, folder, { recursive: true });
  const given = filesUnder(folder);
  const page = await session.newPage();
  await openFiles(page, folder, '#folder-input');
  const reference = gp.load({ files: given }, { name: 'simple' });
  try {
    const summary = reference.inspect();
    assert.equal(summary.family, 'tfjs');
    assert.deepEqual(await page.evaluate(() => window.graphportPage.summary), summary);
    await checkHeader(page, summary);
    // TensorFlow's part first: the op chart of the graph.
    const ops = await page.$$eval('#summary .bar-name', (ns) => ns.map((n) => n.textContent));
    assert.deepEqual(ops.sort(), Object.keys(summary.ops).sort());
    const { tfjs } = summary;
    assert.equal(await field(page, 'tfjs-format'), tfjs.format);
    assert.equal(await field(page, 'converted-by'), tfjs.convertedBy);
    assert.equal(await field(page, 'generated-by'), tfjs.generatedBy);
    assert.match(await field(page, 'tfjs-weights'), new RegExp(`^${tfjs.weights.length} weights`));
    assert.match(await field(page, 'tfjs-shards'), new RegExp(tfjs.shards[0].path.replace(/\./g, '\\.')));
    const weights = await page.$$eval('#summary table.tfjs-weights tr:not(:first-child)', (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
    assert.deepEqual(weights.map((w) => w.slice(0, 2)), tfjs.weights.map((w) => [w.name, w.dtype]));
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      assert.deepEqual(await overflowing(page), []);
      await page.locator('#tfjs-summary').scrollIntoViewIfNeeded();
      await screenshot(page, `tfjs-summary-${width}`);
    }
    await page.setViewportSize({ width: 1366, height: 900 });

    // To a SavedModel: one file, the graph (a TF.js model has no variables folder).
    await page.click('label:has(input[name="opt-to"][value="saved-model"])');
    await clickExport(page);
    assert.equal(await page.locator('#result-panel .error').count(), 0, await page.textContent('#result-panel'));
    const saved = reference.export({ to: 'saved-model' });
    assert.equal(await page.locator('#download-zip').count(), saved.files.length > 1 ? 1 : 0);
    const pb = await download(page, '#download-0');
    assert.equal(pb.name, saved.files[0].name);
    assertSameBytes(pb.bytes, saved.files[0].bytes, 'saved_model.pb');

    // To TF.js: a folder, so a zip named after model.json.
    await page.click('label:has(input[name="opt-to"][value="tfjs"])');
    assert.match(await page.textContent('#plan'), /model\.json/);
    await clickExport(page);
    assert.equal(await page.locator('#result-panel .error').count(), 0, await page.textContent('#result-panel'));
    const out = reference.export({ to: 'tfjs' });
    const zip = await download(page, '#download-zip');
    assert.equal(zip.name, 'model.zip');
    assert.match(await page.textContent('#download-zip'), /folder/);
    const entries = unzipSync(zip.bytes);
    assert.deepEqual(Object.keys(entries).sort(), out.files.map((f) => f.name).sort());
    for (const f of out.files) assertSameBytes(entries[f.name], f.bytes, `zip:${f.name}`);
    await page.click('#result-panel .export-info summary');
    assert.match(await page.textContent('#result-panel .export-info'), new RegExp(`${out.info.weights} in ${out.info.shards} shard`));
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.locator('#result-panel').scrollIntoViewIfNeeded();
      await screenshot(page, `tfjs-exported-${width}`);
    }
  } finally {
    reference.delete();
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a TensorFlow GraphDef exports to: \'tfjs\' too, and TF.js options are said to need it', async () => {
  const path = join(TFJS_FOLDER, 'frozen_graph.pb');
  const page = await session.newPage();
  await openFiles(page, path);
  await page.click('label:has(input[name="opt-quantize"][value="float16"])');
  assert.match(await page.textContent('#plan'), /used only when writing a TensorFlow\.js model/);
  await page.click('label:has(input[name="opt-to"][value="tfjs"])');
  assert.doesNotMatch(await page.textContent('#plan'), /used only when writing/);
  await clickExport(page);
  assert.equal(await page.locator('#result-panel .error').count(), 0, await page.textContent('#result-panel'));
  const out = withModel(readFileSync(path), 'frozen_graph.pb', (m) => m.export({ to: 'tfjs', quantize: 'float16' }));
  const entries = unzipSync((await download(page, '#download-zip')).bytes);
  assert.deepEqual(Object.keys(entries).sort(), out.files.map((f) => f.name).sort());
  for (const f of out.files) assertSameBytes(entries[f.name], f.bytes, `zip:${f.name}`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

for (const width of WIDTHS) {
  test(`at ${width} px: a MegEngine summary, its operators and its export form fit`, async () => {
    const page = await session.newPage();
    await page.setViewportSize({ width, height: 900 });
    await openFiles(page, MGE_FILES[1]);
    assert.deepEqual(await overflowing(page), []);
    await screenshot(page, `mge-summary-${width}`, { fullPage: true });
    await page.locator('fieldset[data-group="names"]').scrollIntoViewIfNeeded();
    assert.deepEqual(await overflowing(page), []);
    await screenshot(page, `mge-form-${width}`);
    await page.close();
  });
}

test('MegEngine: an mgbtest0 container lists its test cases, opens one, and its export keeps them', async () => {
  // Built here: the container magic, one declared test case, the model dump, the test case
  // (a dump like any other, as MegEngine's load_and_run writes its inputs).
  const model = readFileSync(MGE_FILES[1]);
  const testCase = readFileSync(MGE_FILES[0]);
  const count = Buffer.alloc(4);
  count.writeUInt32LE(1);
  const bytes = new Uint8Array(Buffer.concat([Buffer.from('mgbtest0'), count, model, testCase]));
  const path = join(temp, 'with-tests.mge');
  writeFileSync(path, bytes);
  const summary = withModel(bytes, 'with-tests.mge', (m) => m.inspect());
  assert.equal(summary.megengine.testCases.length, 1);

  const page = await session.newPage();
  await openFiles(page, path);
  assert.deepEqual(await page.evaluate(() => window.graphportPage.summary), summary);
  await tab(page, 'test-cases');
  const rows = await page.$$eval('#summary .tab-body table.grid tr', (trs) => trs.slice(1)
    .map((tr) => [...tr.children].map((td) => td.textContent)));
  assert.equal(rows.length, summary.megengine.testCases.length);
  const [t] = summary.megengine.testCases;
  assert.deepEqual(rows[0].slice(0, 2), [String(t.index), String(t.operators)]);
  assert.equal(rows[0][4], 'Open this one');
  assert.match(await page.textContent('#plan'), /written in its mgbtest0 container, its 1 test case kept byte for byte/);
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    assert.deepEqual(await overflowing(page), []);
    await page.locator('#summary .tab-body').scrollIntoViewIfNeeded();
    await screenshot(page, `mge-mgbtest0-${width}`);
  }

  // The default export (FBS_V2) writes the container around the new dump, test case kept.
  await clickExport(page);
  assert.equal(await page.locator('#result-panel .error').count(), 0, await page.textContent('#result-panel'));
  const written = await download(page, '#download-0');
  const expected = withModel(bytes, 'with-tests.mge', (m) => m.export({}));
  assertSameBytes(written.bytes, expected.files[0].bytes, 'mgbtest0 export');
  assertSameBytes(written.bytes.subarray(0, 12), bytes.subarray(0, 12), 'the container header');
  assertSameBytes(written.bytes.subarray(written.bytes.length - testCase.length), testCase, 'the test case');
  const back = withModel(written.bytes, 'again.mge', (m) => m.inspect());
  assert.deepEqual(back.megengine.testCases.map((c) => c.operators), summary.megengine.testCases.map((c) => c.operators));

  // Opening the test case shows its graph.
  await openFiles(page, path);
  await tab(page, 'test-cases');
  const before = await page.evaluate(() => window.graphportPage.settled);
  await page.click('#summary .tab-body table.grid button');
  await page.waitForFunction((n) => window.graphportPage.settled > n, before);
  const opened = gp.load(bytes, { name: 'with-tests.mge', graph: t.graph });
  try {
    assert.deepEqual(await page.evaluate(() => window.graphportPage.summary), opened.inspect());
  } finally {
    opened.delete();
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});

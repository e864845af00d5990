// The page on the family seam, in Chromium: the export form is the core's schema (every
// option, its label, help and the seed's name), a SavedModel folder goes in whole and comes
// back whole as a zip. MegEngine and TensorFlow.js have tests of their own
// (page_mge_tfjs.test.mjs).
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';

import { unzipSync } from 'fflate';

import createGraphport from '../../bindings/js/node.mjs';
import {
  assertSameBytes, checkHeader, clickExport, corpusFile, download, filesUnder, openFiles, requireCorpus,
  screenshot, startPageSession,
} from './page_helpers.mjs';

let session;
let temp;
let gp;

before(async () => {
  requireCorpus();
  temp = mkdtempSync(join(tmpdir(), 'graphport-families-'));
  session = await startPageSession();
  gp = await createGraphport();
});

after(async () => {
  await session?.close();
  if (temp) rmSync(temp, { recursive: true, force: true });
});

test('the TensorFlow export form is built from the schema: every option, its label, help and seed name', async () => {
  const page = await session.newPage();
  const schema = gp.optionSchema('tensorflow').export;
  const shown = await page.$$eval('#export-form [data-option]', (rows) => rows.map((row) => ({
    name: row.dataset.option,
    group: row.closest('fieldset')?.dataset.group,
    label: row.querySelector('.option-label').textContent.trim(),
    seed: row.querySelector('.seed').textContent.trim(),
    help: row.querySelector('.help').textContent,
  })));
  assert.deepEqual(shown.map((o) => o.name).sort(), schema.options.map((o) => o.name).sort());
  for (const option of schema.options) {
    const row = shown.find((o) => o.name === option.name);
    assert.equal(row.group, option.group, option.name);
    assert.equal(row.label, option.label, option.name);
    assert.equal(row.seed, option.seed || 'graphport option', option.name);
    assert.equal(row.help, option.help, option.name);
  }
  const legends = await page.$$eval('#export-form legend', (ls) => ls.map((l) => l.textContent));
  assert.deepEqual(legends, schema.groups.map((g) => g.title));
  assert.match(await page.textContent('#export-api'), new RegExp(schema.api.replace(/\./g, '\\.')));
  // The read options are the load schema's, and "Read as" offers each family's formats.
  const tags = gp.optionSchema('tensorflow').load.options.find((o) => o.name === 'tags');
  assert.equal((await page.textContent('label[for="load-tags"]')).trim(), tags.label);
  const formats = await page.$$eval('#read-format option', (os) => os.map((o) => o.value).filter(Boolean));
  assert.deepEqual(formats, gp.optionSchema().flatMap((f) => f.formats));
  await page.close();
});

test('a file option\'s "remove" shows only while it holds a file', async () => {
  const page = await session.newPage();
  await openFiles(page, corpusFile('meta'));
  const remove = '[data-option="saverDef"] [data-remove]';
  assert.equal(await page.isVisible(remove), false);
  const saver = join(temp, 'saver.json');
  writeFileSync(saver, JSON.stringify({ filenameTensorName: 'save/Const:0', version: 'V2' }));
  await page.setInputFiles('#opt-saverDef', saver);
  await page.waitForSelector(remove, { state: 'visible' });
  assert.match(await page.textContent('#plan-options'), /saver_def=saver\.json/);
  await page.click(remove);
  assert.equal(await page.isVisible(remove), false);
  assert.doesNotMatch(await page.textContent('#plan-options'), /saver_def/);
  await page.close();
});

test('a SavedModel folder dropped whole comes back whole: the zip holds variables/ and assets/ byte for byte', async () => {
  const source = dirname(corpusFile('savedModel'));
  const folder = join(temp, 'half_plus_two');
  mkdirSync(folder);
  cpSync(source, join(folder, '00000123'), { recursive: true });
  // The page names the set after the folder and its files by their paths inside it.
  const given = filesUnder(folder);
  const page = await session.newPage();
  await openFiles(page, folder, '#folder-input');
  // The summary is the Node API's for the same input set.
  const reference = gp.load({ files: given }, { name: 'half_plus_two' });
  try {
    const summary = reference.inspect();
    assert.deepEqual(await page.evaluate(() => window.graphportPage.summary), summary);
    await checkHeader(page, summary);
    assert.ok(summary.savedModelFiles.some((f) => f.name.startsWith('variables/')));
    for (const f of summary.savedModelFiles) {
      assert.match(await page.textContent('#summary [data-field="folder-files"]'), new RegExp(f.name.replace(/[.]/g, '\\.')));
    }
    assert.match(await page.textContent('#summary .note'), /saved_model\.pb/);
    await page.click('label:has(input[name="opt-to"][value="saved-model"])');
    await clickExport(page);
    assert.equal(await page.locator('#result-panel .error').count(), 0, await page.textContent('#result-panel'));
    const expected = reference.export({ to: 'saved-model' });
    for (const note of expected.info.notes) assert.match(await page.textContent('#export-notes'), new RegExp(note.slice(0, 40).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')));
    const zip = await download(page, '#download-zip');
    assert.equal(zip.name, 'saved_model.zip');
    const entries = unzipSync(zip.bytes);
    assert.deepEqual(Object.keys(entries).sort(), expected.files.map((f) => f.name).sort());
    for (const f of expected.files) assertSameBytes(entries[f.name], f.bytes, `zip:${f.name}`);
    // What the folder held, passed through untouched.
    const variables = Object.keys(entries).filter((name) => name.startsWith('variables/'));
    assert.ok(variables.length >= 2, variables.join());
    for (const name of [...variables, ...Object.keys(entries).filter((n) => n.startsWith('assets/'))]) {
      assertSameBytes(entries[name], readFileSync(join(source, name)), `variables byte for byte: ${name}`);
    }
    await screenshot(page, 'saved-model-folder-exported');
  } finally {
    reference.delete();
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});

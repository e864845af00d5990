// The toy family of the test tree (tests/cpp/toy), linked into a WebAssembly module of its
// own by the test build (tests/wasm), shows up through the package's unchanged JS: gp.load,
// gp.optionSchema, and the Node CLI's inspect, export, --help and schema; and through the
// page's unchanged export form, in Chromium: its options become controls, and what the user
// sets there is the export request the page sends. The package's JS is copied beside that
// module, so nothing in bindings/ or web/ is edited or switched for it. Its second option
// (suffix) and summary field (letters) were added in the toy's files alone.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { startServer } from '../../scripts/serve.mjs';
import { launchChromium } from '../e2e/browser.mjs';
import { REPO } from './helpers.mjs';

const TOY_MODULE = join(REPO, 'build', 'wasm', 'toy-module');
if (!existsSync(join(TOY_MODULE, 'graphport_node.wasm'))) {
  throw new Error(`the toy module is missing from ${TOY_MODULE}: build it with \`bash scripts/build.sh wasm\``);
}

const dir = mkdtempSync(join(tmpdir(), 'graphport-toy-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const pkg = join(dir, 'js');
mkdirSync(join(pkg, 'wasm'), { recursive: true });
for (const name of readdirSync(join(REPO, 'bindings', 'js'))) {
  if (name.endsWith('.mjs')) copyFileSync(join(REPO, 'bindings', 'js', name), join(pkg, name));
}
// node.mjs loads the shared .wasm under its browser name; the toy link has one .wasm only.
copyFileSync(join(TOY_MODULE, 'graphport_node.cjs'), join(pkg, 'wasm', 'graphport_node.cjs'));
copyFileSync(join(TOY_MODULE, 'graphport_node.wasm'), join(pkg, 'wasm', 'graphport_web.wasm'));
const words = join(dir, 'words.txt');
writeFileSync(words, 'TOY1\nhello\nworld\n');

function cli(...args) {
  const run = spawnSync(process.execPath, [join(pkg, 'cli.mjs'), ...args], { encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

test('gp.load reads a toy file and gp.optionSchema lists the toy family', async () => {
  const { default: createGraphport } = await import(pathToFileURL(join(pkg, 'node.mjs')).href);
  const gp = await createGraphport();
  const model = gp.load(new TextEncoder().encode('TOY1\nsmall\nwords\n'));
  try {
    assert.equal(model.family, 'toy');
    assert.deepEqual(model.inspect().words, ['small', 'words']);
    const { files } = model.export({ shout: true });
    assert.equal(new TextDecoder().decode(files[0].bytes), 'TOY1\nSMALL\nWORDS\n');
    const suffixed = model.export({ suffix: '?' }).files[0].bytes;
    assert.equal(new TextDecoder().decode(suffixed), 'TOY1\nsmall?\nwords?\n');
    // The new summary field: in the summary and in the text the CLIs print.
    const summary = model.inspect();
    assert.equal(summary.letters, 10);
    assert.match(gp.summaryText(summary), /^letters: {5}10$/m);
  } finally {
    model.delete();
  }
  const schema = gp.optionSchema('toy');
  assert.deepEqual(schema.export.options.map((o) => o.name), ['shout', 'suffix']);
  assert.ok(gp.optionSchema().some((f) => f.family === 'tensorflow'), 'the real families stay');
});

test('the Node CLI inspects, exports, lists --shout in --help and prints the toy schema', () => {
  const inspected = cli('inspect', words);
  assert.equal(inspected.status, 0, inspected.stderr);
  assert.match(inspected.stdout, /^words: {7}2$/m);
  const out = join(dir, 'out');
  mkdirSync(out);
  const exported = cli('export', words, '-o', join(out, 'ignored'), '--shout');
  assert.equal(exported.status, 0, exported.stderr);
  assert.equal(readFileSync(join(out, 'words.txt'), 'utf8'), 'TOY1\nHELLO\nWORLD\n');
  assert.match(cli('--help').stdout, /--shout/);
  assert.match(cli('--help').stdout, /--suffix TEXT +Text written after every word\. \[word_suffix\]/);
  const suffixed = cli('export', words, '-o', join(out, 'ignored'), '--suffix', '!');
  assert.equal(suffixed.status, 0, suffixed.stderr);
  assert.equal(readFileSync(join(out, 'words.txt'), 'utf8'), 'TOY1\nhello!\nworld!\n');
  assert.match(inspected.stdout, /^letters: {5}10$/m);
  const schema = cli('schema', 'toy');
  assert.equal(schema.status, 0, schema.stderr);
  assert.equal(JSON.parse(schema.stdout).export.options[0].seed, 'shout_words');
});

// The page's export form (web/export_form.mjs, as the page builds it) in Chromium, made from
// the toy's schema with no page parts of its own (web/families.mjs has none for it): each
// toy option is a control, and Export sends exactly what the user set, which the toy's
// export then applies.
test('the page\'s form shows the toy\'s options and its export request carries them', async (t) => {
  const { default: createGraphport } = await import(pathToFileURL(join(pkg, 'node.mjs')).href);
  const gp = await createGraphport();
  const model = gp.load(new TextEncoder().encode('TOY1\nsmall\nwords\n'));
  t.after(() => model.delete());
  const schema = gp.optionSchema('toy').export;
  writeFileSync(join(dir, 'form.html'), '<!doctype html><html lang="en"><title>toy form</title><body></body></html>');
  const server = await startServer({ '/': REPO, '/toy/': dir }, 0);
  const browser = await launchChromium();
  t.after(async () => {
    await browser.close();
    await new Promise((resolve) => {
      server.close(resolve);
      server.closeAllConnections();
    });
  });
  const page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${server.address().port}/toy/form.html`);
  await page.evaluate(async ({ schema, summary }) => {
    const { exportForm } = await import('/web/export_form.mjs');
    const { familyPage } = await import('/web/families.mjs');
    const form = exportForm({ onExport: (plan) => { window.sent = plan.options; } });
    document.body.append(form.element, form.actions);
    form.setSchema(schema, familyPage(schema.family));
    form.setModel(summary);
  }, { schema, summary: model.inspect() });
  const rows = await page.$$eval('.option', (els) => els.map((el) => [el.dataset.option, el.querySelector('.seed')?.textContent]));
  assert.deepEqual(rows, [['shout', 'shout_words'], ['suffix', 'word_suffix']]);
  await page.check('#opt-shout');
  await page.fill('#opt-suffix', ' !');
  await page.click('#export-button');
  const sent = await page.evaluate(() => window.sent);
  assert.deepEqual(sent, { shout: true, suffix: '!' });
  const { files } = model.export(sent);
  assert.equal(new TextDecoder().decode(files[0].bytes), 'TOY1\nSMALL!\nWORDS!\n');
});

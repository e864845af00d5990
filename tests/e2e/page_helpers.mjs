// Shared set-up of the page's end-to-end tests: the server (repository root, corpus), the
// browser, a fresh page per test, the page's own settle counters, downloads, screenshots,
// and the Node API as the reference for what the page must produce.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import createGraphport from '../../bindings/js/node.mjs';
import { startServer } from '../../scripts/serve.mjs';
import { launchChromium } from './browser.mjs';

export const repo = fileURLToPath(new URL('../..', import.meta.url));
export const corpus = fileURLToPath(new URL('../../../shared/corpus/', import.meta.url));
export const screenshots = join(repo, 'test-results', 'screenshots');

export const CORPUS = {
  meta: 'tf/serving/session_bundle/testdata/half_plus_two/00000123/export.meta',
  savedModel: 'tf/serving/servables/tensorflow/testdata/saved_model_half_plus_two_tf2_cpu/00000123/saved_model.pb',
  graphDef: 'tfjs/tfjs-to-tf/simple/frozen_graph.pb',
  keras: 'tf/serving/servables/tensorflow/testdata/tf_text_regression/01/keras_metadata.pb',
  tfjsModel: 'tfjs/tfjs-to-tf/simple/model.json',
  tfjsShard: 'tfjs/tfjs-to-tf/simple/group1-shard1of1.bin',
  mge: 'mge/mgeconvert_e4a1261_test_test_model.mge',
};

export function corpusFile(key) {
  return join(corpus, CORPUS[key]);
}

export function requireCorpus() {
  assert.ok(existsSync(corpus),
    `the test corpus is missing: expected ${corpus} (the repository's sibling ../shared/corpus/)`);
  for (const [key, path] of Object.entries(CORPUS)) {
    assert.ok(existsSync(join(corpus, path)), `corpus file ${key} is missing: ${join(corpus, path)}`);
  }
}

export function requireWasm() {
  const wasm = join(repo, 'bindings/js/wasm/graphport_web.wasm');
  assert.ok(existsSync(wasm), `the WebAssembly build is missing (${wasm}): run bash scripts/build.sh wasm`);
}

// Starts the server and the browser; returns {url, newPage, close}.
export async function startPageSession() {
  requireWasm();
  const server = await startServer({ '/': repo }, 0);
  const browser = await launchChromium();
  const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 800 } });
  const url = `http://127.0.0.1:${server.address().port}/web/`;
  return {
    url,
    // A fresh page, the converter ready. Page errors are collected in page.errors.
    async newPage() {
      const page = await context.newPage();
      page.errors = [];
      page.on('pageerror', (e) => page.errors.push(e.message));
      await page.goto(url);
      await page.waitForFunction(() => window.graphportPage?.ready === true, null, { timeout: 30000 });
      return page;
    },
    // A page at another URL (another server), without waiting for the converter.
    async openUrl(other) {
      const page = await context.newPage();
      page.errors = [];
      page.on('pageerror', (e) => page.errors.push(e.message));
      await page.goto(other);
      return page;
    },
    async close() {
      await browser?.close();
      await new Promise((resolve) => {
        server.close(resolve);
        server.closeAllConnections();
      });
    },
  };
}

// Gives files to the file input and waits until the page has settled (loaded or refused).
export async function openFiles(page, paths, selector = '#file-input') {
  const before = await page.evaluate(() => window.graphportPage.settled);
  await page.setInputFiles(selector, paths);
  await page.waitForFunction((n) => window.graphportPage.settled > n, before, { timeout: 60000 });
}

export async function clickExport(page) {
  const before = await page.evaluate(() => window.graphportPage.exported);
  await page.click('#export-button');
  await page.waitForFunction((n) => window.graphportPage.exported > n, before, { timeout: 60000 });
}

// Clicks a download link and returns the file's name and bytes.
export async function download(page, selector) {
  const [event] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  const path = await event.path();
  return { name: event.suggestedFilename(), bytes: new Uint8Array(readFileSync(path)) };
}

export async function field(page, name) {
  return (await page.textContent(`#summary [data-field="${name}"]`)).trim();
}

// The summary's common header against inspect()'s: family, format, encoding, detection,
// producer, and every count.
export async function checkHeader(page, summary) {
  assert.equal(await page.getAttribute('#summary [data-field="format"]', 'title'), summary.format);
  assert.equal(await page.getAttribute('#summary [data-field="family"]', 'title'), summary.family);
  assert.equal(await field(page, 'family'), summary.familyTitle);
  assert.equal(await field(page, 'encoding'), summary.encoding);
  assert.equal(await field(page, 'detection'), summary.detection);
  if (summary.producerText) assert.equal(await field(page, 'producer'), summary.producerText);
  for (const [label, n] of summary.counts) {
    const name = label.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    assert.equal(await field(page, name), n.toLocaleString('en-US'), label);
  }
}

export async function screenshot(page, name, options = {}) {
  mkdirSync(screenshots, { recursive: true });
  const path = join(screenshots, `${name}.png`);
  await page.screenshot({ path, ...options });
  return path;
}

// What the Node API says about a file: inspect() and the export with the same options.
export async function nodeReference(path, options) {
  const gp = await createGraphport();
  const model = gp.load(readFileSync(path), { name: path });
  try {
    return { summary: model.inspect(), out: options ? model.export(options) : null };
  } finally {
    model.delete();
  }
}

export function assertSameBytes(actual, expected, what) {
  assert.equal(actual.length, expected.length, `${what}: ${actual.length} bytes, expected ${expected.length}`);
  assert.ok(Buffer.from(actual).equals(Buffer.from(expected)), `${what}: the bytes differ from the Node API's`);
}

// Every file under `dir`, by its path relative to `base`, '/'-separated.
export function filesUnder(dir, base = dir) {
  const out = {};
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) Object.assign(out, filesUnder(path, base));
    else out[relative(base, path).split('\\').join('/')] = readFileSync(path);
  }
  return out;
}

// The browser build in a real browser: the same exports as Node, byte for byte, and errors
// as GraphportError. (The page's end-to-end tests are page.test.mjs and page_large.test.mjs.)
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import createGraphport from '../../bindings/js/node.mjs';
import { startServer } from '../../scripts/serve.mjs';
import { launchChromium } from './browser.mjs';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const corpus = fileURLToPath(new URL('../../../shared/corpus/', import.meta.url));
const CASES = [
  ['tf/serving/session_bundle/testdata/half_plus_two/00000123/export.meta', { asText: true }],
  ['tf/serving/servables/tensorflow/testdata/saved_model_half_plus_two_tf2_cpu/00000123/saved_model.pb',
    { to: 'saved-model' }],
  ['tfjs/tfjs-to-tf/simple/frozen_graph.pb', { to: 'meta-graph' }],
];

let server;
let browser;
let page;

before(async () => {
  assert.ok(existsSync(corpus), `corpus not found at ${corpus}`);
  server = await startServer({ '/': repo, '/corpus/': corpus });
  browser = await launchChromium();
  page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`http://127.0.0.1:${server.address().port}/tests/e2e/fixtures/smoke.html`);
  await page.waitForFunction(() => window.graphportReady === true);
  assert.deepEqual(errors, []);
});

after(async () => {
  await browser?.close();
  server?.close();
});

for (const [file, options] of CASES) {
  test(`browser export of ${file} equals the Node export`, async () => {
    const result = await page.evaluate(([url, opts]) => window.graphportExport(url, opts),
      [`/corpus/${file}`, options]);
    const gp = await createGraphport();
    const model = gp.load(readFileSync(`${corpus}${file}`), { name: `/corpus/${file}` });
    try {
      const expected = model.export(options);
      assert.equal(result.files.length, expected.files.length);
      for (let i = 0; i < expected.files.length; i += 1) {
        assert.equal(result.files[i].name, expected.files[i].name);
        assert.deepEqual(Uint8Array.from(result.files[i].bytes), expected.files[i].bytes);
      }
      assert.deepEqual(result.summary, model.inspect());
      assert.equal(result.live, 0);
    } finally {
      model.delete();
    }
  });
}

test('bad bytes in the browser throw a GraphportError with a code', async () => {
  const result = await page.evaluate((bytes) => window.graphportError(bytes), [0x0a, 0xff, 0xff]);
  assert.equal(result.isGraphportError, true);
  assert.equal(result.code, 'PARSE_ERROR');
  assert.match(result.message, /bad\.pb/);
});

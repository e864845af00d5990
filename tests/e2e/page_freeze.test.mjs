// Issue 32 in Chromium, at 1366 and 420 px: a SavedModel folder with variables dropped on the
// page shows its checkpoint's variables, the plan says the TF.js export freezes it, the export
// is the Node API's byte for byte, and the downloaded model runs in the TF.js runtime loaded
// into that same page (tfjs-core, tfjs-backend-cpu and tfjs-converter from the
// devDependencies), computing y = 0.5·x + 2 with 0.5 and 2 read from the checkpoint.
// Screenshots of each state go to test-results/screenshots/.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';

import { unzipSync } from 'fflate';

import createGraphport from '../../bindings/js/node.mjs';
import {
  assertSameBytes, clickExport, corpusFile, download, filesUnder, openFiles, requireCorpus, screenshot,
  startPageSession,
} from './page_helpers.mjs';

let session;
let temp;
let gp;

before(async () => {
  requireCorpus();
  temp = mkdtempSync(join(tmpdir(), 'graphport-freeze-'));
  session = await startPageSession();
  gp = await createGraphport();
});

after(async () => {
  await session?.close();
  if (temp) rmSync(temp, { recursive: true, force: true });
});

// Loads the TF.js runtime into the page from the devDependencies the server reaches.
async function addTfjsRuntime(page) {
  for (const path of ['@tensorflow/tfjs-core/dist/tf-core.min.js', '@tensorflow/tfjs-backend-cpu/dist/tf-backend-cpu.min.js',
    '@tensorflow/tfjs-converter/dist/tf-converter.min.js']) {
    await page.addScriptTag({ url: `/node_modules/${path}` });
  }
  await page.evaluate(async () => {
    await window.tf.setBackend('cpu');
    await window.tf.ready();
  });
}

// Runs the TF.js model given as {name: bytes} in the page on each value of x; returns y's.
function runInPage(page, files, x) {
  const plain = Object.fromEntries(Object.entries(files).map(([n, b]) => [n, Array.from(b)]));
  return page.evaluate(async ({ plain, x }) => {
    const { tf } = window;
    const json = JSON.parse(new TextDecoder().decode(new Uint8Array(plain['model.json'])));
    const specs = json.weightsManifest.flatMap((g) => g.weights);
    const shards = json.weightsManifest.flatMap((g) => g.paths).map((p) => new Uint8Array(plain[p]));
    const data = new Uint8Array(shards.reduce((n, s) => n + s.length, 0));
    let at = 0;
    for (const s of shards) {
      data.set(s, at);
      at += s.length;
    }
    const model = await tf.loadGraphModel(tf.io.fromMemory({
      modelTopology: json.modelTopology, weightSpecs: specs, weightData: data.buffer, signature: json.signature,
    }));
    const input = json.signature.inputs.x.name;
    const output = json.signature.outputs.y.name;
    // The signature's x is [1]: one value a run.
    const values = [];
    for (const value of x) {
      const result = await model.executeAsync({ [input]: tf.tensor([value], [1], 'float32') }, output);
      values.push(...result.dataSync());
      result.dispose();
    }
    model.dispose();
    return values;
  }, { plain, x });
}

for (const width of [1366, 420]) {
  test(`at ${width} px: a SavedModel with variables shows them, freezes to TF.js, and runs in TF.js in the page`, async () => {
    const source = dirname(corpusFile('savedModel'));
    const folder = join(temp, `half_plus_two_${width}`);
    mkdirSync(folder);
    cpSync(source, join(folder, '00000123'), { recursive: true });
    const page = await session.newPage();
    await page.setViewportSize({ width, height: 900 });
    await openFiles(page, folder, '#folder-input');

    const reference = gp.load({ files: filesUnder(folder) }, { name: `half_plus_two_${width}` });
    try {
      const summary = reference.inspect();
      assert.equal(summary.needsFreeze, true);
      // The Variables tab lists the checkpoint's variables, as inspect() does.
      await page.click('#summary [data-tab="variables"]');
      const shown = await page.textContent('#summary .tab-body');
      assert.ok(summary.variables.length >= 2, JSON.stringify(summary.variables));
      for (const v of summary.variables) assert.ok(shown.includes(v.key), `the Variables tab lacks ${v.key}: ${shown}`);
      // ... and which signatures read each: a and b by serving_default, c not.
      const readBy = Object.fromEntries(summary.variables.map((v) => [v.key.split('/')[0], v.readBy.map((r) => r.signature)]));
      assert.ok(readBy.a.includes('serving_default') && readBy.b.includes('serving_default'), JSON.stringify(readBy));
      assert.ok(!readBy.c.includes('serving_default') && readBy.c.includes('regress_x2_to_y3'), JSON.stringify(readBy));
      assert.match(shown, /serving_default \(unknown_0\)/);
      await screenshot(page, `freeze-variables-${width}`, { fullPage: true });

      // Before Export: the plan says that the export to TF.js freezes the signature.
      await page.click('label:has(input[name="opt-to"][value="tfjs"])');
      assert.match(await page.textContent('#plan'), /freezes signature “serving_default”/);
      assert.match(await page.textContent('#plan'), /the variables it reads \(of the checkpoint's 3\) made constants/);
      await screenshot(page, `freeze-plan-${width}`, { fullPage: true });

      await clickExport(page);
      assert.equal(await page.locator('#result-panel .error').count(), 0, await page.textContent('#result-panel'));
      const expected = reference.export({ to: 'tfjs' });
      // serving_default reads two of the three variables (c is regress_x2_to_y3's).
      assert.equal(expected.info.frozen.signature, 'serving_default');
      assert.equal(expected.info.frozen.variables, 2);
      const entries = unzipSync((await download(page, '#download-zip')).bytes);
      assert.deepEqual(Object.keys(entries).sort(), expected.files.map((f) => f.name).sort());
      for (const f of expected.files) assertSameBytes(entries[f.name], f.bytes, `zip:${f.name}`);
      await screenshot(page, `freeze-exported-${width}`, { fullPage: true });

      // The download runs in the TF.js runtime, in this page.
      await addTfjsRuntime(page);
      assert.deepEqual(await runInPage(page, entries, [1, 3, -4]), [2.5, 3.5, 0]);
      const noSideways = await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
      assert.ok(noSideways, 'the page scrolls sideways');
    } finally {
      reference.delete();
    }
    assert.deepEqual(page.errors, []);
    await page.close();
  });
}

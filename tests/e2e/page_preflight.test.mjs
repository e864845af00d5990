// Issue 32's pre-flight in Chromium, at 1366 and 420 px: before Export, the export panel says
// what the target cannot run, as the Node API's model.check() does. half_plus_two (TF2
// SavedModel folder) with Freeze off: VarHandleOp … (freeze fixes this), and Export still
// runs and shows the core's refusal; Freeze on: ready. The TFX taxi model's serving_default
// parses tf.Example: ParseExampleV2, named with its node. A TF.js model to a SavedModel: what
// TensorFlow's registry lacks, ready once unfuseOps is ticked. No serious or critical axe-core
// violation in these states, no sideways scrolling at 420 px; screenshots go to
// test-results/screenshots/preflight-*.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';

import createGraphport from '../../bindings/js/node.mjs';
import {
  clickExport, corpus, corpusFile, filesUnder, openFiles, requireCorpus, screenshot, screenshots, startPageSession,
} from './page_helpers.mjs';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const TAXI = join(corpus, '../savedmodels/tfx_chicago_taxi_estimator_v1/saved_model');
const PRELU = join(corpus, 'tfjs/tfjs-to-tf/prelu');
const HASHTABLES = join(corpus, '../savedmodels/tfx_tft_tf2_hashtables/saved_model');

let session;
let temp;
let gp;

before(async () => {
  requireCorpus();
  temp = mkdtempSync(join(tmpdir(), 'graphport-preflight-'));
  session = await startPageSession();
  gp = await createGraphport();
});

after(async () => {
  await session?.close();
  if (temp) rmSync(temp, { recursive: true, force: true });
});

// A copy of a folder under the temp directory, so the folder picker gives it by a name of its own.
function folderCopy(source, name) {
  const folder = join(temp, name);
  cpSync(source, folder, { recursive: true });
  return folder;
}

// The Node API's check of the same files and options.
function nodeCheck(folder, options) {
  const model = gp.load({ files: filesUnder(folder) }, { name: 'reference' });
  try {
    return model.check(options);
  } finally {
    model.delete();
  }
}

// Waits for the pre-flight of the options as they are now, and returns its state and text.
async function preflight(page) {
  await page.waitForFunction(() => ['ready', 'cannot', 'failed'].includes(document.getElementById('preflight')?.dataset.state),
    null, { timeout: 30000 });
  return page.evaluate(() => {
    const box = document.getElementById('preflight');
    return { state: box.dataset.state, text: box.innerText.replace(/\s+/g, ' ').trim(), hidden: box.hidden };
  });
}

// The whole page, and the pre-flight with the plan and Export (the footer of the export panel).
async function shoot(page, name) {
  await screenshot(page, name, { fullPage: true });
  await page.locator('#export-footer').screenshot({ path: join(screenshots, `${name}-footer.png`) });
}

async function pick(page, option, value) {
  await page.click(`label:has(input[name="opt-${option}"][value="${value}"])`);
}

async function seriousViolations(page) {
  if (!(await page.evaluate(() => Boolean(window.axe)))) await page.addScriptTag({ content: AXE });
  return page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] }))
    .violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`));
}

// Nothing scrolls sideways: not the page, not the pre-flight; a node name that does not fit
// ends in an ellipsis inside its box.
async function assertFits(page, what) {
  const fit = await page.evaluate(() => {
    const box = document.getElementById('preflight');
    const nodes = [...box.querySelectorAll('.preflight-node')].map((n) => ({
      name: n.textContent, right: n.getBoundingClientRect().right, boxRight: box.getBoundingClientRect().right,
    }));
    return {
      page: document.documentElement.scrollWidth <= document.documentElement.clientWidth,
      box: box.scrollWidth <= box.clientWidth,
      outside: nodes.filter((n) => n.right > n.boxRight + 0.5).map((n) => n.name),
    };
  });
  assert.ok(fit.page, `${what}: the page scrolls sideways`);
  assert.ok(fit.box, `${what}: the pre-flight scrolls sideways`);
  assert.deepEqual(fit.outside, [], `${what}: node names past the pre-flight's edge`);
}

for (const width of [1366, 420]) {
  test(`at ${width} px: half_plus_two with Freeze off names what TF.js cannot run, with Freeze on it is ready`, async () => {
    const folder = folderCopy(dirname(dirname(corpusFile('savedModel'))), `half_plus_two_${width}`);
    const page = await session.newPage();
    await page.setViewportSize({ width, height: 900 });
    await openFiles(page, folder, '#folder-input');
    assert.equal(await page.isHidden('#preflight'), true, 'a MetaGraphDef export of a TensorFlow graph has nothing to check');

    await pick(page, 'to', 'tfjs');
    const auto = await preflight(page);
    const reference = nodeCheck(folder, { to: 'tfjs' });
    assert.equal(reference.runs, true);
    assert.equal(auto.state, 'ready', auto.text);
    assert.match(auto.text, new RegExp(`Ready: all ${reference.ops} ops \\(${reference.nodes} nodes\\) run in TF\\.js 4\\.22`));

    await pick(page, 'freeze', 'false');
    const off = await preflight(page);
    assert.equal(off.state, 'cannot', off.text);
    assert.match(off.text, /TF\.js cannot run: .*VarHandleOp x5 \(freeze fixes this\)/);
    assert.match(off.text, /ReadVariableOp x19 \(freeze fixes this\)/);
    assert.match(off.text, /StatefulPartitionedCall x14 \(freeze fixes this\)/);
    await assertFits(page, 'freeze off');
    assert.deepEqual(await seriousViolations(page), []);
    await shoot(page, `preflight-freeze-off-${width}`);
    // Export stays possible, and shows the core's refusal.
    assert.equal(await page.isEnabled('#export-button'), true);
    await clickExport(page);
    assert.match(await page.textContent('#result-panel .error'), /freeze: false with to: 'tfjs', but the graph holds .*VarHandleOp x4/);

    // Export at once after a change: the check waits its turn behind the export (one request
    // at a time in the worker), neither fails, and the pre-flight then shows the new options'.
    await pick(page, 'freeze', 'true');
    await clickExport(page);
    assert.match(await page.textContent('#result-panel'), /✓ Exported/);
    const on = await preflight(page);
    assert.equal(on.state, 'ready', on.text);
    assert.match(on.text, /freezes signature “serving_default”: 2 variables made constants/);
    await shoot(page, `preflight-freeze-on-${width}`);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test(`at ${width} px: a signature that parses tf.Example shows ParseExampleV2 and its node`, async () => {
    const folder = folderCopy(TAXI, `taxi_${width}`);
    const page = await session.newPage();
    await page.setViewportSize({ width, height: 900 });
    await openFiles(page, folder, '#folder-input');
    await pick(page, 'to', 'tfjs');
    const shown = await preflight(page);
    const reference = nodeCheck(folder, { to: 'tfjs' });
    assert.equal(reference.runs, false);
    assert.equal(shown.state, 'cannot', shown.text);
    assert.match(shown.text, /^Pre-flight TF\.js cannot run:/);
    assert.ok(reference.unsupportedOps.some((o) => o.op === 'ParseExampleV2'), JSON.stringify(reference.unsupportedOps));
    for (const o of reference.unsupportedOps) {
      assert.ok(shown.text.includes(`${o.op} x${o.count} (`), `${o.op} x${o.count} is not shown: ${shown.text}`);
      for (const node of o.nodes) assert.ok(shown.text.includes(node), `node ${node} is not shown`);
    }
    assert.match(shown.text, /Export refuses it \(UNSUPPORTED\) unless allowUnsupportedOps is ticked/);
    await assertFits(page, 'taxi');
    assert.deepEqual(await seriousViolations(page), []);
    await shoot(page, `preflight-parse-example-${width}`);

    // With allowUnsupportedOps the export writes them, and says so before.
    await page.check('#opt-allowUnsupportedOps');
    assert.match((await preflight(page)).text, /Export writes it \(allowUnsupportedOps\)/);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test(`at ${width} px: node names a hundred characters long end in an ellipsis, whole in their title`, async () => {
    const folder = folderCopy(HASHTABLES, `hashtables_${width}`);
    const page = await session.newPage();
    await page.setViewportSize({ width, height: 900 });
    await openFiles(page, folder, '#folder-input');
    await pick(page, 'to', 'tfjs');
    const shown = await preflight(page);
    const reference = nodeCheck(folder, { to: 'tfjs' });
    const bucketize = reference.unsupportedOps.find((o) => o.op === 'BoostedTreesBucketize');
    assert.equal(shown.state, 'cannot', shown.text);
    assert.match(shown.text, new RegExp(`BoostedTreesBucketize x${bucketize.count} \\(allowUnsupportedOps writes it anyway`));
    const names = await page.$$eval('#preflight [data-op="BoostedTreesBucketize"] .preflight-node',
      (nodes) => nodes.map((n) => ({ title: n.title, cut: n.scrollWidth > n.clientWidth })));
    assert.deepEqual(names.map((n) => n.title), bucketize.nodes);
    assert.ok(bucketize.nodes.every((n) => n.length > 90), JSON.stringify(bucketize.nodes));
    // At 420 px the export panel is narrower than a name: each is cut; at 1366 too (the panel
    // is a column of the page).
    assert.ok(names.every((n) => n.cut), JSON.stringify(names));
    await assertFits(page, 'hashtables');
    assert.deepEqual(await seriousViolations(page), []);
    await shoot(page, `preflight-long-names-${width}`);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test(`at ${width} px: a TF.js model to a SavedModel shows what TensorFlow's registry lacks, until unfuseOps`, async () => {
    const page = await session.newPage();
    await page.setViewportSize({ width, height: 900 });
    await openFiles(page, [join(PRELU, 'model.json'), join(PRELU, 'group1-shard1of1.bin')]);
    await pick(page, 'to', 'saved-model');
    const fused = await preflight(page);
    assert.equal(fused.state, 'cannot', fused.text);
    const reference = nodeCheck(PRELU, { target: 'tensorflow', to: 'saved-model' });
    assert.deepEqual(reference.unsupportedOps.map((o) => o.op), ['_FusedMatMul']);
    assert.match(fused.text, /TensorFlow's op registry lacks: _FusedMatMul x2 \(unfuseOps fixes this\)/);
    for (const node of reference.unsupportedOps[0].nodes) assert.ok(fused.text.includes(node), node);
    await assertFits(page, 'prelu');
    await shoot(page, `preflight-registry-${width}`);

    await page.check('#opt-unfuseOps');
    const unfused = await preflight(page);
    assert.equal(unfused.state, 'ready', unfused.text);
    assert.match(unfused.text, /are in TensorFlow's op registry/);
    assert.match(unfused.text, /unfuseOps rewrites 2 fused nodes/);
    assert.deepEqual(await seriousViolations(page), []);
    await shoot(page, `preflight-registry-unfused-${width}`);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
}

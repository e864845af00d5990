// Issue 35, the export preview on the page: for a SavedModel folder, a MetaGraphDef, a TF.js
// folder and a MegEngine file, at 1366 and 420 px, with options that change each graph, the
// export panel shows the preview's counts per option, and the Graph tab marks exactly the
// nodes the export then drops or changes (found by exporting with the Node API, loading the
// output back and diffing the two graphs with tests/js/export_diff.mjs): each node box of the
// top level by its mark, each group by its counts of marked nodes inside. After Export, the
// output read back in the worker shows its counts beside the input's, equal to the Node API's
// read back. axe-core: no serious or critical violation; screenshots in
// test-results/screenshots/preview-*.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';

import createGraphport from '../../bindings/js/node.mjs';
import { exportDiff } from '../js/export_diff.mjs';
import { clickExport, corpus, corpusFile, filesUnder, openFiles, requireCorpus, screenshot, startPageSession } from './page_helpers.mjs';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const MGE_BACKWARD_FILTER = join(corpus, 'mge', 'mgeconvert_HEAD_test_mge_convolution-backward-filter.mge');

let session;
let temp;
let gp;

before(async () => {
  requireCorpus();
  temp = mkdtempSync(join(tmpdir(), 'graphport-preview-'));
  session = await startPageSession();
  gp = await createGraphport();
});

after(async () => {
  await session?.close();
  if (temp) rmSync(temp, { recursive: true, force: true });
});

async function seriousViolations(page) {
  if (!(await page.evaluate(() => Boolean(window.axe)))) await page.addScriptTag({ content: AXE });
  return page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] }))
    .violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`));
}

async function noHorizontalOverflow(page, what) {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth,
  }));
  assert.ok(scroll <= client, `${what}: the page is ${scroll} px wide in a ${client} px window`);
}

async function pick(page, option, value) {
  await page.click(`label:has(input[name="opt-${option}"][value="${value}"])`);
}

// Each model: how the page opens it, the same input for the Node API, the options set in the
// form, the same options for the Node API, and how the export renames nodes.
const MODELS = [
  {
    key: 'saved-model-folder',
    open: async (page, width) => {
      const folder = join(temp, `saved_model_${width}`);
      mkdirSync(folder);
      cpSync(dirname(corpusFile('savedModel')), join(folder, '00000123'), { recursive: true });
      await openFiles(page, folder, '#folder-input');
      return { files: filesUnder(folder) };
    },
    set: (page) => pick(page, 'to', 'tfjs'),
    options: { to: 'tfjs' },
  },
  {
    key: 'meta-graph',
    open: async (page) => {
      await openFiles(page, corpusFile('meta'));
      return readFileSync(corpusFile('meta'));
    },
    set: async (page) => {
      await page.check('#opt-stripDefaultAttrs');
      await page.check('#opt-clearExtraneousSavers');
    },
    options: { stripDefaultAttrs: true, clearExtraneousSavers: true },
  },
  {
    key: 'tfjs-folder',
    open: async (page) => {
      await openFiles(page, [corpusFile('tfjsModel'), corpusFile('tfjsShard')]);
      return { files: { 'model.json': readFileSync(corpusFile('tfjsModel')), 'group1-shard1of1.bin': readFileSync(corpusFile('tfjsShard')) } };
    },
    set: async (page) => {
      await pick(page, 'to', 'tfjs');
      await page.check('#opt-unfuseOps');
      await page.check('#opt-allowUnsupportedOps');
    },
    options: { to: 'tfjs', unfuseOps: true, allowUnsupportedOps: true },
  },
  {
    key: 'megengine',
    // Its nameless ConvolutionV2 operators are written as Convolution: the writer's change.
    open: async (page) => {
      await openFiles(page, MGE_BACKWARD_FILTER);
      return readFileSync(MGE_BACKWARD_FILTER);
    },
    // Operator names kept, so that the output read back names its operators as the input does.
    set: (page) => page.check('#opt-keepOprName'),
    options: { keepOprName: true },
  },
];

// Waits for the preview of the options as they are now; returns it.
async function previewShown(page, before) {
  await page.waitForFunction((n) => window.graphportPage.previewed > n
    && document.querySelector('#export-preview')?.dataset.state === 'ready', before, { timeout: 60000 });
  // A later option's preview supersedes an earlier one: wait until nothing is on its way.
  await page.waitForFunction(() => !document.querySelector('#export-preview[aria-busy]'), null, { timeout: 60000 });
  return page.evaluate(() => window.graphportPage.preview);
}

// The marks of the graph's top level as drawn: {node name: mark} and {group name: counts}.
function drawnMarks(page) {
  return page.evaluate(() => {
    const nodes = {};
    const groups = {};
    for (const g of document.querySelectorAll('#graph .graph-item')) {
      if (g.dataset.kind === 'node') nodes[g.dataset.name] = g.dataset.mark ?? null;
      else groups[g.dataset.name] = g.dataset.marks ? JSON.parse(g.dataset.marks) : { dropped: 0, changed: 0, added: 0 };
    }
    return { nodes, groups };
  });
}

for (const width of [1366, 420]) {
  for (const m of MODELS) {
    test(`at ${width} px, ${m.key}: the preview's marks are the export's diff; the output read back`, async () => {
      const page = await session.newPage();
      await page.setViewportSize({ width, height: 900 });
      const input = await m.open(page, width);
      const previewed = await page.evaluate(() => window.graphportPage.previewed);
      await m.set(page);
      const preview = await previewShown(page, previewed);
      const model = gp.load(input, { name: m.key });
      try {
        const real = exportDiff(gp, model, m.options);
        const sorted = (list) => [...list].sort();
        assert.deepEqual(sorted(preview.dropped.names), sorted(real.dropped), 'dropped');
        assert.deepEqual(sorted(preview.changed.nodes.map((c) => c.was ?? c.name)), sorted(real.changedBefore), 'changed');
        assert.deepEqual(sorted(preview.added.names), sorted(real.added), 'added');
        assert.ok(real.dropped.size + real.changed.size + real.added.size > 0, 'the options change the graph');

        // The export panel: one line per option, as the core words it.
        const lines = await page.$$eval('#export-preview .preview-options li', (li) => li.map((l) => l.textContent));
        assert.deepEqual(lines, preview.options.map((o) => o.text));

        // The Graph tab: every node of the top level marked as the diff says, every group with
        // the diff's counts of marked nodes inside it.
        const top = model.graph();
        // The graph is laid out in the worker: it may be drawn after the preview came.
        await page.waitForFunction(() => Number(document.querySelector('#graph')?.dataset.drawn ?? 0) > 0
          && !document.querySelector('#graph-legend').hidden, null, { timeout: 60000 });
        const drawn = await drawnMarks(page);
        const sep = top.separator;
        for (const child of top.children) {
          if (child.kind === 'node') {
            const want = real.dropped.has(child.name) ? 'dropped' : real.changedBefore.has(child.name) ? 'changed' : null;
            assert.equal(drawn.nodes[child.name], want, `node ${child.name}`);
          } else {
            const inside = (name) => name === child.name || name.startsWith(`${child.name}${sep}`);
            const want = {
              dropped: [...real.dropped].filter(inside).length,
              changed: [...real.changedBefore].filter(inside).length,
              added: [...real.added].filter(inside).length,
            };
            assert.deepEqual(drawn.groups[child.name], want, `group ${child.name}`);
          }
        }
        const legend = await page.textContent('#graph-legend');
        assert.match(legend, new RegExp(`${real.dropped.size} dropped`));
        assert.match(legend, new RegExp(`${real.changed.size} changed`));
        await noHorizontalOverflow(page, `${m.key}, preview shown`);
        assert.deepEqual(await seriousViolations(page), [], `${m.key}: axe-core, preview shown`);
        await screenshot(page, `preview-${m.key}-${width}`, { fullPage: true });

        // Export: the output is read back in the worker, its counts beside the input's.
        await clickExport(page);
        await page.waitForSelector('#read-back');
        const out = model.export(m.options);
        const back = gp.load({ files: Object.fromEntries(out.files.map((f) => [f.name, f.bytes])) });
        try {
          const summary = back.inspect();
          const inputCounts = new Map(model.inspect().counts);
          for (const [label, n] of summary.counts) {
            if (!inputCounts.has(label)) continue;
            const cells = await page.$$eval(`#read-back tr[data-field="${label.replace(/\s+/g, '-')}"] td`, (td) => td.map((c) => c.textContent));
            assert.deepEqual(cells, [inputCounts.get(label).toLocaleString('en-US'), n.toLocaleString('en-US')], label);
          }
        } finally {
          back.delete();
        }
        assert.deepEqual(await seriousViolations(page), [], `${m.key}: axe-core, exported`);
        await noHorizontalOverflow(page, `${m.key}, exported`);
        await screenshot(page, `preview-${m.key}-${width}-exported`, { fullPage: true });
      } finally {
        model.delete();
      }
      assert.deepEqual(page.errors, []);
      await page.close();
    });
  }
}

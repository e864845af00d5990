// Issue 35, the graph view: for a SavedModel folder, a MetaGraphDef, a TF.js folder and a
// MegEngine file, at 1366 and 420 px, the page draws the top level of the model's graph with
// as many boxes and edges as the core's model.graph() gives, a group expands on click, the
// search finds a node and opens the level that shows it, and the details panel shows its
// attributes (or MegEngine params); no page-level horizontal overflow; axe-core finds no
// serious or critical violation; screenshots of each. Then the 200k-node benchmark graph:
// the time from its summary to its top level drawn and the longest main-thread task are
// measured and printed (not asserted: this machine's speed is not the test's business).
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';

import createGraphport from '../../bindings/js/node.mjs';
import { writeNodeGraph } from './big_graph.mjs';
import { corpusFile, filesUnder, openFiles, requireCorpus, screenshot, screenshots, startPageSession } from './page_helpers.mjs';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let session;
let temp;
let gp;

before(async () => {
  requireCorpus();
  temp = mkdtempSync(join(tmpdir(), 'graphport-graph-'));
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

// Waits until the graph view has drawn more than `before` times; returns its count.
async function drawnAfter(page, before) {
  await page.waitForFunction((n) => Number(document.querySelector('#graph')?.dataset.drawn ?? 0) > n, before, { timeout: 60000 });
  return page.evaluate(() => Number(document.querySelector('#graph').dataset.drawn));
}

// What the page drew: the boxes' names and kinds, and the number of edges.
function drawing(page) {
  return page.evaluate(() => ({
    group: document.querySelector('#graph').dataset.group,
    items: [...document.querySelectorAll('#graph .graph-item')].map((g) => `${g.dataset.kind}:${g.dataset.name}`),
    edges: document.querySelectorAll('#graph .graph-edge').length,
  }));
}

function expected(level) {
  return { group: level.group, items: level.children.map((c) => `${c.kind}:${c.name}`), edges: level.edges.length };
}

async function noHorizontalOverflow(page, what) {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth,
  }));
  assert.ok(scroll <= client, `${what}: the page is ${scroll} px wide in a ${client} px window`);
}

// The models, each with how the page opens it and the same input for the Node API.
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
  },
  {
    key: 'meta-graph',
    open: async (page) => {
      await openFiles(page, corpusFile('meta'));
      return readFileSync(corpusFile('meta'));
    },
  },
  {
    key: 'tfjs-folder',
    open: async (page) => {
      await openFiles(page, [corpusFile('tfjsModel'), corpusFile('tfjsShard')]);
      return { files: { 'model.json': readFileSync(corpusFile('tfjsModel')), 'group1-shard1of1.bin': readFileSync(corpusFile('tfjsShard')) } };
    },
  },
  {
    key: 'megengine',
    open: async (page) => {
      await openFiles(page, corpusFile('mge'));
      return readFileSync(corpusFile('mge'));
    },
  },
];

// A node to search for: one inside a group when there is one (so that finding it opens a
// level below the top), whose exact name the search lists.
function searchTarget(model) {
  const all = model.searchGraph('', { limit: 1 });
  assert.equal(all.total, 0);
  const top = model.graph();
  const sep = top.separator;
  const candidates = [];
  const walk = (group) => {
    for (const c of model.graph({ group }).children) {
      if (c.kind === 'group') walk(c.name);
      else candidates.push(c.name);
    }
  };
  walk('');
  const listed = (name) => model.searchGraph(name, { limit: 30 }).matches.some((m) => m.name === name);
  const withAttrs = (name) => {
    const node = model.node(name);
    return Object.keys(node.attrs ?? {}).length > 0 || (node.params ?? []).length > 0;
  };
  return candidates.find((n) => n.includes(sep) && listed(n) && withAttrs(n))
    ?? candidates.find((n) => listed(n) && withAttrs(n));
}

for (const width of [1366, 420]) {
  for (const m of MODELS) {
    test(`at ${width} px, ${m.key}: drawn as the core's levels, a group expands, search and details work`, async () => {
      const page = await session.newPage();
      await page.setViewportSize({ width, height: 900 });
      const before = Number(await page.evaluate(() => document.querySelector('#graph')?.dataset.drawn ?? 0));
      const input = await m.open(page, width);
      let drawn = await drawnAfter(page, before);
      const model = gp.load(input, { name: m.key });
      try {
        const top = model.graph();
        assert.equal(top.nodeCount, model.inspect().nodeCount ?? model.inspect().megengine?.operators?.length);
        assert.deepEqual(await drawing(page), expected(top));
        await noHorizontalOverflow(page, `${m.key}, top level`);

        // A group expands on click (every model here but the MegEngine one has groups).
        const group = top.children.find((c) => c.kind === 'group');
        if (m.key !== 'megengine') assert.ok(group, 'the model has a group at its top level');
        if (group) {
          await page.click(`#graph .graph-item[data-name="${group.name}"]`);
          drawn = await drawnAfter(page, drawn);
          assert.deepEqual(await drawing(page), expected(model.graph({ group: group.name })));
          // Back up by the path's Top button.
          await page.click('#graph .graph-path button >> text=Top');
          drawn = await drawnAfter(page, drawn);
          assert.deepEqual(await drawing(page), expected(top));
        }

        // Search, then the details panel.
        const target = searchTarget(model);
        assert.ok(target, 'a node to search for');
        await page.fill('#graph-search', target);
        const hit = page.locator(`#graph .search-hit[data-name="${target}"]`);
        await hit.waitFor({ timeout: 30000 });
        await hit.click();
        drawn = await drawnAfter(page, drawn);
        assert.ok((await drawing(page)).items.includes(`node:${target}`), `${target} drawn after the search`);
        await page.waitForFunction((name) => document.querySelector('#graph [data-field="node-name"]')?.textContent === name, target, { timeout: 30000 });
        const node = model.node(target);
        assert.equal((await page.textContent('#graph [data-field="node-op"]')).trim(), node.op);
        const keys = node.attrs ? Object.keys(node.attrs) : node.params.map((p) => p.type ?? `union ${p.union}`);
        const field = node.attrs ? 'node-attrs' : 'node-params';
        const shown = await page.$$eval(`#graph [data-field="${field}"] dt`, (dts) => dts.map((d) => d.textContent));
        assert.deepEqual(shown, keys);
        assert.equal(await page.locator('#graph .graph-item.selected').getAttribute('data-name'), target);

        // Keyboard: the focused box is the one Tab stop; Enter on it shows its details.
        const focused = await page.evaluate(() => document.activeElement?.dataset?.name);
        assert.equal(focused, target);
        await noHorizontalOverflow(page, `${m.key}, details shown`);
        assert.deepEqual(await seriousViolations(page), [], `${m.key}: axe-core, graph drawn and details shown`);
        await screenshot(page, `graph-${m.key}-${width}`, { fullPage: true });
        await page.locator('#graph').screenshot({ path: join(screenshots, `graph-${m.key}-${width}-view.png`) });
      } finally {
        model.delete();
      }
      assert.deepEqual(page.errors, []);
      await page.close();
    });
  }
}

test('keyboard: arrow keys move between boxes, Enter expands a group, Backspace goes up', async () => {
  const page = await session.newPage();
  const before = Number(await page.evaluate(() => document.querySelector('#graph')?.dataset.drawn ?? 0));
  await openFiles(page, corpusFile('meta'));
  let drawn = await drawnAfter(page, before);
  const first = await page.evaluate(() => document.querySelector('#graph .graph-item[tabindex="0"]').dataset.name);
  await page.focus('#graph .graph-item[tabindex="0"]');
  let moved = null;
  for (const key of ['ArrowRight', 'ArrowDown', 'ArrowLeft', 'ArrowUp']) {
    await page.keyboard.press(key);
    moved = await page.evaluate(() => document.activeElement?.dataset?.name);
    if (moved !== first) break;
  }
  assert.notEqual(moved, first, 'an arrow key moved the focus to another box');
  assert.equal(await page.locator('#graph .graph-item[tabindex="0"]').count(), 1);
  // Focus a group and expand it with Enter.
  await page.evaluate(() => {
    const g = document.querySelector('#graph .graph-item.group');
    document.querySelector('#graph .graph-item[tabindex="0"]').setAttribute('tabindex', '-1');
    g.setAttribute('tabindex', '0');
    g.focus();
  });
  const group = await page.evaluate(() => document.activeElement.dataset.name);
  await page.keyboard.press('Enter');
  drawn = await drawnAfter(page, drawn);
  assert.equal(await page.evaluate(() => document.querySelector('#graph').dataset.group), group);
  await page.focus('#graph .graph-item[tabindex="0"]');
  await page.keyboard.press('Backspace');
  drawn = await drawnAfter(page, drawn);
  assert.equal(await page.evaluate(() => document.querySelector('#graph').dataset.group), '');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the 200k-node benchmark graph opens at its top level: time from summary to drawn, longest task', async () => {
  const path = join(temp, 'nodes.pb');
  const generator = writeNodeGraph(path, 200000);
  const page = await session.newPage();
  await page.evaluate(() => {
    window.graphTimes = { longest: 0, tasks: 0 };
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        window.graphTimes.longest = Math.max(window.graphTimes.longest, e.duration);
        window.graphTimes.tasks += 1;
      }
    }).observe({ type: 'longtask', buffered: false });
    new MutationObserver(() => {
      if (!window.graphTimes.summary && document.querySelector('#summary')) window.graphTimes.summary = performance.now();
    }).observe(document.body, { childList: true, subtree: true });
  });
  await openFiles(page, path);
  await drawnAfter(page, 0);
  const times = await page.evaluate(() => ({ ...window.graphTimes, drawn: Number(document.querySelector('#graph').dataset.drawnAt) }));
  const reference = gp.load(readFileSync(path), { name: 'nodes.pb' });
  try {
    const top = reference.graph();
    assert.ok(top.nodeCount >= 200000, String(top.nodeCount));
    assert.deepEqual(await drawing(page), expected(top));
  } finally {
    reference.delete();
  }
  // The stage level: 1000 blocks of six nodes each, the widest level of this graph.
  const before = Number(await page.evaluate(() => document.querySelector('#graph').dataset.drawn));
  const t0 = await page.evaluate(() => performance.now());
  await page.evaluate(() => document.querySelector('#graph').open('model/encoder/layers/stage_00'));
  await drawnAfter(page, before);
  const stage = await page.evaluate((start) => ({
    ms: Number(document.querySelector('#graph').dataset.drawnAt) - start,
    items: document.querySelectorAll('#graph .graph-item').length,
  }), t0);
  console.log(`200k-node graph (${generator} generator): top level drawn ${(times.drawn - times.summary).toFixed(0)} ms `
    + `after the summary; a 1000-group level drawn in ${stage.ms.toFixed(0)} ms (${stage.items} boxes); `
    + `longest main-thread task ${times.longest.toFixed(0)} ms over ${times.tasks} long tasks`);
  assert.equal(stage.items, 1000);
  await screenshot(page, 'graph-200k-stage');
  assert.deepEqual(page.errors, []);
  await page.close();
});

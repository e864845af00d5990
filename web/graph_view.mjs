// The graph view: one level of the model's graph at a time (a name scope or MegEngine name
// prefix is a group, drawn as one box until it is expanded), laid out in the Worker
// (web/graph_worker.mjs, @dagrejs/dagre) and drawn here in SVG. Pan (drag), zoom (wheel, +,
// -), fit (0); keyboard: Tab reaches the drawing, the arrow keys move between boxes, Enter
// expands a group or shows a node's details, Backspace goes up a level. Search by name or op
// over the whole graph; a match opens the level that shows it. Nodes carry their full name
// (data-name), which is what the export preview marks them by (setMarks).
import { clear, formatBytes, formatCount, h, plural } from './dom.mjs';
import { MARKS, marksInGroup } from './export_preview.mjs';

const SVG = 'http://www.w3.org/2000/svg';
const MIN_ZOOM = 0.05;
const MAX_ZOOM = 4;
const SEARCH_DELAY_MS = 200;

function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) el.setAttribute(k, String(v));
  for (const c of children) if (c) el.append(c);
  return el;
}

function shapeText(shape) {
  if (shape === undefined) return '';
  if (shape === null) return '[?]';
  return `[${shape.map((d) => (d < 0 ? '?' : d)).join(', ')}]`;
}

function tensorText(t) {
  return [t.dtype, shapeText(t.shape)].filter(Boolean).join(' ');
}

function valueText(v) {
  const text = typeof v === 'string' ? v : JSON.stringify(v);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

// request(message): a Promise of the worker's answer (WorkerClient.query).
export function graphView({ request }) {
  const state = { group: '', level: null, layout: null, focus: 0, selected: null, view: { x: 0, y: 0, k: 1 }, drawn: 0, marks: null };
  const title = h('h3', { id: 'graph-title' }, 'Graph');
  const path = h('nav.graph-path', { 'aria-label': 'Group path' });
  const stats = h('span.graph-stats.muted', { dataset: { field: 'graph-stats' } });
  const search = h('input', { id: 'graph-search', type: 'search', placeholder: 'name or op', autocomplete: 'off' });
  const results = h('ul.graph-results', { id: 'graph-results', hidden: true });
  const viewport = s('g', { class: 'graph-viewport' });
  const svg = s('svg', { class: 'graph-svg', role: 'group', 'aria-labelledby': 'graph-title', tabindex: '-1' },
    s('defs', {}, s('marker', { id: 'graph-arrow', viewBox: '0 0 10 10', refX: '9', refY: '5', markerWidth: '7', markerHeight: '7', orient: 'auto-start-reverse' },
      s('path', { d: 'M0,0 L10,5 L0,10 z', class: 'graph-arrowhead' }))),
    viewport);
  const canvas = h('div.graph-canvas', svg);
  const status = h('p.graph-status.muted', { role: 'status' });
  // What the export preview marks, and how: shown while there are marks.
  const legend = h('p.graph-legend', { id: 'graph-legend', hidden: true });
  const details = h('section.graph-details', { 'aria-label': 'Node details', 'aria-live': 'polite' },
    h('p.muted', 'Select a node to see its op, attributes, inputs and outputs.'));
  const button = (label, name, onclick) => h('button.small', { type: 'button', 'aria-label': name, title: name, onclick }, label);
  const root = h('section.graph', { id: 'graph', 'aria-labelledby': 'graph-title' },
    h('div.graph-head', title, path, stats),
    h('div.graph-tools',
      h('form.graph-search', { role: 'search', onsubmit: (e) => { e.preventDefault(); runSearch(true); } },
        h('label', { for: 'graph-search' }, 'Find a node'), search),
      h('div.graph-zoom',
        button('−', 'Zoom out', () => zoomBy(1 / 1.25)),
        button('+', 'Zoom in', () => zoomBy(1.25)),
        button('Fit', 'Fit the level to the view', () => fit()))),
    results,
    legend,
    status,
    h('div.graph-body', canvas, details));

  // ---- drawing ------------------------------------------------------------------------
  function applyView() {
    const { x, y, k } = state.view;
    viewport.setAttribute('transform', `translate(${x},${y}) scale(${k})`);
  }

  function fit() {
    if (!state.layout) return;
    const w = canvas.clientWidth || 600;
    const hgt = canvas.clientHeight || 400;
    const k = Math.max(MIN_ZOOM, Math.min(1.25, w / state.layout.width, hgt / state.layout.height));
    state.view = { k, x: (w - state.layout.width * k) / 2, y: Math.max(0, (hgt - state.layout.height * k) / 2) };
    applyView();
  }

  function zoomBy(factor, cx = canvas.clientWidth / 2, cy = canvas.clientHeight / 2) {
    const { x, y, k } = state.view;
    const next = Math.max(MIN_ZOOM, Math.min(MAX_ZOOM, k * factor));
    state.view = { k: next, x: cx - ((cx - x) * next) / k, y: cy - ((cy - y) * next) / k };
    applyView();
  }

  // The box's visible text first (axe: the name holds what is shown), then its full name.
  function itemLabel(child, sub) {
    return child.kind === 'group'
      ? `${child.label} ${sub}, group ${child.name}: Enter expands it`
      : `${child.label} ${sub}, node ${child.name}`;
  }

  function drawPort(box, text) {
    if (!box) return null;
    return s('g', { class: 'graph-port', transform: `translate(${box.x},${box.y})`, 'aria-hidden': 'true' },
      s('rect', { width: box.width, height: box.height, rx: 14 }),
      s('text', { x: box.width / 2, y: box.height / 2 + 4, 'text-anchor': 'middle' }, text));
  }

  // remark: the same level again with the preview's marks changed; the view keeps its pan
  // and zoom, and `drawn` (what tests and the page wait on for a new level) stays.
  function draw({ remark = false } = {}) {
    const { level, layout } = state;
    const edges = s('g', { class: 'graph-edges' });
    level.edges.forEach((edge, i) => {
      const d = layout.edges[i].points.map(([x, y], j) => `${j ? 'L' : 'M'}${x},${y}`).join(' ');
      edges.append(s('path', {
        class: `graph-edge${edge.control ? ' control' : ''}`, d, 'marker-end': 'url(#graph-arrow)',
        'stroke-width': Math.min(4, 1 + Math.log2(edge.count)).toFixed(1),
        'data-from': edge.from, 'data-to': edge.to, 'data-count': edge.count,
      }));
    });
    const items = s('g', { class: 'graph-items' });
    level.children.forEach((child, i) => {
      const box = layout.boxes[i];
      const group = child.kind === 'group';
      const sub = group ? `${formatCount(child.nodes)} nodes` : child.op;
      const item = s('g', {
        class: `graph-item ${child.kind}`, transform: `translate(${box.x},${box.y})`, role: 'button',
        tabindex: i === state.focus ? '0' : '-1', 'aria-label': itemLabel(child, sub),
        'data-kind': child.kind, 'data-name': child.name, 'data-index': i,
      },
      s('rect', { width: box.width, height: box.height, rx: group ? 8 : 4 }),
      // One text of two lines with a space between them, so that the text a screen reader
      // compares with the name reads "label op", not "labelop".
      s('text', {},
        s('tspan', { x: 8, y: 16, class: 'graph-label' }, fitText(child.label, box.width)),
        document.createTextNode(' '),
        s('tspan', { x: 8, y: 32, class: 'graph-sub' }, fitText(sub, box.width))));
      if (child.name === state.selected) item.classList.add('selected');
      markItem(item, child, sub, box);
      items.append(item);
    });
    viewport.replaceChildren(...[edges, drawPort(layout.ports.in, 'from outside'), drawPort(layout.ports.out, 'to outside'), items].filter(Boolean));
    const groups = level.children.filter((c) => c.kind === 'group').length;
    stats.textContent = `${plural(level.children.length - groups, 'node')} · ${plural(groups, 'group')} · ${plural(level.edges.length, 'edge')}`
      + (level.truncated ? ` · ${formatCount(level.truncated)} more not drawn` : '');
    clear(path, crumbs(level));
    if (remark) return;
    fit();
    state.drawn += 1;
    root.dataset.drawn = String(state.drawn);
    root.dataset.group = level.group;
    root.dataset.drawnAt = String(performance.now());
  }

  // The export preview's mark on a node (its glyph, outline and words), or a group's counts
  // of marked nodes inside it.
  function markItem(item, child, sub, box) {
    const marks = state.marks;
    if (!marks) return;
    let badge = '';
    let words = '';
    if (child.kind === 'node') {
      const kind = marks.dropped.has(child.name) ? 'dropped' : marks.changed.has(child.name) ? 'changed' : null;
      if (!kind) return;
      item.classList.add(`mark-${kind}`);
      item.dataset.mark = kind;
      badge = MARKS[kind].glyph;
      words = kind === 'changed' ? `changed by the export: ${marks.changed.get(child.name).join(', ')}` : 'dropped by the export';
    } else {
      const n = marksInGroup(marks, child.name, state.level.separator);
      const parts = Object.entries(n).filter(([, count]) => count > 0);
      if (!parts.length) return;
      item.classList.add('mark-group');
      item.dataset.marks = JSON.stringify(n);
      badge = parts.map(([kind, count]) => `${MARKS[kind].glyph}${formatCount(count)}`).join(' ');
      words = `export preview: ${parts.map(([kind, count]) => `${count} ${MARKS[kind].words}`).join(', ')}`;
    }
    // The badge is part of the box's text, so the name holds it too, in the order shown.
    item.setAttribute('aria-label', `${itemLabel(child, `${sub} ${badge}`)}; ${words}`);
    item.querySelector('text').append(document.createTextNode(' '),
      s('tspan', { class: 'graph-mark', x: box.width - 6, y: 14, 'text-anchor': 'end' }, badge));
  }

  function showLegend() {
    const marks = state.marks;
    legend.hidden = !marks;
    if (!marks) return;
    const { dropped, changed, added } = marks.counts;
    clear(legend, h('strong', 'Export preview: '),
      h('span.legend-item.mark-dropped', `${MARKS.dropped.glyph} dotted: ${formatCount(dropped)} dropped`), ' · ',
      h('span.legend-item.mark-changed', `${MARKS.changed.glyph} thick: ${formatCount(changed)} changed`), ' · ',
      h('span.legend-item.mark-added', `${MARKS.added.glyph} ${formatCount(added)} added (new in the output, counted in their groups)`),
      h('span.muted', ' · a group shows the marked nodes inside it'));
  }

  // Marks from the export preview (export_preview.mjs previewMarks), or null to clear them.
  function setMarks(marks) {
    state.marks = marks;
    showLegend();
    if (state.level) draw({ remark: true });
  }

  function fitText(text, width) {
    const max = Math.floor((width - 16) / 7);
    return text.length <= max ? text : `${text.slice(0, Math.max(1, max - 1))}…`;
  }

  function crumbs(level) {
    const parts = level.group ? level.group.split(level.separator) : [];
    const out = [h('button.link', { type: 'button', onclick: () => open(''), 'aria-current': parts.length ? null : 'true' }, 'Top')];
    parts.forEach((part, i) => {
      const name = parts.slice(0, i + 1).join(level.separator);
      out.push(h('span.sep', { 'aria-hidden': 'true' }, '›'),
        h('button.link', { type: 'button', onclick: () => open(name), 'aria-current': i === parts.length - 1 ? 'true' : null }, part));
    });
    return out;
  }

  // ---- requests -----------------------------------------------------------------------
  async function show(message, then) {
    status.textContent = 'Laying out…';
    try {
      const answer = await request({ type: 'graph', ...message });
      if (!root.isConnected && state.drawn > 0) return;
      state.level = answer.level;
      state.layout = answer.layout;
      state.group = answer.level.group;
      state.focus = 0;
      status.textContent = '';
      draw();
      then?.();
    } catch (e) {
      if (e?.code === 'CANCELLED') return;
      status.textContent = `The graph could not be drawn: ${e?.message ?? e}`;
    }
  }

  function open(group) {
    return show({ group });
  }

  function reveal(name) {
    return show({ reveal: name }, () => {
      const i = state.level.children.findIndex((c) => c.kind === 'node' && c.name === name);
      if (i >= 0) {
        moveFocus(i);
        centerOn(i);
        select(name);
      }
    });
  }

  function centerOn(i) {
    const b = state.layout.boxes[i];
    const { k } = state.view;
    state.view = { k, x: canvas.clientWidth / 2 - (b.x + b.width / 2) * k, y: canvas.clientHeight / 2 - (b.y + b.height / 2) * k };
    applyView();
  }

  async function select(name) {
    state.selected = name;
    for (const el of viewport.querySelectorAll('.graph-item.selected')) el.classList.remove('selected');
    viewport.querySelector(`.graph-item[data-name="${CSS.escape(name)}"]`)?.classList.add('selected');
    try {
      const node = await request({ type: 'node', name });
      if (state.selected === name) clear(details, detailsOf(node));
    } catch (e) {
      if (e?.code !== 'CANCELLED') clear(details, h('p.error', `No details for ${name}: ${e?.message ?? e}`));
    }
  }

  function detailsOf(node) {
    const row = (label, value, field) => (value === undefined || value === null || value === '' ? null
      : h('div.fact', h('span.fact-label', label), h('span.fact-value', { dataset: { field } }, value)));
    const goto = (name, text = name) => h('button.link.node-link', { type: 'button', onclick: () => reveal(name) }, text);
    const list = (items) => h('ul.graph-list', items.map((x) => h('li', x)));
    const attrs = node.attrs ? Object.entries(node.attrs) : [];
    const params = node.params ?? [];
    return [
      h('h4.node-name', { dataset: { field: 'node-name' } }, node.name),
      row('Op', node.op, 'node-op'),
      row('Device', Array.isArray(node.device) ? node.device.join(', ') : node.device, 'node-device'),
      row('Weights', node.weightBytes ? formatBytes(node.weightBytes) : null, 'node-weights'),
      h('h5', `Inputs (${node.inputs.length})`),
      node.inputs.length ? list(node.inputs.map((t) => [
        t.missing ? h('code', t.name) : goto(t.node, t.name), ' ',
        h('span.muted', t.control ? 'control' : tensorText(t))])) : h('p.muted', 'none'),
      h('h5', `Outputs (${node.outputs.length})`),
      node.outputs.length ? list(node.outputs.map((t) => [
        h('code', `${t.index}`), ' ', h('span', tensorText(t) || 'dtype and shape unknown'),
        t.varName ? h('span.muted', ` ${t.varName}`) : null])) : h('p.muted', 'not stated by the model'),
      attrs.length ? [h('h5', `Attributes (${attrs.length})`),
        h('dl.graph-attrs', { dataset: { field: 'node-attrs' } }, attrs.map(([k, v]) => [h('dt', k), h('dd', valueText(v))]))] : null,
      params.length ? [h('h5', `Params (${params.length})`),
        h('dl.graph-attrs', { dataset: { field: 'node-params' } }, params.map((p) => [h('dt', p.type ?? `union ${p.union}`), h('dd', valueText(p.fields ?? {}))]))] : null,
      node.weight ? [h('h5', 'Weight'), h('p', valueText(node.weight))] : null,
      h('h5', `Used by (${node.consumers.length + (node.moreConsumers ?? 0)})`),
      node.consumers.length ? list(node.consumers.map((c) => goto(c))) : h('p.muted', 'no node'),
    ];
  }

  let searchTimer = 0;
  let searchSeq = 0;
  async function runSearch(now = false) {
    clearTimeout(searchTimer);
    const query = search.value.trim();
    if (!query) {
      results.hidden = true;
      clear(results);
      return;
    }
    if (!now) {
      searchTimer = setTimeout(() => runSearch(true), SEARCH_DELAY_MS);
      return;
    }
    const seq = ++searchSeq;
    try {
      const found = await request({ type: 'search', query });
      if (seq !== searchSeq) return;
      results.hidden = false;
      clear(results,
        h('li.muted', found.total ? `${plural(found.total, 'match', 'matches')}${found.total > found.matches.length ? `, the first ${found.matches.length}` : ''}` : 'No node matches.'),
        found.matches.map((m) => h('li', h('button.link.search-hit', { type: 'button', dataset: { name: m.name }, onclick: () => reveal(m.name) },
          h('span.hit-name', m.name), ' ', h('span.muted', m.op)))));
    } catch (e) {
      if (e?.code !== 'CANCELLED') clear(results, h('li.error', String(e?.message ?? e)));
    }
  }
  search.addEventListener('input', () => runSearch());

  // ---- pointer and keyboard -----------------------------------------------------------
  function activate(i) {
    const child = state.level.children[i];
    if (!child) return;
    if (child.kind === 'group') open(child.name);
    else select(child.name);
  }

  function moveFocus(i) {
    const items = viewport.querySelectorAll('.graph-item');
    if (!items[i]) return;
    items[state.focus]?.setAttribute('tabindex', '-1');
    state.focus = i;
    items[i].setAttribute('tabindex', '0');
    items[i].focus({ preventScroll: true });
  }

  // The nearest box in a direction from the focused one (its centre within a 45° cone).
  function nearest(dx, dy) {
    const boxes = state.layout.boxes;
    const c = (b) => [b.x + b.width / 2, b.y + b.height / 2];
    const [x0, y0] = c(boxes[state.focus]);
    let best = -1;
    let bestScore = Infinity;
    boxes.forEach((b, i) => {
      if (i === state.focus) return;
      const [x, y] = c(b);
      const along = (x - x0) * dx + (y - y0) * dy;
      const across = Math.abs((x - x0) * dy - (y - y0) * dx);
      if (along <= 0 || across > along) return;
      const score = along + 2 * across;
      if (score < bestScore) {
        bestScore = score;
        best = i;
      }
    });
    return best;
  }

  const arrows = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
  svg.addEventListener('keydown', (e) => {
    if (!state.level) return;
    const item = e.target.closest?.('.graph-item');
    if (arrows[e.key] && item) {
      e.preventDefault();
      const next = nearest(...arrows[e.key]);
      if (next >= 0) {
        moveFocus(next);
        const b = state.layout.boxes[next];
        const { x, y, k } = state.view;
        const px = b.x * k + x;
        const py = b.y * k + y;
        if (px < 0 || py < 0 || px > canvas.clientWidth - 40 || py > canvas.clientHeight - 20) centerOn(next);
      }
    } else if ((e.key === 'Enter' || e.key === ' ') && item) {
      e.preventDefault();
      activate(Number(item.dataset.index));
    } else if (e.key === 'Backspace' && state.group) {
      e.preventDefault();
      const sep = state.level.separator;
      const cut = state.group.lastIndexOf(sep);
      open(cut < 0 ? '' : state.group.slice(0, cut));
    } else if (e.key === '+' || e.key === '=') {
      zoomBy(1.25);
    } else if (e.key === '-') {
      zoomBy(1 / 1.25);
    } else if (e.key === '0') {
      fit();
    }
  });

  let drag = null;
  svg.addEventListener('pointerdown', (e) => {
    if (e.target.closest('.graph-item')) return;
    drag = { x: e.clientX, y: e.clientY, view: { ...state.view }, moved: false };
    svg.setPointerCapture(e.pointerId);
  });
  svg.addEventListener('pointermove', (e) => {
    if (!drag) return;
    const dx = e.clientX - drag.x;
    const dy = e.clientY - drag.y;
    drag.moved ||= Math.abs(dx) + Math.abs(dy) > 3;
    state.view = { ...drag.view, x: drag.view.x + dx, y: drag.view.y + dy };
    applyView();
  });
  const endDrag = () => { drag = null; };
  svg.addEventListener('pointerup', endDrag);
  svg.addEventListener('pointercancel', endDrag);
  svg.addEventListener('wheel', (e) => {
    e.preventDefault();
    const r = svg.getBoundingClientRect();
    zoomBy(Math.exp(-e.deltaY * 0.0015), e.clientX - r.left, e.clientY - r.top);
  }, { passive: false });
  svg.addEventListener('click', (e) => {
    const item = e.target.closest('.graph-item');
    if (!item) return;
    const i = Number(item.dataset.index);
    moveFocus(i);
    activate(i);
  });

  root.open = open;
  root.setMarks = setMarks;
  root.reveal = reveal;
  open('');
  return root;
}

// TensorFlow's part of the summary (below the common header that web/summary_view.mjs
// renders): tags, constants, the files a SavedModel folder passes through, then tabs for ops
// (a bar chart), signatures, scopes, collections, functions, a SavedModel's checkpoint
// variables and its meta graphs.
// Long lists are paged, so thousands of ops or functions stay cheap to show.
import { fact, formatBytes, formatCount, h, plural } from '../dom.mjs';
import { opChart } from '../op_chart.mjs';
import { pagedList } from '../paged_list.mjs';
import { tabs } from '../tabs.mjs';

function dtypeName(dtype) {
  if (!dtype) return '?';
  return dtype.replace(/^DT_/, '').toLowerCase();
}

function shapeText(shape) {
  if (shape === null || shape === undefined) return 'unknown rank';
  if (shape.length === 0) return 'scalar';
  return `[${shape.map((d) => (d < 0 ? '?' : formatCount(d))).join(', ')}]`;
}

function tensorRows(role, tensors) {
  return Object.entries(tensors ?? {}).map(([key, t]) => {
    // An op rather than a tensor (the init op of a SavedModel): no dtype, no shape.
    const op = t.dtype === 'DT_INVALID' && (t.shape === null || t.shape === undefined);
    return h('tr',
      h('td.role', role), h('td', h('code', key)), h('td', h('code', t.name ?? '')),
      h('td', op ? h('span.muted', 'op') : dtypeName(t.dtype) + (t.sparse ? ' (sparse)' : '')),
      h('td', op ? h('span.muted', '—') : shapeText(t.shape)));
  });
}

function signatureList(signatures) {
  if (!signatures.length) {
    return h('p.empty', 'No signatures. GraphDefs and MetaGraphDefs written before TensorFlow’s SavedModel usually have none.');
  }
  return pagedList({
    items: signatures,
    label: 'signatures',
    pageSize: 4,
    matches: (s, q) => s.name.toLowerCase().includes(q),
    renderRow: (s) => h('div.signature',
      h('div.signature-head', h('strong', s.name), s.methodName ? h('span.muted', s.methodName) : null),
      h('table.grid.fixed',
        h('colgroup', h('col', { style: { width: '40px' } }), h('col', { style: { width: '26%' } }),
          h('col'), h('col', { style: { width: '13%' } }), h('col', { style: { width: '15%' } })),
        h('thead', h('tr', h('th', ''), h('th', 'key'), h('th', 'tensor'), h('th', 'dtype'), h('th', 'shape'))),
        h('tbody', tensorRows('in', s.inputs), tensorRows('out', s.outputs)))),
  });
}

// A paged table of named things, filtered by name: the name column, then `columns` (header
// cells) and `cells(item)` (row cells).
function namedTable(items, label, columns, cells) {
  return pagedList({
    items,
    label,
    pageSize: 12,
    tag: 'table.grid',
    header: h('tr', h('th', 'name'), columns),
    matches: (item, q) => item.name.toLowerCase().includes(q),
    renderRow: (item) => h('tr', h('td', h('code', item.name)), cells(item)),
  });
}

function collectionList(collections) {
  if (!collections.length) return h('p.empty', 'No collections.');
  return namedTable(collections, 'collections', [h('th', 'kind'), h('th.num', 'size')],
    (c) => [h('td', c.kind), h('td.num', formatCount(c.size))]);
}

function functionList(functions) {
  if (!functions.length) return h('p.empty', 'No functions in the graph’s library.');
  return namedTable(functions, 'functions', [h('th.num', 'nodes')],
    (f) => [h('td.num', formatCount(f.nodeCount))]);
}

function scopeList(summary, onPickScope) {
  const scopes = summary.scopes ?? [];
  if (!scopes.length) return h('p.empty', 'No node name has a “/”, so the graph has no name scopes.');
  const capped = scopes.length < summary.scopeCount;
  return h('div',
    capped ? h('p.muted', `The ${formatCount(scopes.length)} shallowest of ${formatCount(summary.scopeCount)} scopes.`) : null,
    namedTable(scopes, 'scopes', [h('th.num', 'nodes'), h('th', h('span.visually-hidden', 'action'))], (s) => [
      h('td.num', formatCount(s.nodeCount)),
      h('td', h('button.small', { type: 'button', dataset: { scope: s.name }, 'aria-label': `Export this scope: ${s.name}`,
        onclick: () => onPickScope(s.name) }, 'Export this scope')),
    ]));
}

function metaGraphList(summary, onSelectTags) {
  return h('table.grid',
    h('tr', h('th', '#'), h('th', 'tags'), h('th.num', 'nodes'), h('th.num', 'signatures'), h('th', '')),
    summary.metaGraphs.map((m, i) => h('tr', { class: i === summary.selectedMetaGraph ? 'selected' : '' },
      h('td', String(i)),
      h('td', m.tags.length ? m.tags.map((t) => h('span.tag', t)) : h('span.muted', 'no tags')),
      h('td.num', formatCount(m.nodeCount)),
      h('td.num', formatCount(m.signatureCount)),
      h('td', i === summary.selectedMetaGraph
        ? h('span.muted', 'shown')
        : h('button.small', { type: 'button', onclick: () => onSelectTags(m.tags) }, 'Open this one')))));
}

// The signatures that read a variable, as “serving_default (unknown_0)”: the node is the one
// a freeze of that signature makes the variable's Const.
function readers(v) {
  return (v.readBy ?? []).map((r) => `${r.signature} (${r.node})`).join(', ');
}

// The checkpoint's variables (variables/variables.index), read without their values.
function variableList(summary) {
  if (summary.variablesError) return h('p.muted', `The checkpoint could not be read: ${summary.variablesError}`);
  const variables = summary.variables ?? [];
  if (!variables.length) return h('p.empty', 'No checkpoint: the folder has no variables/ (or only the graph was opened).');
  return pagedList({
    items: variables,
    label: 'variables',
    pageSize: 12,
    tag: 'table.grid',
    header: h('tr', h('th', 'checkpoint key'), h('th', 'dtype'), h('th', 'shape'), h('th.num', 'bytes'), h('th', 'read by')),
    matches: (v, q) => v.key.toLowerCase().includes(q) || readers(v).toLowerCase().includes(q),
    renderRow: (v) => h('tr', h('td', h('code.wrap', v.key)), h('td', dtypeName(v.dtype)),
      h('td', shapeText(v.shape)), h('td.num', formatBytes(v.bytes)),
      h('td.read-by', v.readBy?.length ? readers(v) : h('span.muted', 'no signature'))),
  });
}

// What a TF.js export will freeze: the graph's variables, their reads and its calls.
function freezeFact(summary) {
  const ops = Object.entries(summary.freezeOps ?? {});
  if (!summary.needsFreeze || !ops.length) return null;
  return fact('Freeze', [`TF.js cannot run ${ops.map(([op, n]) => `${op} ×${formatCount(n)}`).join(', ')}: `,
    h('strong', 'an export to TF.js freezes the signature'), ' (variables become constants, calls are inlined).'], 'freeze');
}

function folderFiles(files) {
  return h('ul.folder-files', files.map((f) => h('li', h('code', f.name), h('span.muted', formatBytes(f.bytes)))));
}

// summary: inspect(); onSetLoadOption(name, value): open the model again with a load option
// (another meta graph's tags); onSetExportOption(name, value): set an export option (a scope).
export function tfSummaryView(summary, { onSetLoadOption, onSetExportOption }) {
  const onPickScope = (name) => onSetExportOption('exportScope', name);
  const opCount = Object.keys(summary.ops ?? {}).length;
  const c = summary.constants ?? { count: 0, bytes: 0 };
  const files = summary.savedModelFiles ?? [];
  return h('div.family-summary',
    h('div.facts',
      summary.tags?.length ? fact('Tags', summary.tags.map((t) => h('span.tag', t)), 'tags') : null,
      fact('Constants', `${plural(c.count, 'constant')}, ${formatBytes(c.bytes)}`, 'constants'),
      freezeFact(summary),
      files.length ? fact('Folder', [`${plural(files.length, 'file')} passed through by a SavedModel export:`,
        folderFiles(files)], 'folder-files') : null),
    tabs([
      ['Ops', opCount, () => opCount ? opChart(summary.ops) : h('p.empty', 'The graph has no nodes.')],
      ['Signatures', summary.signatures?.length ?? 0, () => signatureList(summary.signatures ?? [])],
      ['Scopes', summary.scopeCount ?? 0, () => scopeList(summary, onPickScope)],
      ['Collections', summary.collections?.length ?? 0, () => collectionList(summary.collections ?? [])],
      ['Functions', summary.functions?.length ?? 0, () => functionList(summary.functions ?? [])],
      summary.format === 'saved-model'
        ? ['Variables', summary.variables?.length ?? 0, () => variableList(summary)]
        : null,
      // Only a SavedModel holds several.
      summary.format === 'saved-model'
        ? ['Meta graphs', summary.metaGraphs?.length ?? 0, () => metaGraphList(summary, (tags) => onSetLoadOption('tags', tags))]
        : null,
    ].filter(Boolean)));
}

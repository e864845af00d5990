// MegEngine's part of the summary (below the common header): the dump's header, then tabs
// for the operators in graph order (paged, filterable), the op types as a chart, the dump
// info that Network.dump returns, the metadata with its user_info, the graphs of a file
// holding several dumps, and the test cases of an mgbtest0 container.
import { fact, formatBytes, formatCount, h, plural } from '../dom.mjs';
import { opChart } from '../op_chart.mjs';
import { pagedList } from '../paged_list.mjs';
import { tabs } from '../tabs.mjs';

// A var as the dump names it; an unnamed one by its id, as graphport writes it (var<id>).
function varName(v) {
  return v.name ?? `var${v.id}`;
}

function varList(vars) {
  if (!vars.length) return h('span.muted', 'none');
  return vars.map((v, i) => [i ? ', ' : '', h('code', { class: v.name ? '' : 'muted' }, varName(v))]);
}

// {dtype: 'Quantized8Asymm', scale: 0.1, zero_point: 3} -> "Quantized8Asymm (scale 0.1, zero_point 3)"
export function dtypeText(dtype) {
  if (!dtype) return '?';
  const { dtype: name, ...extra } = dtype;
  const more = Object.entries(extra).map(([k, v]) => `${k} ${v}`);
  return more.length ? `${name} (${more.join(', ')})` : name;
}

function shapeText(shape) {
  return shape ? `[${shape.map(formatCount).join(', ')}]` : 'no shape';
}

function valueText(value) {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

// A param by its field names ("stride_h=2"); an ambiguous one (an old type id several
// param layouts share) says so.
function paramView(param) {
  const fields = Object.entries(param.fields ?? {});
  return h('div.mge-param',
    h('span.mge-param-type', { title: param.ambiguous ? 'decoded by the layout its writer most likely used' : null },
      param.type, param.ambiguous ? '?' : ''),
    fields.length
      ? fields.map(([k, v]) => h('span.mge-field', h('span.muted', `${k}=`), valueText(v)))
      : h('span.muted', 'no fields'));
}

function tensorView(t) {
  return h('div.mge-param',
    h('span.mge-param-type', t.name ?? 'value'),
    h('span.mge-field', dtypeText(t.dtype)),
    h('span.mge-field', shapeText(t.shape)),
    t.valueBytes ? h('span.mge-field.muted', formatBytes(t.valueBytes)) : null);
}

function operatorMatches(op, q) {
  return [op.type, op.class, op.name ?? ''].some((s) => s.toLowerCase().includes(q));
}

// operators: the summary's first page; total: all of them; fetchPage: the rest from the core.
function operatorTable(operators, total, fetchPage) {
  return pagedList({
    items: operators,
    total,
    fetchPage,
    label: 'operators',
    pageSize: 12,
    tag: 'table.grid.fixed.mge-operators',
    // The params take the room: they are what tells one operator of a type from another.
    header: [
      h('colgroup', h('col', { style: { width: '36px' } }), h('col', { style: { width: '21%' } }),
        h('col', { style: { width: '13%' } }), h('col', { style: { width: '15%' } }), h('col')),
      h('tr', h('th.num', '#'), h('th', 'type'), h('th', 'name'), h('th', 'inputs → outputs'), h('th', 'params')),
    ],
    matches: operatorMatches,
    renderRow: (op) => h('tr', { dataset: { operator: String(op.index) } },
      h('td.num', String(op.index)),
      h('td', h('code', op.type), op.class !== op.type ? h('div.muted', op.class) : null),
      h('td', op.name ? h('code', op.name) : h('span.muted', 'unnamed')),
      h('td.mge-io', varList(op.inputs), h('span.muted', ' → '), varList(op.outputs)),
      h('td', op.params.map(paramView), op.tensors.map(tensorView),
        op.outputDtype ? h('div.muted', `output dtype ${dtypeText(op.outputDtype)}`) : null,
        op.priority ? h('div.muted', `priority ${op.priority}`) : null)),
  });
}

function definitionList(entries) {
  return h('dl.info', entries.filter(Boolean).map(([label, value, field]) => [
    h('dt', label), h('dd', { dataset: { field } }, value)]));
}

function names(list) {
  if (!list?.length) return h('span.muted', 'none');
  return list.map((n, i) => [i ? ', ' : '', h('code', n)]);
}

// What Network.dump returned for this graph: the dump info, computed from the file read.
function dumpInfoView(info, outputs) {
  return definitionList([
    ['content_hash', h('code', info.content_hash), 'content-hash'],
    ['nr_opr', formatCount(info.nr_opr), 'nr-opr'],
    ['tot_bytes', formatBytes(info.tot_bytes), 'tot-bytes'],
    ['tensor_value_bytes', formatBytes(info.tensor_value_bytes), 'tensor-value-bytes'],
    ['inputs', names(info.inputs), 'dump-inputs'],
    ['outputs', varList(outputs), 'dump-outputs'],
    ['params', names(info.params), 'dump-params'],
  ]);
}

function userInfoView(ui) {
  if (!ui) return h('span.muted', 'none');
  if (ui.value !== null && ui.value !== undefined) {
    // JSON, so a str shows quoted, apart from bytes ({"$bytes": base64}) and numbers.
    return [h('code.wrap', JSON.stringify(ui.value)), h('span.muted', ` (${formatBytes(ui.size)} pickled)`)];
  }
  return [h('span.muted', `${formatBytes(ui.size)}, ${ui.note}: `), h('code.wrap', ui.base64)];
}

function metadataView(metadata) {
  if (!metadata) return h('p.empty', 'No metadata: the model was dumped without enable_metadata.');
  return definitionList([
    ['user_info', userInfoView(metadata.userInfo), 'user-info'],
    ['is_valid', String(metadata.isValid), 'is-valid'],
    ['graph_modified', String(metadata.graphModified), 'graph-modified'],
    ['optimized_for_inference', String(metadata.optimizedForInference), 'optimized'],
    ['optimize options', metadata.optimizeFlags.length ? names(metadata.optimizeFlags) : h('span.muted', 'none'), 'optimize-flags'],
  ]);
}

function graphList(mge, onOpenGraph) {
  return h('table.grid',
    h('tr', h('th.num', '#'), h('th', 'role'), h('th', 'format'), h('th.num', 'offset'), h('th.num', 'size'), h('th.num', 'operators'), h('th', '')),
    mge.graphs.map((g) => h('tr', { class: g.index === mge.graph ? 'selected' : '', dataset: { graph: String(g.index) } },
      h('td.num', String(g.index)), h('td', g.role), h('td', g.format),
      h('td.num', formatCount(g.offset)), h('td.num', formatBytes(g.bytes)), h('td.num', formatCount(g.operators)),
      h('td', g.index === mge.graph
        ? h('span.muted', 'shown')
        : h('button.small', { type: 'button', onclick: () => onOpenGraph(g.index) }, 'Open this one')))));
}

function testCaseList(mge, onOpenGraph) {
  return h('table.grid',
    h('tr', h('th.num', '#'), h('th.num', 'operators'), h('th.num', 'values'), h('th', 'outputs'), h('th', '')),
    mge.testCases.map((t) => h('tr', { class: t.graph === mge.graph ? 'selected' : '' },
      h('td.num', String(t.index)), h('td.num', formatCount(t.operators)), h('td.num', formatBytes(t.valueBytes)),
      h('td', names(t.outputs.map((o) => o ?? 'unnamed'))),
      h('td', t.graph === mge.graph
        ? h('span.muted', 'shown')
        : h('button.small', { type: 'button', onclick: () => onOpenGraph(t.graph) }, 'Open this one')))));
}

function ordinal(n) {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' }[n % 10] ?? 'th');
  return `${formatCount(n)}${suffix}`;
}

function headerText(header) {
  const parts = [header.format];
  if (header.magic) parts.push(`${header.magic}, type ids ${header.typeIds}`);
  if (header.modelVersion !== undefined) parts.push(`model version ${header.modelVersion}`);
  parts.push(`version ${header.version}`);
  return parts.join(' · ');
}

// summary: inspect(); onSetLoadOption(name, value): open the file again with a load option
// (another graph of a file holding several); summaryPage({list, offset, limit, filter}): a page
// of the operators past the summary's first ones (model.summaryPage in the worker).
export function mgeSummaryView(summary, { onSetLoadOption, summaryPage }) {
  const mge = summary.megengine;
  const onOpenGraph = (index) => onSetLoadOption('graph', index);
  const operators = mge.operators ?? [];
  const operatorCount = mge.operatorCount ?? operators.length;
  const fetchOperators = summaryPage ? (request) => summaryPage({ list: 'operators', ...request }) : null;
  const opTypes = Object.keys(mge.ops ?? {}).length;
  const header = mge.header;
  return h('div.family-summary',
    h('div.facts',
      fact('Dump', headerText(header), 'mge-header'),
      header.hash ? fact('Hash', h('code', header.hash), 'mge-hash') : null,
      header.nrSharedTensor ? fact('Shared tensors', formatCount(header.nrSharedTensor), 'shared-tensors') : null,
      // #N as the Graph load option counts (from 0), the ordinal for people.
      mge.graphs.length > 1 ? fact('Graph', `#${mge.graph} (the ${ordinal(mge.graph + 1)} of ${plural(mge.graphs.length, 'graph')} in the file)`, 'graph') : null,
      mge.outputAliases?.length ? fact('Output aliases', varList(mge.outputAliases), 'output-aliases') : null),
    tabs([
      ['Operators', operatorCount, () => (operatorCount ? operatorTable(operators, operatorCount, fetchOperators) : h('p.empty', 'The graph has no operators.'))],
      ['Op types', opTypes, () => (opTypes ? opChart(mge.ops, 'operator') : h('p.empty', 'The graph has no operators.'))],
      ['Dump info', mge.dumpInfo.nr_opr, () => dumpInfoView(mge.dumpInfo, mge.outputs ?? [])],
      ['Metadata', mge.metadata ? 1 : 0, () => metadataView(mge.metadata)],
      mge.graphs.length > 1 ? ['Graphs', mge.graphs.length, () => graphList(mge, onOpenGraph)] : null,
      mge.testCases ? ['Test cases', mge.testCases.length, () => testCaseList(mge, onOpenGraph)] : null,
    ].filter(Boolean)));
}

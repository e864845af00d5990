// What a TensorFlow export wrote, from its info record (the MetaGraphDef summary that
// export_meta_graph returns, plus what graphport left out and why).
import { formatBytes, formatCount, h } from '../dom.mjs';

function names(list) {
  if (!list?.length) return h('span.muted', 'none');
  return list.map((n, i) => [i ? ', ' : '', h('code', n)]);
}

// A TensorFlow.js model: its weights, how they were sharded and quantized, what was rewritten.
function tfjsInfoView(info) {
  const rows = [];
  const row = (label, value) => rows.push(h('dt', label), h('dd', value));
  row('Weights', `${formatCount(info.weights)} in ${formatCount(info.shards)} shard${info.shards === 1 ? '' : 's'}, ${formatBytes(info.weightBytes)}`);
  row('Quantized', names(info.quantized ?? []));
  if (info.renamedFunctionConsts) row('Function constants renamed', formatCount(info.renamedFunctionConsts));
  for (const [key, value] of Object.entries(info)) {
    if (['format', 'encoding', 'files', 'weights', 'shards', 'weightBytes', 'quantized', 'renamedFunctionConsts'].includes(key)) continue;
    row(key, Array.isArray(value) ? names(value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)))) : String(typeof value === 'object' ? JSON.stringify(value) : value));
  }
  return h('dl.info', rows);
}

// `labelOf(name)`: the form's label of an export option, to point the user at it.
export function exportInfoView(info, { labelOf }) {
  if (info.format === 'tfjs') return tfjsInfoView(info);
  const rows = [];
  const row = (label, value) => rows.push(h('dt', label), h('dd', value));
  row('Nodes', formatCount(info.nodeCount));
  if (info.format !== 'graph-def') {
    row('Ops in stripped_op_list', info.strippedOpList?.length ? formatCount(info.strippedOpList.length) : h('span.muted', 'none'));
    if (info.unregisteredOps?.length) {
      row('Ops with no definition', [names(info.unregisteredOps),
        h('div.muted', `left out of stripped_op_list: no op registry defines them (add one under ${labelOf('opRegistry')})`)]);
    }
    row('Collections', names(info.collections ?? []));
  }
  if (info.unboundInputs?.length) row('Unbound inputs', names(info.unboundInputs));
  if (info.excludedNodes?.length) row('Removed saver nodes', names(info.excludedNodes));
  if (info.strippedDefaultAttrs !== undefined) row('Default attrs stripped', formatCount(info.strippedDefaultAttrs));
  if (info.unknownDefaultOps?.length) row('Ops with unknown defaults', [names(info.unknownDefaultOps), h('div.muted', 'their attrs were kept')]);
  if (info.debugInfoNodes !== undefined) row('Nodes with debug info', formatCount(info.debugInfoNodes));
  return h('dl.info', rows);
}

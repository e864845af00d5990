// What a MegEngine export wrote: the dump info Network.dump returns, and what graphport
// kept from the loaded graph (names, metadata, optimizations) and why.
import { formatBytes, formatCount, h } from '../dom.mjs';

function names(list) {
  if (!list?.length) return h('span.muted', 'none');
  return list.map((n, i) => [i ? ', ' : '', h('code', n)]);
}

// info.optimized: "no", "as loaded", or what optimize_for_inference did: the options' flags,
// the operator counts before and after, and each pass that changed the graph.
function optimizedView(optimized) {
  if (typeof optimized !== 'object' || optimized === null) return String(optimized);
  const { before, after } = optimized.operators;
  const flags = optimized.flags.length ? optimized.flags.join(', ') : 'no option';
  const passes = optimized.passes.length
    ? h('ul.passes', optimized.passes.map((p) => h('li', [h('code', p.pass), `: ${p.did}`])))
    : h('span.muted', '; no pass changed the graph');
  return [
    `yes (${flags}; optimize_options ${optimized.optimizeOptions}), operators `,
    `${formatCount(before)} → ${formatCount(after)}`,
    passes,
  ];
}

export function exportInfoView(info) {
  const rows = [];
  const row = (label, value) => rows.push(h('dt', label), h('dd', value));
  row('Format', [info.format, info.header ? h('span.muted', ` (${info.header})`) : null]);
  row('content_hash', h('code', info.content_hash));
  row('nr_opr', formatCount(info.nr_opr));
  row('tot_bytes', formatBytes(info.tot_bytes));
  row('tensor_value_bytes', formatBytes(info.tensor_value_bytes));
  row('inputs', names(info.inputs));
  row('outputs', names(info.outputs));
  row('params', names(info.params));
  row('Optimized', optimizedView(info.optimized));
  for (const [what, why] of Object.entries(info.kept ?? {})) row(`Kept: ${what}`, why);
  return h('dl.info', rows);
}

// The op chart: how many nodes (TensorFlow) or operators (MegEngine) each type has, as a
// paged, filterable bar chart, the most common first.
import { formatCount, h, plural } from './dom.mjs';
import { pagedList } from './paged_list.mjs';

// ops: {type: count}; unit: what is counted ('node', 'operator').
export function opChart(ops, unit = 'node') {
  const entries = Object.entries(ops).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const max = entries.length ? entries[0][1] : 1;
  const total = entries.reduce((sum, [, n]) => sum + n, 0);
  return pagedList({
    items: entries,
    label: 'op types',
    pageSize: 15,
    tag: 'div.bars',
    matches: ([op], q) => op.toLowerCase().includes(q),
    renderRow: ([op, count]) => h('div.bar-row', { title: `${op}: ${plural(count, unit)} (${(100 * count / total).toFixed(1)}%)` },
      h('span.bar-name', op),
      h('span.bar-track', h('span.bar', { style: { width: `${Math.max(0.5, (100 * count) / max)}%` } })),
      h('span.bar-count', formatCount(count))),
  });
}

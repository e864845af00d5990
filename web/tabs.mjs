// Tabs over parts of a summary: each entry is [title, count, render]; a part is rendered
// only when its tab is picked, so a big model's long lists cost nothing until asked for.
import { clear, formatCount, h } from './dom.mjs';

export function tabs(entries) {
  const bar = h('div.tabs', { role: 'tablist' });
  const body = h('div.tab-body');
  const buttons = entries.map(([title, count], i) => h('button.tab', {
    type: 'button',
    role: 'tab',
    dataset: { tab: title.toLowerCase().replace(/\s+/g, '-') },
    onclick: () => select(i),
  }, title, h('span.count', formatCount(count))));
  function select(i) {
    buttons.forEach((b, j) => b.setAttribute('aria-selected', String(i === j)));
    clear(body, entries[i][2]());
  }
  bar.append(...buttons);
  select(0);
  return h('div', bar, body);
}

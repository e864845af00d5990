// Tabs over parts of a summary: each entry is [title, count, render]; a part is rendered
// only when its tab is picked, so a big model's long lists cost nothing until asked for.
// Keyboard as the ARIA tabs pattern has it: the picked tab is the one Tab stop, the arrow
// keys (and Home, End) move to another tab and pick it, the panel is named by its tab.
import { clear, formatCount, h } from './dom.mjs';

let made = 0;  // ids unique across the tab sets of a page

export function tabs(entries) {
  const prefix = `tabs-${++made}`;
  const bar = h('div.tabs', { role: 'tablist' });
  const body = h('div.tab-body', { role: 'tabpanel', id: `${prefix}-panel`, tabindex: '0' });
  const buttons = entries.map(([title, count], i) => h('button.tab', {
    type: 'button',
    role: 'tab',
    id: `${prefix}-${i}`,
    'aria-controls': body.id,
    dataset: { tab: title.toLowerCase().replace(/\s+/g, '-') },
    onclick: () => select(i),
  }, title, h('span.count', formatCount(count))));
  let current = 0;
  function select(i) {
    current = i;
    buttons.forEach((b, j) => {
      b.setAttribute('aria-selected', String(i === j));
      b.tabIndex = i === j ? 0 : -1;
    });
    body.setAttribute('aria-labelledby', buttons[i].id);
    clear(body, entries[i][2]());
  }
  const moves = {
    ArrowRight: () => (current + 1) % buttons.length,
    ArrowLeft: () => (current - 1 + buttons.length) % buttons.length,
    Home: () => 0,
    End: () => buttons.length - 1,
  };
  bar.addEventListener('keydown', (e) => {
    const move = moves[e.key];
    if (!move) return;
    e.preventDefault();
    select(move());
    buttons[current].focus();
  });
  bar.append(...buttons);
  select(0);
  return h('div', bar, body);
}

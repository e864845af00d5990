// A filterable list shown one page at a time, so a graph with thousands of ops or
// functions renders a few dozen rows, never all of them.
import { clear, formatCount, h } from './dom.mjs';

// items: any array; renderRow(item) -> element; matches(item, query) -> boolean.
// header: optional element placed above the rows (a table head, for example).
export function pagedList({ items, renderRow, matches, pageSize = 20, label = 'items', header,
  tag = 'div.rows' }) {
  let page = 0;
  let query = '';
  let shown = items;
  const rows = h(tag);
  const status = h('span.pager-status');
  const prev = h('button.small', { type: 'button', onclick: () => go(page - 1) }, '‹ Prev');
  const next = h('button.small', { type: 'button', onclick: () => go(page + 1) }, 'Next ›');
  const filter = matches && items.length > pageSize
    ? h('input.filter', {
      type: 'search',
      placeholder: `Filter ${formatCount(items.length)} ${label}…`,
      'aria-label': `Filter ${label}`,
      oninput: (e) => {
        query = e.target.value.trim().toLowerCase();
        shown = query ? items.filter((item) => matches(item, query)) : items;
        go(0);
      },
    })
    : null;
  const pager = h('div.pager', prev, status, next);

  function go(p) {
    const pages = Math.max(1, Math.ceil(shown.length / pageSize));
    page = Math.min(Math.max(0, p), pages - 1);
    const start = page * pageSize;
    const slice = shown.slice(start, start + pageSize);
    clear(rows, header ?? null, slice.map(renderRow));
    if (slice.length === 0) rows.append(h('div.empty', query ? `No ${label} match “${query}”.` : `No ${label}.`));
    prev.disabled = page === 0;
    next.disabled = page >= pages - 1;
    status.textContent = shown.length <= pageSize
      ? `${formatCount(shown.length)} ${label}`
      : `${formatCount(start + 1)}–${formatCount(start + slice.length)} of ${formatCount(shown.length)} ${label}`;
    pager.hidden = shown.length <= pageSize && !query;
  }

  go(0);
  return h('div.paged', filter, rows, pager);
}

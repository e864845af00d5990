// A filterable list shown one page at a time, so a graph with thousands of ops or
// functions renders a few dozen rows, never all of them.
import { clear, formatCount, h } from './dom.mjs';

// items: any array; renderRow(item) -> element; matches(item, query) -> boolean.
// header: optional element placed above the rows (a table head, for example).
// A list longer than `items` (inspect() holds only the first page of MegEngine's operators)
// gives `total` and fetchPage({offset, limit, filter}) -> Promise<{matched, items}>: pages past
// `items`, and every filtered page, are then asked for; an answer to a superseded request is
// dropped.
export function pagedList({ items, renderRow, matches, pageSize = 20, label = 'items', header,
  tag = 'div.rows', total = items.length, fetchPage = null }) {
  const remote = fetchPage !== null && total > items.length;
  let page = 0;
  let query = '';
  let shown = items;
  let shownCount = total;
  let asked = 0; // the latest request's number
  const rows = h(tag, { 'aria-live': remote ? 'polite' : null });
  const status = h('span.pager-status');
  const prev = h('button.small', { type: 'button', onclick: () => go(page - 1) }, '‹ Prev');
  const next = h('button.small', { type: 'button', onclick: () => go(page + 1) }, 'Next ›');
  const filter = matches && total > pageSize
    ? h('input.filter', {
      type: 'search',
      placeholder: `Filter ${formatCount(total)} ${label}…`,
      'aria-label': `Filter ${label}`,
      oninput: (e) => {
        query = e.target.value.trim().toLowerCase();
        if (!remote) {
          shown = query ? items.filter((item) => matches(item, query)) : items;
          shownCount = shown.length;
        }
        go(0);
      },
    })
    : null;
  const pager = h('div.pager', prev, status, next);

  function show(p, slice, count) {
    const pages = Math.max(1, Math.ceil(count / pageSize));
    page = Math.min(Math.max(0, p), pages - 1);
    const start = page * pageSize;
    clear(rows, header ?? null, slice.map(renderRow));
    if (slice.length === 0) rows.append(h('div.empty', query ? `No ${label} match “${query}”.` : `No ${label}.`));
    prev.disabled = page === 0;
    next.disabled = page >= pages - 1;
    status.textContent = count <= pageSize
      ? `${formatCount(count)} ${label}`
      : `${formatCount(start + 1)}–${formatCount(start + slice.length)} of ${formatCount(count)} ${label}`;
    pager.hidden = count <= pageSize && !query;
  }

  function go(p) {
    const ask = ++asked;
    const count = remote && query ? null : shownCount;
    if (count !== null) p = Math.min(Math.max(0, p), Math.max(0, Math.ceil(count / pageSize) - 1));
    const start = Math.max(0, p) * pageSize;
    if (!remote || (!query && start + pageSize <= items.length)) {
      show(p, shown.slice(start, start + pageSize), shownCount);
      return;
    }
    status.textContent = `Reading ${label}…`;
    prev.disabled = true;
    next.disabled = true;
    fetchPage({ offset: start, limit: pageSize, filter: query }).then(
      (answer) => {
        if (ask !== asked) return;
        if (answer.items.length === 0 && start > 0 && answer.matched > 0) {
          go(Math.ceil(answer.matched / pageSize) - 1); // the filter left fewer pages
          return;
        }
        show(Math.max(0, p), answer.items, answer.matched);
      },
      (error) => {
        if (ask !== asked) return;
        clear(rows, h('div.empty', `The ${label} could not be read: ${error?.message ?? error}`));
        status.textContent = '';
      },
    );
  }

  go(0);
  return h('div.paged', filter, rows, pager);
}

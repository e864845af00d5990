// Small DOM and formatting helpers shared by the page's modules (no framework).

// h('div.card', {title: 'x', onclick: fn}, child, 'text', [more children])
export function h(tag, props, ...children) {
  const [name, ...classes] = tag.split('.');
  const el = document.createElement(name || 'div');
  if (classes.length) el.className = classes.join(' ');
  if (props && (typeof props !== 'object' || props instanceof Node || Array.isArray(props))) {
    children.unshift(props);
    props = null;
  }
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on')) el.addEventListener(key.slice(2), value);
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key === 'style' && typeof value === 'object') Object.assign(el.style, value);
    else if (key in el && typeof value !== 'string') el[key] = value;
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : String(child));
  }
}

export function clear(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

// 1536 -> "1.5 KB" (decimal units, as file managers and browsers show sizes).
export function formatBytes(n) {
  if (!Number.isFinite(n)) return '?';
  let i = 0;
  let v = n;
  while (v >= 1000 && i < UNITS.length - 1) {
    v /= 1000;
    i += 1;
  }
  if (i === 0) return `${n} B`;
  return `${v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)} ${UNITS[i]}`;
}

// Thousands with commas, as 'en-US' does. Not toLocaleString: its first call loads ICU's
// number data, a 35 ms stall of the page's thread just as a summary appears.
export function formatCount(n) {
  const [whole, fraction] = String(Number(n)).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, ',');
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}

export function plural(n, one, many = `${one}s`) {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

export function formatSeconds(s) {
  return s < 1 ? `${Math.max(1, Math.round(s * 1000))} ms` : `${s.toFixed(1)} s`;
}

// One labelled fact of a summary ("Format: saved-model"); `field` names it for tests.
export function fact(label, value, field) {
  return h('div.fact', h('span.fact-label', label), h('span.fact-value', { dataset: { field } }, value));
}

// What the page does with the files a user gives (one file, several, a dropped folder). The
// core decides what they are; the page only names the set, offers a choice when the core
// cannot pick the graph among several, and titles the core's UNSUPPORTED answer.

// Files the core may name as candidates when it cannot choose: used only when its message
// names none of the given paths.
const GRAPH_LIKE = /\.(pb|pbtxt|meta|txt|graphdef|prototxt|json|mge)$/i;

function topFolder(path) {
  const slash = path.indexOf('/');
  return slash > 0 ? path.slice(0, slash) : null;
}

// The name load() reports in messages: the file, the dropped folder, or "N files".
export function inputName(entries) {
  if (entries.length === 1) return entries[0].path;
  const tops = new Set(entries.map((e) => topFolder(e.path)));
  const [only] = tops;
  return tops.size === 1 && only ? only : `${entries.length} files`;
}

// The set load() gets: the paths inside the one folder they share, that folder being the
// set's name (the core puts the name before each path in its messages: "m/saved_model.pb"),
// or the paths as given under "N files". One file is named by its path.
export function namedSet(entries) {
  const name = inputName(entries);
  const prefix = entries.length > 1 && entries.every((e) => e.path.startsWith(`${name}/`)) ? `${name}/` : '';
  return { name, entries: entries.map((e) => ({ ...e, path: e.path.slice(prefix.length) })) };
}

// After UNKNOWN_FORMAT for several files: the ones to offer, so the user picks the graph.
// The core's message names the graph files it found ("2 graph files (a.pb, b.meta)").
export function graphChoices(entries, error) {
  if (entries.length < 2 || error?.code !== 'UNKNOWN_FORMAT') return [];
  const message = error.message ?? '';
  const named = entries.filter((e) => message.includes(e.path));
  if (named.length > 1) return named;
  return entries.filter((e) => GRAPH_LIKE.test(e.path));
}

// The family an UNSUPPORTED message names ("a MegEngine FBS v1 dump: …"): the longest family
// title found in it, so "TensorFlow.js" wins over "TensorFlow". null when none is named.
export function namedFamily(message, families) {
  let best = null;
  for (const family of families ?? []) {
    if (message?.includes(family.title) && (!best || family.title.length > best.title.length)) {
      best = family;
    }
  }
  return best;
}

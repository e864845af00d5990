// Decides what to load when the user gives one file or several (a dropped folder, a
// multi-selection), and recognises the inputs the core cannot read yet.

const SAVED_MODEL = /^saved_model\.pb(txt)?$/i;
const TFJS_SHARD = /^group\d+-shard\d+of\d+(\.bin)?$/i;
const GRAPH_LIKE = /\.(pb|pbtxt|meta|txt|graphdef|prototxt)$/i;

export const UNSUPPORTED = {
  tfjs: {
    title: 'TensorFlow.js graph models are not supported yet',
    body: 'This looks like a TensorFlow.js graph model (model.json with weight shards). ' +
      'graphport’s core does not read TensorFlow.js models yet; support is planned. ' +
      'Until then, open the frozen GraphDef or SavedModel the model was converted from.',
  },
  mge: {
    title: 'MegEngine models are not supported yet',
    body: 'This looks like a MegEngine model file. graphport’s core does not read MegEngine ' +
      'models yet; support for MegEngine’s Network.dump options is planned.',
  },
};

function baseName(path) {
  return path.slice(path.lastIndexOf('/') + 1);
}

function depth(path) {
  return path.split('/').length;
}

// [{file, path}] -> what to do:
//   {kind: 'load', entry, note}              load this one
//   {kind: 'unsupported', which, paths}      a TensorFlow.js or MegEngine model
//   {kind: 'choose', entries, note}          several candidates: let the user pick
//   {kind: 'none'}                           nothing given
export function chooseInput(entries) {
  const visible = entries.filter((e) => !baseName(e.path).startsWith('.'));
  if (visible.length === 0) return { kind: 'none' };
  if (visible.length === 1) return { kind: 'load', entry: visible[0], note: '' };

  const others = visible.length === 2 ? 'other file' : `${visible.length - 1} other files`;
  const saved = visible.filter((e) => SAVED_MODEL.test(baseName(e.path)))
    .sort((a, b) => depth(a.path) - depth(b.path) || a.path.localeCompare(b.path));
  if (saved.length === 1 || (saved.length > 1 && depth(saved[0].path) < depth(saved[1].path))) {
    return {
      kind: 'load',
      entry: saved[0],
      note: `Opened ${saved[0].path}. The ${others} given ${visible.length === 2 ? 'is' : 'are'} ` +
        'not needed to export the graph (variables, assets and fingerprints hold no graph).',
    };
  }
  if (saved.length > 1) {
    return { kind: 'choose', entries: saved, note: 'There are several SavedModels here: pick one.' };
  }
  const names = visible.map((e) => baseName(e.path));
  if (names.some((n) => /\.json$/i.test(n)) && names.some((n) => TFJS_SHARD.test(n) || /^model\.json$/i.test(n))) {
    return { kind: 'unsupported', which: 'tfjs', paths: visible.map((e) => e.path) };
  }
  if (names.some((n) => /\.mge$/i.test(n))) {
    return { kind: 'unsupported', which: 'mge', paths: visible.map((e) => e.path) };
  }
  const graphs = visible.filter((e) => GRAPH_LIKE.test(e.path));
  if (graphs.length === 1) {
    return {
      kind: 'load',
      entry: graphs[0],
      note: `Opened ${graphs[0].path}, the only graph-like file of the ${visible.length} given.`,
    };
  }
  return {
    kind: 'choose',
    entries: graphs.length ? graphs : visible,
    note: `${visible.length} files were given: pick the one that holds the graph.`,
  };
}

// After the core said UNKNOWN_FORMAT: is this a model of a family it does not read yet?
// Returns 'tfjs', 'mge' or null. Looks at the name and the first bytes only.
export async function sniffUnsupported(file) {
  const name = file.name ?? '';
  const head = new Uint8Array(await file.slice(0, 4096).arrayBuffer());
  const ascii = (from, to) => String.fromCharCode(...head.subarray(from, to));
  const magic4 = ascii(0, 4);
  if (/\.mge$/i.test(name) || magic4 === 'MGBS' || magic4 === 'MGBC' || ascii(8, 12) === 'mgv2' ||
      ['mgbtest0', 'mgb0001', 'mgb0000a'].some((m) => ascii(0, m.length) === m)) {
    return 'mge';
  }
  const text = new TextDecoder('utf-8', { fatal: false }).decode(head);
  if (/^\s*\{/.test(text) && /"(modelTopology|weightsManifest)"|"format"\s*:\s*"graph-model"/.test(text)) {
    return 'tfjs';
  }
  if (/^model\.json$/i.test(name)) return 'tfjs';
  return null;
}

// The export options of tf.train.export_meta_graph as the page shows them: grouped as the
// seed groups them, each with its help text and TensorFlow's argument name, and the checks
// that explain an invalid or surprising combination before the export runs. No DOM here.
import { formatCount, plural } from './dom.mjs';

export const GROUPS = [
  {
    id: 'output',
    title: 'Output',
    options: ['to', 'asText', 'filename'],
  },
  {
    id: 'graph',
    title: 'Graph',
    options: ['exportScope', 'clearDevices', 'clearExtraneousSavers', 'stripDefaultAttrs', 'opRegistry'],
  },
  {
    id: 'content',
    title: 'Content',
    options: ['collectionList', 'metaInfoDef', 'saverDef', 'graphDef'],
  },
  {
    id: 'debug',
    title: 'Debug info',
    options: ['saveDebugInfo'],
  },
];

export const KINDS = {
  'meta-graph': 'MetaGraphDef',
  'graph-def': 'GraphDef',
  'saved-model': 'SavedModel',
};

// kind: choice | bool | text | collections | message (a protobuf message read from a file).
// tf: the argument of tf.train.export_meta_graph, or null for graphport's own options.
export const OPTIONS = {
  to: {
    kind: 'choice',
    label: 'Write as',
    tf: null,
    choices: Object.entries(KINDS),
    help: 'The kind of file to write. export_meta_graph writes a MetaGraphDef; a GraphDef ' +
      'holds only the graph, a SavedModel wraps the MetaGraphDef.',
  },
  asText: {
    kind: 'bool',
    label: 'Text format',
    tf: 'as_text',
    help: 'Write protobuf text format (readable, larger) instead of binary.',
  },
  filename: {
    kind: 'text',
    label: 'File name',
    tf: 'filename',
    help: 'Name of the main output file. Leave empty for the default of the kind and format.',
  },
  exportScope: {
    kind: 'text',
    label: 'Export scope',
    tf: 'export_scope',
    placeholder: 'e.g. tower_0 or model/dense',
    suggestions: 'scopes',
    help: 'Export only the nodes under this name scope, with the scope removed from their ' +
      'names. Inputs from outside become $unbound_inputs_… and are listed in the ' +
      'unbound_inputs collection.',
  },
  clearDevices: {
    kind: 'bool',
    label: 'Clear devices',
    tf: 'clear_devices',
    help: 'Empty the device (e.g. /device:GPU:0) of every top-level node, so the graph can ' +
      'be placed anywhere when it is imported.',
  },
  clearExtraneousSavers: {
    kind: 'bool',
    label: 'Clear extraneous savers',
    tf: 'clear_extraneous_savers',
    help: 'Drop the save/restore subgraphs of every saver other than the exported SaverDef’s, ' +
      'and rewrite the savers collection.',
  },
  stripDefaultAttrs: {
    kind: 'bool',
    label: 'Strip default attrs',
    tf: 'strip_default_attrs',
    help: 'Drop every attr whose value equals its op’s default, in nodes and function bodies: ' +
      'smaller files that older TensorFlow versions can read.',
  },
  opRegistry: {
    kind: 'message',
    label: 'Op registry',
    tf: null,
    message: 'OpList',
    help: 'An OpList file (TensorFlow’s ops.pbtxt, for example) consulted first for op ' +
      'definitions and attr defaults, by strip_default_attrs and stripped_op_list.',
  },
  collectionList: {
    kind: 'collections',
    label: 'Collections',
    tf: 'collection_list',
    help: 'The collections to export: all of them by default, or the ones you tick ' +
      '(none ticked means none).',
  },
  metaInfoDef: {
    kind: 'message',
    label: 'MetaInfoDef',
    tf: 'meta_info_def',
    message: 'MetaInfoDef',
    help: 'A MetaInfoDef whose set fields replace the loaded ones (tags, tensorflow_version, …); ' +
      'the fields it leaves unset keep their loaded values.',
  },
  saverDef: {
    kind: 'message',
    label: 'SaverDef',
    tf: 'saver_def',
    message: 'SaverDef',
    help: 'The SaverDef to export instead of the loaded one; clear_extraneous_savers keeps its saver.',
  },
  graphDef: {
    kind: 'message',
    label: 'GraphDef',
    tf: 'graph_def',
    message: 'GraphDef',
    help: 'A GraphDef to export instead of the loaded graph.',
  },
  saveDebugInfo: {
    kind: 'bool',
    label: 'Save debug info',
    tf: 'save_debug_info',
    help: 'Also write the GraphDebugInfo (stack traces) of the exported nodes to a second file, ' +
      'named with _debug before the extension.',
  },
};

export function initialState() {
  return {
    to: 'meta-graph',
    asText: false,
    filename: '',
    exportScope: '',
    clearDevices: false,
    clearExtraneousSavers: false,
    stripDefaultAttrs: false,
    saveDebugInfo: false,
    collectionMode: 'all', // 'all' | 'choose'
    collections: [], // the ticked keys when collectionMode is 'choose'
    // Message options read from files: {name, value (object | Uint8Array) | null, error}
    opRegistry: null,
    metaInfoDef: null,
    saverDef: null,
    graphDef: null,
  };
}

const DEFAULT_NAMES = {
  'meta-graph': ['model.meta', 'model.pbtxt'],
  'graph-def': ['graph.pb', 'graph.pbtxt'],
  'saved-model': ['saved_model.pb', 'saved_model.pbtxt'],
};

export function defaultFilename(to, asText) {
  return DEFAULT_NAMES[to][asText ? 1 : 0];
}

// The core's rule: "_debug" before the last extension (model.meta -> model_debug.meta).
export function debugFilename(name) {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)}_debug${name.slice(dot)}` : `${name}_debug`;
}

// Reads a message option from the bytes of a file: protobuf-JSON becomes an object, binary or
// text format travels as bytes and the core tells which. {value, error, encoding}.
export function parseMessageFile(name, bytes) {
  if (bytes.length === 0) return { value: null, error: `${name} is empty`, encoding: null };
  let i = 0;
  while (i < bytes.length && i < 4096 && (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)) i += 1;
  if (bytes[i] === 0x7b /* { */ || /\.json$/i.test(name)) {
    try {
      const value = JSON.parse(new TextDecoder().decode(bytes));
      if (!value || typeof value !== 'object' || Array.isArray(value)) {
        return { value: null, error: `${name}: protobuf JSON must be an object`, encoding: 'json' };
      }
      return { value, error: null, encoding: 'json' };
    } catch (e) {
      return { value: null, error: `${name} is not valid JSON: ${e.message}`, encoding: 'json' };
    }
  }
  return { value: bytes, error: null, encoding: 'protobuf' };
}

// Saver ops (TensorFlow's SAVE_AND_RESTORE_OPS, plus the real V1 SaveSlices).
const SAVER_OPS = ['SaveV2', 'Save', 'SaveSlice', 'SaveSlices', 'LegacySave', 'LegacySaveSlice',
  'RestoreV2', 'Restore', 'RestoreSlice', 'LegacyRestore', 'LegacyRestoreSlice'];

// Node names the summary does reveal: the tensors of the signatures ("x:0" -> node "x").
// Node names the summary shows: those of the signature tensors.
function knownNodeNames(summary) {
  const names = new Set();
  for (const signature of summary?.signatures ?? []) {
    for (const side of [signature.inputs, signature.outputs]) {
      for (const tensor of Object.values(side ?? {})) {
        if (tensor?.name) names.add(tensor.name.replace(/^\^/, '').replace(/:\d+$/, ''));
      }
    }
  }
  return names;
}

// Levenshtein distance: how many one-character edits turn a into b.
function editDistance(a, b) {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const next = [i];
    for (let j = 1; j <= b.length; j += 1) {
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length];
}

// What the summary says of `scope` (trailing slashes dropped): {nodeCount} when it is a
// listed scope; {missing: true, similar} when the list is whole and lacks it; null when the
// list was capped and does not show it.
export function lookUpScope(summary, scope) {
  const scopes = summary?.scopes ?? [];
  const found = scopes.find((s) => s.name === scope);
  if (found) return { nodeCount: found.nodeCount };
  if (knownNodeNames(summary).has(scope)) return { nodeCount: 1 };
  if (scopes.length < (summary?.scopeCount ?? 0)) return null;
  const lower = scope.toLowerCase();
  const near = Math.max(1, Math.floor(scope.length / 4));
  const similar = scopes
    .map((s) => ({ name: s.name, distance: editDistance(s.name.toLowerCase(), lower) }))
    .filter(({ name, distance }) => distance <= near || name.toLowerCase().startsWith(lower))
    .sort((a, b) => a.distance - b.distance || a.name.length - b.name.length)
    .slice(0, 4)
    .map(({ name }) => name);
  return { missing: true, similar };
}

// A scope is a node-name prefix: TensorFlow's node names match
// ^[A-Za-z0-9.][A-Za-z0-9_.\-/>]*$, and graphport puts the scope boundary at a "/".
function scopeProblem(scope) {
  if (scope.startsWith('/')) {
    return `“${scope}” starts with “/”: a scope is a node name prefix such as “tower_0” or “model/dense”, without a leading slash`;
  }
  if (scope.includes('//')) return `“${scope}” has an empty part (“//”): node names never do`;
  const bad = [...scope].find((c) => !/[A-Za-z0-9_.\-/>]/.test(c));
  if (bad !== undefined) {
    const shown = bad === ' ' ? 'a space' : `“${bad}”`;
    return `“${scope}” has ${shown}, which TensorFlow never puts in node names (they use letters, digits and _ . - / >)`;
  }
  if (!/^[A-Za-z0-9.]/.test(scope)) {
    return `“${scope}” starts with “${scope[0]}”: node names start with a letter, a digit or “.”`;
  }
  return null;
}

// What an export with these settings will do, before it runs:
//   {options, files, errors, warnings, notes}
// options: the ExportOptions for model.export(); files: the names it will write.
// errors block the export; warnings and notes explain what will happen.
export function planExport(state, summary) {
  const errors = [];
  const warnings = [];
  const notes = [];
  const say = (list, option, text) => list.push({ option, text });
  const options = { to: state.to };
  const graphDefOut = state.to === 'graph-def';

  if (state.asText) options.asText = true;

  const filename = state.filename.trim();
  const main = filename || defaultFilename(state.to, state.asText);
  if (filename) {
    if (/[/\\]/.test(filename)) {
      say(errors, 'filename', `“${filename}” is a path: give a file name only (the browser chooses the folder)`);
    } else if (filename === '.' || filename === '..') {
      say(errors, 'filename', `“${filename}” is not a file name`);
    } else {
      options.filename = filename;
    }
    if (state.asText && /\.(pb|meta)$/i.test(filename)) {
      say(warnings, 'filename', `${filename} will hold text format although its extension says binary; .pbtxt is usual for text`);
    } else if (!state.asText && /\.(pbtxt|txt)$/i.test(filename)) {
      say(warnings, 'filename', `${filename} will hold binary protobuf although its extension says text; tick Text format for text`);
    }
  }

  const scope = state.exportScope.trim();
  if (scope) {
    const problem = scopeProblem(scope);
    if (problem) {
      say(errors, 'exportScope', problem);
    } else if (summary && summary.nodeCount === 0 && !state.graphDef) {
      say(errors, 'exportScope', 'the graph has no nodes, so no scope can match');
    } else {
      options.exportScope = scope;
      const bare = scope.replace(/\/+$/, '');
      if (state.graphDef?.value) {
        say(notes, 'exportScope', 'the scope applies to the GraphDef from the file (TensorFlow’s documentation says the two cannot be combined, but its code, like graphport, accepts both)');
      } else {
        const known = lookUpScope(summary, bare);
        if (known?.missing) {
          // A warning, not an error: a node named exactly “bare” (with nothing under it) is
          // a scope of one that the summary cannot show.
          const like = known.similar.length
            ? ` Scopes with a similar name: ${known.similar.map((n) => `“${n}”`).join(', ')}.`
            : '';
          say(warnings, 'exportScope', `no node name starts with “${bare}/”, so the export will fail unless one node is named exactly “${bare}”.${like}`);
        } else if (known) {
          say(notes, 'exportScope', `exports the ${plural(known.nodeCount, 'node')} in scope “${bare}”, named without “${bare}/”`);
        } else {
          say(notes, 'exportScope', `“${bare}” is not among the ${formatCount(summary.scopes.length)} scopes listed of ${formatCount(summary.scopeCount)}; whether nodes are in it is checked when you export`);
        }
      }
    }
  }

  if (state.clearDevices) options.clearDevices = true;
  if (state.stripDefaultAttrs) options.stripDefaultAttrs = true;

  if (state.clearExtraneousSavers) {
    options.clearExtraneousSavers = true;
    const saverOps = Object.keys(summary?.ops ?? {}).filter((op) => SAVER_OPS.includes(op));
    if (!state.graphDef?.value && summary && saverOps.length === 0) {
      say(warnings, 'clearExtraneousSavers', 'the graph has no save or restore ops, so this changes nothing');
    } else if (summary && !summary.hasSaver && !state.saverDef?.value) {
      say(warnings, 'clearExtraneousSavers', 'the model has no SaverDef and none is given, so no saver is kept: every save/restore subgraph is dropped');
    }
  }

  for (const key of ['opRegistry', 'metaInfoDef', 'saverDef', 'graphDef']) {
    const chosen = state[key];
    if (!chosen) continue;
    if (chosen.error) say(errors, key, chosen.error);
    else options[key] = chosen.value;
  }

  const collections = summary?.collections ?? [];
  if (state.collectionMode === 'choose') {
    const known = new Set(collections.map((c) => c.name));
    const picked = state.collections.filter((name) => known.has(name));
    options.collectionList = picked;
    if (picked.length === 0) {
      say(notes, 'collectionList', 'no collection is ticked, so none is exported (collection_list=[])');
    }
  }
  if (graphDefOut) {
    const dropped = [];
    if (collections.length) dropped.push('collections');
    if (state.metaInfoDef?.value) dropped.push('the MetaInfoDef');
    if (state.saverDef?.value) dropped.push('the SaverDef');
    if (summary?.signatures?.length) dropped.push('signatures');
    if (dropped.length) {
      say(warnings, 'to', `a GraphDef holds only nodes, functions and versions: ${dropped.join(', ')} will not be written`);
    }
  }

  const files = [main];
  if (state.saveDebugInfo) {
    options.saveDebugInfo = true;
    const debug = debugFilename(main);
    files.push(debug);
    say(notes, 'saveDebugInfo', `adds ${debug} (empty when the input holds no stack traces); both files also come as one .zip`);
  }

  return { options, files, errors, warnings, notes };
}

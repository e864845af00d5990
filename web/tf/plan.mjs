// The TensorFlow export plan: what an export with the form's values will write, and the
// checks that explain an invalid or surprising combination before it runs. The form's values
// are keyed by the schema's option names; the options themselves (labels, help, defaults)
// come from the core's schema. No DOM here.
import { formatBytes, formatCount, plural } from '../dom.mjs';

const DEFAULT_NAMES = {
  'meta-graph': ['model.meta', 'model.pbtxt'],
  'graph-def': ['graph.pb', 'graph.pbtxt'],
  'saved-model': ['saved_model.pb', 'saved_model.pbtxt'],
  // tfjs-converter's layout: the manifest is always model.json, JSON either way.
  tfjs: ['model.json', 'model.json'],
};

export function defaultFilename(to, asText) {
  return DEFAULT_NAMES[to][asText ? 1 : 0];
}

// The core's rule: "_debug" before the last extension (model.meta -> model_debug.meta).
export function debugFilename(name) {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)}_debug${name.slice(dot)}` : `${name}_debug`;
}

// Node names the summary shows: those of the signature tensors ("x:0" -> node "x").
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

// The TensorFlow.js options (quantization, shards, the op check) go only with to: 'tfjs';
// the plan adds them there and says where they would be ignored otherwise. unfuseOps is not
// one of them: it is there so that TensorFlow can import the graph, whatever is written; nor
// is allowUnsupportedOps with it (TensorFlow's registry is checked then).
const TFJS_OPTIONS = ['quantize', 'quantizeWeights', 'shardSize', 'allowUnsupportedOps'];

function tfjsOptionsSet(state) {
  return TFJS_OPTIONS.filter((key) => {
    if (key === 'allowUnsupportedOps' && state.unfuseOps) return false;
    const value = state[key];
    if (key === 'shardSize') return value !== '' && value !== null && value !== undefined && Number(value) !== 4194304;
    if (key === 'quantizeWeights') return Array.isArray(value) && value.length > 0;
    return Boolean(value);
  });
}

// Bytes per value of each quantization dtype.
const QUANTIZED_BYTES = { uint8: 1, uint16: 2, float16: 2 };

// The summary's facts (a TF.js model's weights, their bytes and quantization): weights the
// source holds as uint8 or uint16 codes are read as float32 and quantized afresh, so a wider
// `quantize` grows them (uint8 → float16 doubles them). The core says the same after the
// export (info.quantization); null when nothing grows. With quantizeWeights only the weights
// its patterns match are quantized (the core's fnmatch decides), so the figure is a bound.
function requantizeGrowth(summary, quantize, patterns) {
  const weights = (summary?.tfjs?.weights ?? []).filter((w) => w.quantization?.dtype in QUANTIZED_BYTES);
  const wider = weights.filter((w) => QUANTIZED_BYTES[w.quantization.dtype] < QUANTIZED_BYTES[quantize]);
  if (!wider.length) return null;
  const before = wider.reduce((sum, w) => sum + w.bytes, 0);
  const after = wider.reduce((sum, w) => sum + w.shape.reduce((n, d) => n * d, 1) * QUANTIZED_BYTES[quantize], 0);
  const dtypes = [...new Set(wider.map((w) => w.quantization.dtype))].join(' and ');
  const bound = patterns?.length ? 'up to ' : '';
  return `${plural(wider.length, 'weight')} held as ${dtypes} codes (${formatBytes(before)}) are read as float32 and written as ${quantize}: ${bound}${formatBytes(after)}, the model grows by ${bound}${formatBytes(after - before)}`;
}

function planTfjs(state, summary, { options, files, say, errors, warnings, notes }) {
  if ((state.filename ?? '').trim()) {
    delete options.filename;
    files[0] = 'model.json';
    say(warnings, 'filename', 'a TensorFlow.js model’s manifest is always model.json, beside its weight shards: File name is not used');
  }
  if (state.asText) {
    delete options.asText;
    say(notes, 'asText', 'model.json is JSON either way: Text format changes nothing');
  }
  if (state.quantize) {
    options.quantize = state.quantize;
    const grows = requantizeGrowth(summary, state.quantize, state.quantizeWeights);
    if (grows) say(warnings, 'quantize', grows);
  }
  if (Array.isArray(state.quantizeWeights) && state.quantizeWeights.length) {
    options.quantizeWeights = state.quantizeWeights;
    if (!state.quantize) say(errors, 'quantizeWeights', 'needs a quantization type under Quantize weights');
  }
  const shard = state.shardSize;
  if (shard !== '' && shard !== null && shard !== undefined) {
    const n = Number(shard);
    if (!Number.isSafeInteger(n) || n < 1) say(errors, 'shardSize', `“${shard}” is not a positive whole number of bytes`);
    else if (n !== 4194304) options.shardSize = n;
  }
  if (state.allowUnsupportedOps) {
    options.allowUnsupportedOps = true;
    say(warnings, 'allowUnsupportedOps', 'ops the TF.js runtime cannot run are written anyway (listed after the export): the model runs only where they are registered (tf.registerOp)');
  }
  files.push('group1-shard…of….bin');
  say(notes, 'to', 'writes model.json and its weight shards as tfjs-converter lays them out; all come as one .zip');
}

// Freezing: the core freezes a SavedModel with variables on its way to TF.js unless told not
// to; the plan passes the choices on and says what will happen.
function planFreeze(state, summary, { options, say, errors, warnings, notes }) {
  const signature = (state.signature ?? '').trim();
  if (signature && signature !== 'serving_default') options.signature = signature;
  const key = signature || 'serving_default';
  const known = (summary?.signatures ?? []).map((s) => s.name);
  // Freeze is on, off or unset (null): unset leaves the core's default, which freezes on the
  // way to TF.js when the graph needs it.
  const needed = state.to === 'tfjs' && Boolean(summary?.needsFreeze);
  const freezing = state.freeze === true || (state.freeze !== false && needed);
  if (typeof state.freeze === 'boolean') options.freeze = state.freeze;
  if (state.freeze === false && needed) {
    // Not an error: the user may export anyway and read the core's refusal.
    say(warnings, 'freeze', 'off, but TF.js cannot run this graph’s variables and function calls: the export to TF.js is refused (the pre-flight lists them)');
  }
  if (!freezing) return;
  if (known.length && !known.includes(key)) {
    say(errors, 'signature', `the model has no signature “${key}” (it has ${known.filter((n) => !n.startsWith('__')).join(', ') || 'none'})`);
    return;
  }
  const variables = summary?.variables?.length ?? 0;
  // The signature may read only some of the checkpoint's variables: which ones, the export says.
  say(notes, 'freeze', `freezes signature “${key}”: its function and calls inlined${variables ? `, the variables it reads (of the checkpoint's ${variables}) made constants` : ''}, pruned to its outputs`);
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
  const tfjsSet = tfjsOptionsSet(state);
  if (state.to !== 'tfjs' && tfjsSet.length) {
    for (const key of tfjsSet) say(warnings, key, 'is used only when writing a TensorFlow.js model (Write as: TensorFlow.js)');
  }

  const filename = (state.filename ?? '').trim();
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

  const scope = (state.exportScope ?? '').trim();
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

  planFreeze(state, summary, { options, say, errors, warnings, notes });
  if (state.unfuseOps) options.unfuseOps = true;
  if (state.clearDevices) options.clearDevices = true;
  if (state.stripDefaultAttrs) options.stripDefaultAttrs = true;

  // Which ops are save/restore ops is the core's to say (the page kept a copy of the list, and
  // it drifted): the plan says only what the summary tells, whether there is a SaverDef.
  if (state.clearExtraneousSavers) {
    options.clearExtraneousSavers = true;
    if (summary && !summary.hasSaver && !state.saverDef?.value) {
      say(warnings, 'clearExtraneousSavers', 'the model has no SaverDef and none is given, so no saver is kept: every save/restore subgraph is dropped');
    }
  }

  for (const key of ['opRegistry', 'metaInfoDef', 'saverDef', 'graphDef']) {
    const chosen = state[key];
    if (!chosen) continue;
    if (chosen.error) say(errors, key, chosen.error);
    else options[key] = chosen.value;
  }

  // collectionList: null exports every collection (the default), a list only those.
  const collections = summary?.collections ?? [];
  if (Array.isArray(state.collectionList)) {
    const known = new Set(collections.map((c) => c.name));
    const picked = state.collectionList.filter((name) => known.has(name));
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
  if (state.to === 'tfjs') planTfjs(state, summary, { options, files, say, errors, warnings, notes });
  // Writing a TensorFlow format with unfuseOps, the export refuses ops TensorFlow's registry
  // lacks unless allowUnsupportedOps.
  if (state.to !== 'tfjs' && state.unfuseOps && state.allowUnsupportedOps) {
    options.allowUnsupportedOps = true;
    say(warnings, 'allowUnsupportedOps', 'ops TensorFlow’s registry lacks are written anyway (listed after the export): TensorFlow imports the graph only where they are registered');
  }
  if (state.saveDebugInfo) {
    options.saveDebugInfo = true;
    const debug = debugFilename(main);
    files.push(debug);
    say(notes, 'saveDebugInfo', `adds ${debug} (empty when the input holds no stack traces); both files also come as one .zip`);
  }
  // A SavedModel out of a SavedModel folder is the whole folder: its variables and assets
  // pass through, after the graph's files.
  if (state.to === 'saved-model') {
    const folder = summary?.savedModelFiles ?? [];
    files.push(...folder.map((f) => f.name));
    if (folder.length) {
      say(notes, 'to', `the folder’s ${plural(folder.length, 'file')} (variables, assets) pass through byte for byte; all come as one .zip`);
    } else if (summary?.format === 'saved-model') {
      say(notes, 'to', 'only the graph was given, so the SavedModel has no variables/ or assets/: open the whole folder to export them too');
    }
  }

  return { options, files, errors, warnings, notes };
}

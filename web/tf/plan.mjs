// The TensorFlow export plan: the request the schema makes of the form's values (every option
// goes, web/export_request.mjs), the files the export will write, and the checks that explain
// an invalid or surprising combination before it runs. The options, their defaults (the file
// names by kind) and when they apply are the core's schema; this adds TensorFlow's wording and
// what the summary tells. No DOM here.
import { formatBytes, formatCount, plural } from '../dom.mjs';
import { addedFileName, derivedDefault, requestedValue, schemaPlan } from '../export_request.mjs';

// The main file's name when none is given, as the core names it (the schema's defaultWhen).
export function defaultFilename(schema, options) {
  return derivedDefault(schema, options, schema.options.find((o) => o.name === 'filename'));
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

function planTfjs(options, summary, { files, say, warnings, notes }) {
  if (options.quantize) {
    const grows = requantizeGrowth(summary, options.quantize, options.quantizeWeights);
    if (grows) say(warnings, 'quantize', grows);
  }
  if (options.allowUnsupportedOps) {
    say(warnings, 'allowUnsupportedOps', 'ops the TF.js runtime cannot run are written anyway (listed after the export): the model runs only where they are registered (tf.registerOp)');
  }
  files.push('group1-shard…of….bin');
  say(notes, 'to', 'writes model.json and its weight shards as tfjs-converter lays them out; all come as one .zip');
}

// Freezing: the core freezes a SavedModel with variables on its way to TF.js unless told not
// to; the plan says what will happen.
function planFreeze(options, summary, { to, schema, say, errors, warnings, notes }) {
  const key = requestedValue(schema, options, 'signature');
  const known = (summary?.signatures ?? []).map((s) => s.name);
  // Freeze is on, off or unset: unset leaves the core's default, which freezes on the way to
  // TF.js when the graph needs it.
  const needed = to === 'tfjs' && Boolean(summary?.needsFreeze);
  const freezing = options.freeze === true || (options.freeze !== false && needed);
  if (options.freeze === false && needed) {
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

// A name that is a path is the request's error (the schema's fileName); what its extension
// says is the plan's.
function planFilename(filename, asText, { say, warnings }) {
  if (asText && /\.(pb|meta)$/i.test(filename)) {
    say(warnings, 'filename', `${filename} will hold text format although its extension says binary; .pbtxt is usual for text`);
  } else if (!asText && /\.(pbtxt|txt)$/i.test(filename)) {
    say(warnings, 'filename', `${filename} will hold binary protobuf although its extension says text; tick Text format for text`);
  }
}

function planScope(scope, options, summary, { say, errors, warnings, notes }) {
  const problem = scopeProblem(scope);
  if (problem) {
    say(errors, 'exportScope', problem);
    return;
  }
  if (summary && summary.nodeCount === 0 && !options.graphDef) {
    say(errors, 'exportScope', 'the graph has no nodes, so no scope can match');
    return;
  }
  const bare = scope.replace(/\/+$/, '');
  if (options.graphDef) {
    say(notes, 'exportScope', 'the scope applies to the GraphDef from the file (TensorFlow’s documentation says the two cannot be combined, but its code, like graphport, accepts both)');
    return;
  }
  const known = lookUpScope(summary, bare);
  if (known?.missing) {
    // A warning, not an error: a node named exactly “bare” (with nothing under it) is a
    // scope of one that the summary cannot show.
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

// What an export with these settings will do, before it runs:
//   {options, files, errors, warnings, notes}
// options: the ExportOptions for model.export(), made from the schema (every option the form
// holds); files: the names it will write. errors block the export; warnings and notes explain.
export function planExport(state, summary, schema) {
  const plan = schemaPlan(schema, state);
  const { options, errors, warnings, notes } = plan;
  const say = (list, option, text) => list.push({ option, text });
  const to = requestedValue(schema, options, 'to');
  const context = { to, schema, say, errors, warnings, notes };

  const main = options.filename ?? defaultFilename(schema, options);
  if (options.filename !== undefined) planFilename(options.filename, Boolean(options.asText), context);
  if (options.exportScope !== undefined) planScope(options.exportScope, options, summary, context);
  planFreeze(options, summary, context);

  // Which ops are save/restore ops is the core's to say (the page kept a copy of the list, and
  // it drifted): the plan says only what the summary tells, whether there is a SaverDef.
  if (options.clearExtraneousSavers && summary && !summary.hasSaver && !options.saverDef) {
    say(warnings, 'clearExtraneousSavers', 'the model has no SaverDef and none is given, so no saver is kept: every save/restore subgraph is dropped');
  }

  // collectionList: unset exports every collection (the default), a list only those.
  const collections = summary?.collections ?? [];
  if (Array.isArray(options.collectionList)) {
    const known = new Set(collections.map((c) => c.name));
    const missing = summary ? options.collectionList.filter((name) => !known.has(name)) : [];
    // The core refuses a name the model lacks (NOT_FOUND), naming those it has.
    if (missing.length) {
      say(errors, 'collectionList', `the model has no collection ${missing.map((n) => `“${n}”`).join(', ')}`);
    } else if (options.collectionList.length === 0) {
      say(notes, 'collectionList', 'no collection is ticked, so none is exported (collection_list=[])');
    }
  }
  if (to === 'graph-def') {
    const dropped = [];
    if (collections.length) dropped.push('collections');
    if (options.metaInfoDef) dropped.push('the MetaInfoDef');
    if (options.saverDef) dropped.push('the SaverDef');
    if (summary?.signatures?.length) dropped.push('signatures');
    if (dropped.length) {
      say(warnings, 'to', `a GraphDef holds only nodes, functions and versions: ${dropped.join(', ')} will not be written`);
    }
  }

  const files = [main];
  plan.files = files;
  if (to === 'tfjs') planTfjs(options, summary, { files, say, warnings, notes });
  // Writing a TensorFlow format with unfuseOps, the export refuses ops TensorFlow's registry
  // lacks unless allowUnsupportedOps.
  if (to !== 'tfjs' && options.unfuseOps && options.allowUnsupportedOps) {
    say(warnings, 'allowUnsupportedOps', 'ops TensorFlow’s registry lacks are written anyway (listed after the export): TensorFlow imports the graph only where they are registered');
  }
  if (options.saveDebugInfo) {
    const debug = addedFileName(schema.options.find((o) => o.name === 'saveDebugInfo'), main);
    files.push(debug);
    say(notes, 'saveDebugInfo', `adds ${debug} (empty when the input holds no stack traces); both files also come as one .zip`);
  }
  // A SavedModel out of a SavedModel folder is the whole folder: its variables and assets
  // pass through, after the graph's files.
  if (to === 'saved-model') {
    const folder = summary?.savedModelFiles ?? [];
    files.push(...folder.map((f) => f.name));
    if (folder.length) {
      say(notes, 'to', `the folder’s ${plural(folder.length, 'file')} (variables, assets) pass through byte for byte; all come as one .zip`);
    } else if (summary?.format === 'saved-model') {
      say(notes, 'to', 'only the graph was given, so the SavedModel has no variables/ or assets/: open the whole folder to export them too');
    }
  }
  return plan;
}

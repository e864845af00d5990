// The page's logic that needs no browser, run in Node against the Node API: the form's
// values from the core's schema, TensorFlow's plan (the files it names are the ones the
// export writes), what the page makes of the core's errors (choices among several graphs,
// the family of an UNSUPPORTED answer, the location fields, TensorFlow's tips), and the
// formatters of web/dom.mjs.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, test } from 'node:test';

import createGraphport from '../../bindings/js/node.mjs';
import { BAD_INPUTS } from './bad_inputs.mjs';
import { corpusFile, nodeReference, requireCorpus } from './page_helpers.mjs';
import { formatBytes, formatCount } from '../../web/dom.mjs';
import { describedCodes, whereRows } from '../../web/errors_view.mjs';
import { initialValues, schemaPlan } from '../../web/export_form.mjs';
import { addedFileName, lastSet } from '../../web/export_request.mjs';
import { familyPage } from '../../web/families.mjs';
import { inputCause } from '../../web/input_causes.mjs';
import { graphChoices, inputName, namedFamily, namedSet } from '../../web/input_files.mjs';
import { parseMessageFile } from '../../web/message_file.mjs';
import { tfErrorTips } from '../../web/tf/error_tips.mjs';
import { planExport as tfPlan } from '../../web/tf/plan.mjs';

let gp;
let tfExport;
const initial = () => initialValues(tfExport);
// TensorFlow's plan of the form's values, with the schema it makes the request from.
const planExport = (state, summary) => tfPlan(state, summary, tfExport);

before(async () => {
  requireCorpus();
  gp = await createGraphport();
  tfExport = gp.optionSchema('tensorflow').export;
});

// The error the Node API throws for an input.
function loadError(input, options) {
  try {
    gp.load(input, options).delete();
  } catch (e) {
    return e;
  }
  assert.fail('the input loaded');
}

test('counts are grouped with commas as en-US does it, without loading ICU', () => {
  for (const n of [0, 7, 999, 1000, 65536, 1234567, -40000, 1e15, 2.5, 12345.75]) {
    assert.equal(formatCount(n), n.toLocaleString('en-US', { maximumFractionDigits: 20 }), String(n));
  }
  assert.equal(formatCount('877'), '877');
  assert.equal(formatBytes(1234567), '1.23 MB');
});

test('the form starts from the schema\'s defaults; without a family plan, only changed options go', () => {
  const values = initial();
  assert.deepEqual(Object.keys(values).sort(), tfExport.options.map((o) => o.name).sort());
  for (const o of tfExport.options) {
    // A bool without a default (freeze) starts unset: the core decides.
    if (o.type === 'bool') assert.equal(values[o.name], o.default === null ? null : o.default ?? false, o.name);
    if (o.type === 'choice') assert.equal(values[o.name], o.default, o.name);
    if (o.type === 'message' || o.type === 'string-list') assert.equal(values[o.name], null, o.name);
  }
  assert.deepEqual(schemaPlan(tfExport, values).options, {});
  const changed = { ...values, asText: true, exportScope: 'save', collectionList: [],
    saverDef: { name: 's.pb', value: new Uint8Array([1]) }, to: 'graph-def' };
  assert.deepEqual(schemaPlan(tfExport, changed).options,
    { asText: true, exportScope: 'save', collectionList: [], saverDef: new Uint8Array([1]), to: 'graph-def' });
  const bad = schemaPlan(tfExport, { ...values, graphDef: { name: 'g.json', value: null, error: 'g.json is not valid JSON' } });
  assert.deepEqual(bad.errors, [{ option: 'graphDef', text: 'g.json is not valid JSON' }]);
});

// A value other than the default, by the option's type, as the form would hold it.
function otherValue(option) {
  switch (option.type) {
    case 'bool':
      return option.default === null ? true : !option.default;
    case 'choice':
    case 'int':
      if (option.choices.length) return option.choices.find((c) => c !== option.default);
      return String((option.default ?? 0) + 1);
    case 'string':
      return option.choices.length ? option.choices[0] : 'x_other';
    case 'string-list':
      return ['a'];
    default:
      return { name: 'f.pb', value: new Uint8Array([1]) };
  }
}

// Every option of every family's export schema reaches the request the page sends, through
// the family's own plan (web/<family>/plan.mjs): a plan may explain, never drop. An option
// added to a family's options.cc is covered without a line here.
test('every option of every family\'s export schema reaches the page\'s export request', () => {
  for (const family of gp.optionSchema()) {
    const schema = family.export;
    const plan = familyPage(family.family).form?.plan ?? ((state) => schemaPlan(schema, state));
    for (const option of schema.options) {
      const state = { ...initialValues(schema), [option.name]: otherValue(option) };
      const { options } = plan(state, null, schema);
      assert.ok(option.name in options, `${family.family}: ${option.name} (${option.type}) left out of ${JSON.stringify(options)}`);
    }
  }
});

test('the planned file names and options are what the Node API exports', async () => {
  const path = corpusFile('meta');
  const { summary } = await nodeReference(path);
  const states = [
    {},
    { asText: true },
    { to: 'graph-def', saveDebugInfo: true },
    { to: 'saved-model', asText: true, saveDebugInfo: true },
    { filename: 'a.b.meta', saveDebugInfo: true, clearDevices: true, exportScope: 'save' },
    { filename: 'noext', saveDebugInfo: true },
    { collectionList: ['variables'] },
    { collectionList: [] },
    { stripDefaultAttrs: true, clearExtraneousSavers: true },
  ];
  for (const partial of states) {
    const plan = planExport({ ...initial(), ...partial }, summary);
    assert.deepEqual(plan.errors, [], JSON.stringify(partial));
    const { out } = await nodeReference(path, plan.options);
    assert.deepEqual(out.files.map((f) => f.name), plan.files, JSON.stringify(partial));
  }
  const none = planExport({ ...initial(), collectionList: [] }, summary);
  assert.deepEqual(none.options.collectionList, []);
  assert.match(none.notes.map((n) => n.text).join(), /collection_list=\[\]/);
  const some = planExport({ ...initial(), collectionList: ['variables', 'nope'] }, summary);
  assert.deepEqual(some.options.collectionList, ['variables', 'nope'], 'the request holds what the form holds');
  assert.deepEqual(some.errors.map((e) => e.text), ['the model has no collection “nope”']);
  await assert.rejects(nodeReference(path, some.options), (e) => e.code === 'NOT_FOUND' && /'nope'/.test(e.message));
});

test('invalid combinations are errors before export, surprising ones warnings', async () => {
  const { summary } = await nodeReference(corpusFile('graphDef'));
  const plan = (partial) => planExport({ ...initial(), ...partial }, summary);
  const errorOf = (partial) => plan(partial).errors.map((e) => `${e.option}: ${e.text}`).join('\n');
  assert.match(errorOf({ exportScope: '/tower' }), /exportScope: .*starts with “\/”/);
  assert.match(errorOf({ exportScope: 'a//b' }), /empty part/);
  assert.match(errorOf({ exportScope: 'a b' }), /a space/);
  assert.match(errorOf({ exportScope: '_x' }), /start with a letter/);
  assert.match(errorOf({ filename: 'dir/model.meta' }), /filename: .*is a path/);
  assert.match(errorOf({ saverDef: { name: 's.json', value: null, error: 's.json is not valid JSON' } }), /saverDef: s\.json is not valid JSON/);
  assert.equal(errorOf({ exportScope: 'dense/' }), '');
  const warnings = (partial) => plan(partial).warnings.map((w) => `${w.option}: ${w.text}`).join('\n');
  // The summary says whether there is a SaverDef; which ops save and restore is the core's.
  assert.equal(summary.hasSaver, false);
  assert.match(warnings({ clearExtraneousSavers: true }), /no SaverDef and none is given/);
  assert.equal(warnings({ clearExtraneousSavers: true, saverDef: { name: 's.pb', value: new Uint8Array([1]) } }), '');
  assert.match(warnings({ asText: true, filename: 'x.pb' }), /text format/);
  assert.match(warnings({ filename: 'x.pbtxt' }), /binary/);
  // A node that the signatures name, with nothing under it, is a scope of one.
  const saved = (await nodeReference(corpusFile('savedModel'))).summary;
  const notes = planExport({ ...initial(), exportScope: 'StatefulPartitionedCall' }, saved).notes;
  assert.match(notes.map((n) => n.text).join(), /exports the 1 node in scope “StatefulPartitionedCall”/);
  assert.match(planExport({ ...initial(), to: 'graph-def' }, saved).warnings[0].text, /signatures will not be written/);
});

test('an export scope is checked against the summary\'s scopes before export', async () => {
  const path = corpusFile('meta');
  const { summary } = await nodeReference(path);
  const plan = (exportScope, extra = {}) => planExport({ ...initial(), exportScope, ...extra }, summary);
  assert.ok(summary.scopes.length > 0 && summary.scopes.length === summary.scopeCount);
  for (const { name } of summary.scopes.slice(0, 5)) {
    const { out } = await nodeReference(path, { exportScope: name });
    const note = plan(`${name}/`).notes.map((n) => n.text).join('\n');
    assert.match(note, new RegExp(`exports the ${out.info.nodeCount} nodes? in scope “${name}”`));
  }
  const missing = plan('Save');
  assert.deepEqual(missing.errors, []);
  assert.match(missing.warnings.map((w) => w.text).join(), /no node name starts with “Save\/”.*similar name: “save”, “save\/[^”]+”/);
  assert.match(plan('global_stp').warnings.map((w) => w.text).join(), /similar name: “global_step”\.$/);
  assert.doesNotMatch(plan('zzzz').warnings.map((w) => w.text).join(), /similar/);
  await assert.rejects(nodeReference(path, { exportScope: 'Save' }), (e) => e.code === 'NOT_FOUND');
  const withGraph = plan('Save', { graphDef: { name: 'g.pb', value: new Uint8Array([1]) } });
  assert.deepEqual(withGraph.warnings.filter((w) => w.option === 'exportScope'), []);
  const capped = { ...summary, scopeCount: summary.scopes.length + 1 };
  assert.match(planExport({ ...initial(), exportScope: 'Save' }, capped).notes.map((n) => n.text).join(),
    /not among the \d+ scopes listed of \d+; whether nodes are in it is checked when you export/);
});

// The page names the debug file by the schema's pattern, the one the core's export names it by.
test('debug file names follow the core: the schema\'s addsFile, _debug before the last extension', async () => {
  const debug = tfExport.options.find((o) => o.name === 'saveDebugInfo');
  const debugFilename = (name) => addedFileName(debug, name);
  assert.equal(debugFilename('model.meta'), 'model_debug.meta');
  assert.equal(debugFilename('a.b.c'), 'a.b_debug.c');
  assert.equal(debugFilename('model'), 'model_debug');
  assert.equal(debugFilename('.hidden'), '.hidden_debug');
  const { summary, out } = await nodeReference(corpusFile('meta'), { saveDebugInfo: true, filename: 'a.b.meta' });
  assert.deepEqual(out.files.map((f) => f.name), ['a.b.meta', 'a.b_debug.meta']);
  assert.deepEqual(planExport({ ...initial(), saveDebugInfo: true, filename: 'a.b.meta' }, summary).files,
    out.files.map((f) => f.name));
});

// What the page refuses before an export, the core refuses too: the bounds are the schema's.
test('a path as a file name and a shard size under 1 are refused by the schema, page and core alike', async () => {
  const { summary } = await nodeReference(corpusFile('graphDef'));
  const errorOf = (partial) => planExport({ ...initial(), ...partial }, summary).errors.map((e) => `${e.option}: ${e.text}`).join('\n');
  assert.equal(tfExport.options.find((o) => o.name === 'shardSize').minimum, 1);
  assert.match(errorOf({ to: 'tfjs', shardSize: '0' }), /^shardSize: “0” is less than 1/);
  assert.equal(errorOf({ to: 'tfjs', shardSize: '1' }), '');
  assert.match(errorOf({ filename: 'a\\b.meta' }), /^filename: .*is a path/);
  assert.match(errorOf({ filename: '..' }), /^filename: “\.\.” is not a file name/);
  const model = gp.load(readFileSync(corpusFile('graphDef')));
  try {
    assert.throws(() => model.export({ to: 'tfjs', shardSize: 0 }),
      (e) => e.code === 'INVALID_OPTION' && e.option === 'shardSize' && /at least 1, got 0/.test(e.message));
    assert.throws(() => model.export({ filename: 'dir/model.meta' }),
      (e) => e.code === 'INVALID_OPTION' && e.option === 'filename' && /a file name, not a path/.test(e.message));
  } finally {
    model.delete();
  }
});

// MegEngine's layout kwargs override each other: the core and the page take the winner from
// the schema's lastWins set.
test('of several layout kwargs the schema\'s last one set is the one the page and the core name', () => {
  const mge = gp.optionSchema('megengine').export;
  const set = mge.lastWins.find((s) => s.id === 'layout');
  assert.deepEqual(set.options.slice(0, 2), ['enableHwcd4', 'enableNchw4']);
  assert.equal(lastSet(mge, { enableNchw4: true, enableHwcd4: true }, 'layout'), 'enableNchw4');
  assert.equal(lastSet(mge, { enableNchw64: true, enableNchw44: true }, 'layout'), 'enableNchw64');
  assert.equal(lastSet(mge, {}, 'layout'), undefined);
});

test('option files: JSON becomes an object, protobuf stays bytes, a bytes option is always bytes', () => {
  const json = parseMessageFile('m.json', new TextEncoder().encode(' {"tags": ["serve"]}'));
  assert.deepEqual(json.value, { tags: ['serve'] });
  const text = parseMessageFile('ops.pbtxt', new TextEncoder().encode('op { name: "X" }'));
  assert.ok(text.value instanceof Uint8Array);
  assert.match(parseMessageFile('bad.json', new TextEncoder().encode('{nope')).error, /not valid JSON/);
  assert.match(parseMessageFile('empty.pb', new Uint8Array()).error, /empty/);
  const raw = parseMessageFile('key.json', new TextEncoder().encode('{"a": 1}'), { asBytes: true });
  assert.ok(raw.value instanceof Uint8Array);
  assert.equal(raw.encoding, 'bytes');
});

test('several graph files: the core names them, the page offers exactly those', () => {
  const bytes = (key) => readFileSync(corpusFile(key));
  const entries = [
    { path: 'a/frozen_graph.pb', file: { size: 1 } },
    { path: 'export.meta', file: { size: 1 } },
    { path: 'notes.md', file: { size: 1 } },
  ];
  const error = loadError({ files: { 'a/frozen_graph.pb': bytes('graphDef'), 'export.meta': bytes('meta'), 'notes.md': Buffer.from('hi') } },
    { name: inputName(entries) });
  assert.equal(error.code, 'UNKNOWN_FORMAT');
  assert.deepEqual(graphChoices(entries, error).map((e) => e.path), ['a/frozen_graph.pb', 'export.meta']);
  // One file, or another error: nothing to choose.
  assert.deepEqual(graphChoices(entries.slice(0, 1), error), []);
  assert.deepEqual(graphChoices(entries, { code: 'PARSE_ERROR', message: error.message }), []);
  assert.equal(inputName(entries), '3 files');
  assert.equal(inputName([{ path: 'm/1/saved_model.pb' }, { path: 'm/1/variables/variables.index' }]), 'm');
  assert.equal(inputName([{ path: 'graph.pb' }]), 'graph.pb');
  const folder = namedSet([{ path: 'm/1/saved_model.pb' }, { path: 'm/1/variables/variables.index' }]);
  assert.deepEqual(folder, { name: 'm', entries: [{ path: '1/saved_model.pb' }, { path: '1/variables/variables.index' }] });
  assert.deepEqual(namedSet(entries).entries.map((e) => e.path), entries.map((e) => e.path));
});

test('UNSUPPORTED is titled with the family the core\'s message names', () => {
  const families = gp.optionSchema();
  // Inputs of a family the core reads, of a kind it does not: a legacy MegBrain file, a Keras
  // layers model.json.
  const mge = loadError(Buffer.concat([Buffer.from('mgb0001'), Buffer.alloc(64)]), { name: 'old.mgb' });
  assert.equal(mge.code, 'UNSUPPORTED');
  assert.equal(namedFamily(mge.message, families).family, 'megengine');
  const layers = JSON.stringify({ format: 'layers-model', modelTopology: { class_name: 'Sequential', config: {} }, weightsManifest: [] });
  const tfjs = loadError({ files: { 'model.json': Buffer.from(layers) } });
  assert.equal(tfjs.code, 'UNSUPPORTED');
  // "TensorFlow.js" names TensorFlow too: the longer title wins.
  assert.equal(namedFamily(tfjs.message, families).family, 'tfjs');
  assert.equal(namedFamily('something else went wrong', families), null);
});

test('the error\'s location fields become the rows of "Where"', () => {
  assert.deepEqual(whereRows({ file: 'm.pb', offset: 1283 }), [['File', 'm.pb'], ['Where', 'byte offset 1,283']]);
  assert.deepEqual(whereRows({ file: 'm.pbtxt', line: 37, column: 21 }), [['File', 'm.pbtxt'], ['Where', 'line 37, column 21']]);
  assert.deepEqual(whereRows({ node: 'save/Const', operator: 'Const', option: 'exportScope' }),
    [['Node', 'save/Const'], ['Operator', 'Const'], ['Option', 'exportScope']]);
  assert.deepEqual(whereRows({ offset: -1 }), []);
  assert.deepEqual(whereRows({ message: 'at byte 7' }), [], 'the message is not parsed');
});

// The page titles errors by the core's codes: a code the core adds needs its title here, and a
// code the core drops or renames must not linger on the page (WORKER is the page's own).
test('the page has its own title for every error code of the core, and no other', () => {
  const core = gp.errorCodes().map((c) => c.code);
  assert.ok(core.includes('PARSE_ERROR') && core.includes('INTERNAL'), core.join());
  const page = describedCodes();
  assert.deepEqual(core.filter((code) => !page.includes(code)), [], 'core codes with no title on the page');
  assert.deepEqual(page.filter((code) => !core.includes(code)), ['WORKER'], 'page titles of no core code');
});

test('TensorFlow\'s tips tell an OpList, bytes that are no protobuf and a protobuf with no graph apart', () => {
  const labelOf = (name) => tfExport.options.find((o) => o.name === name)?.label ?? name;
  const tips = (bytes, name) => tfErrorTips(loadError(bytes, { name }), { phase: 'load', labelOf });
  const opList = tips(Buffer.from('op {\n  name: "Foo"\n}\n'), 'ops.pbtxt');
  assert.match(opList.title, /OpList/);
  assert.match(opList.tips.join(), new RegExp(labelOf('opRegistry')));
  const random = tips(Buffer.from([0xde, 0xad, 0xbe, 0xef, 0x12, 0x99, 0x77, 0x01, 0xff, 0xfe]), 'random.bin');
  assert.equal(random.title, 'This is not a protobuf');
  const keras = tips(readFileSync(corpusFile('keras')), 'keras_metadata.pb');
  assert.match(keras.title, /holds no TensorFlow graph/);
  assert.match(keras.tips.join(), /keras_metadata\.pb/);
  assert.equal(tfErrorTips({ code: 'PARSE_ERROR', message: 'x' }, { phase: 'load', labelOf }), null);
});

// The cause first (no family's model at all), else the family's tips: the title the page shows.
for (const input of BAD_INPUTS) {
  test(`${input.name}: the title and tip of its cause`, () => {
    const labelOf = (name) => tfExport.options.find((o) => o.name === name)?.label ?? name;
    const [name, bytes] = Object.entries(input.files)[0];
    const error = loadError(bytes, { name });
    const shown = inputCause(error) ?? tfErrorTips(error, { phase: 'load', labelOf });
    assert.ok(shown, `${error.code}: ${error.message}`);
    assert.equal(shown.title, input.title, error.message);
    assert.ok(shown.tips.some((t) => input.tip.test(t)), shown.tips.join('\n'));
    if (input.details) assert.match(error.message, input.details);
  });
}

test('a SavedModel folder: the plan names every file the export writes, the folder\'s too', () => {
  const folder = corpusFile('savedModel').replace(/\/saved_model\.pb$/, '');
  const model = gp.loadFile(folder);
  try {
    const summary = model.inspect();
    assert.ok(summary.savedModelFiles.length > 0);
    for (const partial of [{ to: 'saved-model' }, { to: 'saved-model', saveDebugInfo: true, asText: true }, { to: 'meta-graph' }]) {
      const plan = planExport({ ...initial(), ...partial }, summary);
      assert.deepEqual(plan.files, model.export(plan.options).files.map((f) => f.name), JSON.stringify(partial));
    }
    assert.match(planExport({ ...initial(), to: 'saved-model' }, summary).notes.map((n) => n.text).join(), /pass through byte for byte/);
  } finally {
    model.delete();
  }
});

test('the MegEngine plan: compat_older_version needs FBS and 8.14, a strip-info file adds a second output', async () => {
  const { planExport } = await import('../../web/mge/plan.mjs');
  const schema = gp.optionSchema('megengine').export;
  const summary = await nodeReference(corpusFile('mge')).then((r) => r.summary);
  const state = initialValues(schema);
  let plan = planExport(state, summary, schema);
  assert.deepEqual([plan.options, plan.files, plan.errors], [{}, ['model.mge'], []]);
  state.compatOlderVersion = ' 8.14 ';
  plan = planExport(state, summary, schema);
  assert.deepEqual(plan.errors.map((e) => e.option), ['compatOlderVersion']);
  state.dumpFormat = 'FBS';
  plan = planExport(state, summary, schema);
  assert.deepEqual([plan.options, plan.errors], [{ dumpFormat: 'FBS', compatOlderVersion: '8.14' }, []]);
  state.compatOlderVersion = '8.10';
  assert.match(planExport(state, summary, schema).errors[0].text, /only “8\.14”/);
  state.compatOlderVersion = '';
  state.stripInfoFile = 'model.mge';
  assert.match(planExport(state, summary, schema).errors[0].text, /other than the model's/);
  state.stripInfoFile = 'strip.json';
  state.keepVarName = 2;
  plan = planExport(state, summary, schema);
  assert.deepEqual([plan.files, plan.options, plan.errors], [['model.mge', 'strip.json'], { dumpFormat: 'FBS', stripInfoFile: 'strip.json', keepVarName: 2 }, []]);
  // The core agrees: these options export, and write those files.
  const model = gp.load(readFileSync(corpusFile('mge')), { name: 'model.mge' });
  try {
    assert.deepEqual(model.export(plan.options).files.map((f) => f.name), plan.files);
  } finally {
    model.delete();
  }
});

test('the MegEngine plan: layout kwargs as the core takes them (the last layout wins), all ignored when not optimizing', async () => {
  const { planExport } = await import('../../web/mge/plan.mjs');
  const schema = gp.optionSchema('megengine').export;
  const summary = await nodeReference(corpusFile('mge')).then((r) => r.summary);
  const state = { ...initialValues(schema), enableNchw88: true, enableNchw32: true, enableIoc16: true };
  let plan = planExport(state, summary, schema);
  // The page keeps no list of the layouts graphport implements: the request goes whole ...
  assert.deepEqual(plan.errors, []);
  assert.equal(plan.options.enableNchw32, true);
  const model = gp.load(readFileSync(corpusFile('mge')), { name: 'model.mge' });
  try {
    // ... and the core's preview, which the page shows before Export, refuses the winning
    // layout kwarg naming the backend it is for; the export refuses it the same way ...
    for (const run of [() => model.preview(plan.options), () => model.export(plan.options)]) {
      assert.throws(run, (e) => e.code === 'UNSUPPORTED' && /enableNchw32/.test(e.message) && /NVIDIA/.test(e.message));
    }
    // ... runs NCHW44 and NCHW88 (optimize_options: the layout in bits 32-35, 64 fuse_grain) ...
    for (const [kwarg, layout] of [['enableNchw44', 4], ['enableNchw88', 3]]) {
      const packed = planExport({ ...initialValues(schema), [kwarg]: true }, summary, schema);
      assert.deepEqual(packed.errors, []);
      assert.equal(model.export(packed.options).info.optimized.optimizeOptions, layout * 2 ** 32 + 64);
    }
    // ... runs the float16 conversion, which writes MegEngine's optimize_options bits ...
    const f16 = planExport({ ...initialValues(schema), enableIoc16: true }, summary, schema);
    assert.deepEqual(f16.errors, []);
    assert.equal(model.export(f16.options).info.optimized.optimizeOptions, 66); // 64 fuse_grain + 2 f16_io_comp
    // ... and with optimize_for_inference off ignores every kwarg, as Network.dump does.
    state.optimizeForInference = false;
    plan = planExport(state, summary, schema);
    assert.deepEqual(plan.errors, []);
    assert.deepEqual(plan.warnings.map((w) => w.option).sort(), ['enableIoc16', 'enableNchw32', 'enableNchw88']);
    assert.equal(model.export(plan.options).info.optimized, 'no');
  } finally {
    model.delete();
  }
});

test('the TensorFlow plan for to: \'tfjs\': model.json and shards, the TF.js options refused elsewhere', async () => {
  const schema = gp.optionSchema('tensorflow').export;
  const state = initialValues(schema);
  assert.equal(state.quantize, null, 'a choice without a default starts unset');
  state.quantize = 'uint8';
  let plan = planExport(state, null);
  // The option goes, as the form holds it; the schema's rule says the core refuses it.
  assert.equal(plan.options.quantize, 'uint8');
  assert.deepEqual(plan.errors.map((e) => e.option), ['quantize']);
  assert.match(plan.errors[0].text, /needs to: 'tfjs'/);
  state.to = 'tfjs';
  state.shardSize = '1000';
  state.asText = true;
  plan = planExport(state, null);
  assert.deepEqual(plan.options, { to: 'tfjs', quantize: 'uint8', shardSize: 1000, asText: true });
  assert.equal(plan.files[0], 'model.json', 'the schema\'s default name for to: \'tfjs\'');
  assert.deepEqual(plan.warnings.map((w) => w.option), ['asText']);
  state.filename = 'x.json';
  assert.equal(planExport(state, null).files[0], 'x.json');
  state.shardSize = '0';
  assert.deepEqual(planExport(state, null).errors.map((e) => e.option), ['shardSize']);
});

test('the plan freezes on the way to TF.js, checks the signature, and keeps unfuseOps for any output', () => {
  const summary = {
    signatures: [{ name: 'serving_default' }, { name: 'predict' }, { name: '__saved_model_init_op' }],
    needsFreeze: true,
    freezeOps: { VarHandleOp: 2, ReadVariableOp: 2 },
    variables: [{ key: 'a/.ATTRIBUTES/VARIABLE_VALUE' }, { key: 'b/.ATTRIBUTES/VARIABLE_VALUE' }],
    collections: [],
  };
  const plan = (partial) => planExport({ ...initial(), ...partial }, summary);
  const tfjs = plan({ to: 'tfjs' });
  assert.deepEqual(tfjs.errors, []);
  assert.ok(tfjs.notes.some((n) => n.option === 'freeze' && /of the checkpoint's 2\)/.test(n.text)), JSON.stringify(tfjs.notes));
  assert.equal(tfjs.options.freeze, undefined, 'unset: the core freezes a graph that needs it');
  assert.equal(plan({ to: 'tfjs', signature: 'predict' }).options.signature, 'predict');
  const wrong = plan({ to: 'tfjs', signature: 'nope' });
  assert.equal(wrong.errors[0].option, 'signature');
  assert.match(wrong.errors[0].text, /serving_default, predict\)/);
  assert.equal(plan({ to: 'graph-def' }).notes.some((n) => n.option === 'freeze'), false);
  assert.equal(plan({ to: 'graph-def', freeze: true }).options.freeze, true);
  const saved = plan({ to: 'saved-model', unfuseOps: true });
  assert.equal(saved.options.unfuseOps, true);
  assert.equal(saved.warnings.some((w) => w.option === 'unfuseOps'), false);
  assert.equal(plan({ to: 'tfjs', allowUnsupportedOps: true }).options.allowUnsupportedOps, true);
});

test('the plan warns before float16 grows weights a TF.js model held as uint8, as info.quantization says after', () => {
  // Two weights as uint8 codes (1000 and 24 bytes) and one float32, as inspect() lists them.
  const summary = {
    collections: [],
    tfjs: {
      weights: [
        { name: 'a', shape: [10, 100], bytes: 1000, quantization: { dtype: 'uint8', min: -1, scale: 0.01 } },
        { name: 'b', shape: [2, 3, 4], bytes: 24, quantization: { dtype: 'uint8', min: 0, scale: 1 } },
        { name: 'c', shape: [5], bytes: 20 },
      ],
    },
  };
  const plan = (partial) => planExport({ ...initial(), to: 'tfjs', ...partial }, summary);
  const grows = plan({ quantize: 'float16' }).warnings.find((w) => w.option === 'quantize');
  assert.ok(grows, 'a warning on quantize');
  assert.match(grows.text, /^2 weights held as uint8 codes \(1\.02 KB\) are read as float32 and written as float16: 2\.05 KB, the model grows by 1\.02 KB$/);
  assert.match(plan({ quantize: 'uint16' }).warnings.find((w) => w.option === 'quantize').text, /written as uint16/);
  assert.match(plan({ quantize: 'float16', quantizeWeights: ['a'] }).warnings.find((w) => w.option === 'quantize').text, /: up to 2\.05 KB, the model grows by up to 1\.02 KB$/);
  assert.equal(plan({ quantize: 'uint8' }).warnings.some((w) => w.option === 'quantize'), false);
  assert.equal(plan({}).warnings.some((w) => w.option === 'quantize'), false);
  // A model with float32 weights only has nothing to grow.
  const plain = planExport({ ...initial(), to: 'tfjs', quantize: 'float16' }, { collections: [], tfjs: { weights: [{ name: 'c', shape: [5], bytes: 20 }] } });
  assert.deepEqual(plain.warnings, []);
});

test('allowUnsupportedOps goes with unfuseOps to a TensorFlow format: TensorFlow\'s registry is checked then', () => {
  const plan = (partial) => planExport({ ...initial(), ...partial }, { collections: [] });
  const saved = plan({ to: 'saved-model', unfuseOps: true, allowUnsupportedOps: true });
  assert.equal(saved.options.allowUnsupportedOps, true);
  assert.deepEqual(saved.warnings.map((w) => w.option), ['allowUnsupportedOps']);
  assert.match(saved.warnings[0].text, /TensorFlow’s registry lacks/);
  // Without unfuseOps it does nothing there, and the plan says so.
  const plain = plan({ to: 'saved-model', allowUnsupportedOps: true });
  assert.equal(plain.options.allowUnsupportedOps, true);
  assert.match(plain.warnings.find((w) => w.option === 'allowUnsupportedOps').text, /only when writing a TensorFlow\.js model/);
});

// The page's logic that needs no browser (web/export_options.mjs, web/input_files.mjs, the
// formatters of web/dom.mjs), run
// in Node against the Node API: the plan names the files the export writes, the options it
// builds are the ones the export takes, and the input chooser picks the right file.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, test } from 'node:test';

import { corpusFile, nodeReference, requireCorpus } from './page_helpers.mjs';
import {
  GROUPS, OPTIONS, debugFilename, initialState, parseMessageFile, planExport,
} from '../../web/export_options.mjs';
import { chooseInput, sniffUnsupported } from '../../web/input_files.mjs';
import { formatBytes, formatCount } from '../../web/dom.mjs';

before(requireCorpus);

test('counts are grouped with commas as en-US does it, without loading ICU', () => {
  for (const n of [0, 7, 999, 1000, 65536, 1234567, -40000, 1e15, 2.5, 12345.75]) {
    assert.equal(formatCount(n), n.toLocaleString('en-US', { maximumFractionDigits: 20 }), String(n));
  }
  assert.equal(formatCount('877'), '877');
  assert.equal(formatBytes(1234567), '1.23 MB');
});

test('every export option is in one group, with help text and its TensorFlow name', () => {
  const grouped = GROUPS.flatMap((g) => g.options);
  assert.deepEqual([...grouped].sort(), Object.keys(OPTIONS).sort());
  assert.equal(new Set(grouped).size, grouped.length);
  for (const [id, option] of Object.entries(OPTIONS)) {
    assert.ok(option.help.length > 20, `${id} has help text`);
    assert.ok(option.label, `${id} has a label`);
  }
  const tfNames = Object.values(OPTIONS).map((o) => o.tf).filter(Boolean).sort();
  assert.deepEqual(tfNames, ['as_text', 'clear_devices', 'clear_extraneous_savers', 'collection_list',
    'export_scope', 'filename', 'graph_def', 'meta_info_def', 'save_debug_info', 'saver_def',
    'strip_default_attrs']);
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
    { collectionMode: 'choose', collections: ['variables', 'not-in-model'] },
    { collectionMode: 'choose', collections: [] },
    { stripDefaultAttrs: true, clearExtraneousSavers: true },
  ];
  for (const partial of states) {
    const plan = planExport({ ...initialState(), ...partial }, summary);
    assert.deepEqual(plan.errors, [], JSON.stringify(partial));
    const { out } = await nodeReference(path, plan.options);
    assert.deepEqual(out.files.map((f) => f.name), plan.files, JSON.stringify(partial));
  }
  const none = planExport({ ...initialState(), collectionMode: 'choose', collections: [] }, summary);
  assert.deepEqual(none.options.collectionList, []);
  assert.match(none.notes.map((n) => n.text).join(), /collection_list=\[\]/);
});

test('invalid combinations are errors before export, surprising ones warnings', async () => {
  const { summary } = await nodeReference(corpusFile('graphDef'));
  const plan = (partial) => planExport({ ...initialState(), ...partial }, summary);
  const errorOf = (partial) => plan(partial).errors.map((e) => `${e.option}: ${e.text}`).join('\n');
  assert.match(errorOf({ exportScope: '/tower' }), /exportScope: .*starts with “\/”/);
  assert.match(errorOf({ exportScope: 'a//b' }), /empty part/);
  assert.match(errorOf({ exportScope: 'a b' }), /a space/);
  assert.match(errorOf({ exportScope: '_x' }), /start with a letter/);
  assert.match(errorOf({ filename: 'dir/model.meta' }), /filename: .*is a path/);
  assert.match(errorOf({ saverDef: { name: 's.json', value: null, error: 's.json is not valid JSON' } }), /saverDef: s\.json is not valid JSON/);
  assert.equal(errorOf({ exportScope: 'dense/' }), '');
  const warnings = (partial) => plan(partial).warnings.map((w) => `${w.option}: ${w.text}`).join('\n');
  assert.match(warnings({ clearExtraneousSavers: true }), /no save or restore ops/);
  assert.match(warnings({ asText: true, filename: 'x.pb' }), /text format/);
  assert.match(warnings({ filename: 'x.pbtxt' }), /binary/);
  // A node that the signatures name, with nothing under it, is a scope of one.
  const saved = (await nodeReference(corpusFile('savedModel'))).summary;
  const notes = planExport({ ...initialState(), exportScope: 'StatefulPartitionedCall' }, saved).notes;
  assert.match(notes.map((n) => n.text).join(), /exports the 1 node in scope “StatefulPartitionedCall”/);
  assert.match(planExport({ ...initialState(), to: 'graph-def' }, saved).warnings[0].text, /signatures will not be written/);
});

test('an export scope is checked against the summary\'s scopes before export', async () => {
  const path = corpusFile('meta');
  const { summary } = await nodeReference(path);
  const plan = (exportScope, extra = {}) => planExport({ ...initialState(), exportScope, ...extra }, summary);
  assert.ok(summary.scopes.length > 0 && summary.scopes.length === summary.scopeCount);
  // A listed scope: the plan states the node count, and it is the count the export writes.
  for (const { name } of summary.scopes.slice(0, 5)) {
    const { out } = await nodeReference(path, { exportScope: name });
    const note = plan(`${name}/`).notes.map((n) => n.text).join('\n');
    assert.match(note, new RegExp(`exports the ${out.info.nodeCount} nodes? in scope “${name}”`));
  }
  // Not a scope: a warning before the export (which then fails), with look-alikes.
  const missing = plan('Save');
  assert.deepEqual(missing.errors, []);
  assert.match(missing.warnings.map((w) => w.text).join(), /no node name starts with “Save\/”.*similar name: “save”, “save\/[^”]+”/);
  assert.match(plan('global_stp').warnings.map((w) => w.text).join(), /similar name: “global_step”\.$/);
  assert.doesNotMatch(plan('zzzz').warnings.map((w) => w.text).join(), /similar/);
  await assert.rejects(nodeReference(path, { exportScope: 'Save' }), (e) => e.code === 'NOT_FOUND');
  // With a graphDef option the scope applies to that graph, which the summary does not show.
  const withGraph = plan('Save', { graphDef: { name: 'g.pb', value: new Uint8Array([1]) } });
  assert.deepEqual(withGraph.warnings.filter((w) => w.option === 'exportScope'), []);
  // A capped list says what it cannot know.
  const capped = { ...summary, scopeCount: summary.scopes.length + 1 };
  assert.match(planExport({ ...initialState(), exportScope: 'Save' }, capped).notes.map((n) => n.text).join(),
    /not among the \d+ scopes listed of \d+; whether nodes are in it is checked when you export/);
});

test('debug file names follow the core: _debug before the last extension', () => {
  assert.equal(debugFilename('model.meta'), 'model_debug.meta');
  assert.equal(debugFilename('a.b.c'), 'a.b_debug.c');
  assert.equal(debugFilename('model'), 'model_debug');
  assert.equal(debugFilename('.hidden'), '.hidden_debug');
});

test('message option files: JSON becomes an object, protobuf stays bytes', () => {
  const json = parseMessageFile('m.json', new TextEncoder().encode(' {"tags": ["serve"]}'));
  assert.deepEqual(json.value, { tags: ['serve'] });
  const text = parseMessageFile('ops.pbtxt', new TextEncoder().encode('op { name: "X" }'));
  assert.ok(text.value instanceof Uint8Array);
  assert.match(parseMessageFile('bad.json', new TextEncoder().encode('{nope')).error, /not valid JSON/);
  assert.match(parseMessageFile('empty.pb', new Uint8Array()).error, /empty/);
});

test('choosing among several files', async () => {
  const entry = (path, bytes = [0]) => ({ path, file: new File([Uint8Array.from(bytes)], path.split('/').pop()) });
  const folder = [entry('m/1/variables/variables.index'), entry('m/1/saved_model.pb'),
    entry('m/1/fingerprint.pb'), entry('m/1/.DS_Store')];
  const saved = chooseInput(folder);
  assert.equal(saved.kind, 'load');
  assert.equal(saved.entry.path, 'm/1/saved_model.pb');
  assert.match(saved.note, /2 other files given are not needed/);
  assert.equal(chooseInput([entry('a/saved_model.pb'), entry('b/saved_model.pbtxt')]).kind, 'choose');
  assert.equal(chooseInput([entry('model.json'), entry('group1-shard1of1.bin')]).which, 'tfjs');
  assert.equal(chooseInput([entry('x.mge'), entry('y.txt')]).which, 'mge');
  assert.equal(chooseInput([entry('graph.pb'), entry('notes.md')]).entry.path, 'graph.pb');
  assert.equal(chooseInput([entry('a.pb'), entry('b.pb')]).kind, 'choose');
  assert.equal(chooseInput([]).kind, 'none');
  const tfjs = new File([readFileSync(corpusFile('tfjsModel'))], 'whatever.json');
  assert.equal(await sniffUnsupported(tfjs), 'tfjs');
  assert.equal(await sniffUnsupported(new File([readFileSync(corpusFile('mge'))], 'x.bin')), 'mge');
  assert.equal(await sniffUnsupported(new File([readFileSync(corpusFile('keras'))], 'keras_metadata.pb')), null);
});

// The JS API surface: factory, options and their errors, output files and names, handle
// hygiene, and exports that leave the model as it was.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import {
  GRAPHS, KINDS, NODE_ENTRY, REPO, assertGraphportError, assertSameBytes, checkNoLeaksAtEnd,
  exportBytes, graphport, leakCheckedTest, readBytes, withModel,
} from './helpers.mjs';

const entry = await import(NODE_ENTRY);
const gp = await graphport();
checkNoLeaksAtEnd(gp);

const SAVED = GRAPHS.find((g) => g.rel.includes('matrix_half_plus_two'));
const META = GRAPHS.find((g) => g.rel.includes('session_bundle'));
const FROZEN = GRAPHS.find((g) => g.kind === 'graph-def');

// The names src/tf/export.cc's DefaultFileName gives, by kind and encoding.
const DEFAULT_NAMES = {
  'meta-graph': { binary: 'model.meta', text: 'model.pbtxt' },
  'graph-def': { binary: 'graph.pb', text: 'graph.pbtxt' },
  'saved-model': { binary: 'saved_model.pb', text: 'saved_model.pbtxt' },
};

test('createGraphport is memoized: every call gives the same promise and the same API object', async () => {
  const a = entry.default();
  const b = entry.createGraphport();
  assert.equal(a, b);
  assert.equal(await a, await b);
  assert.equal(await a, gp);
  assert.equal(entry.default, entry.createGraphport);
  assert.equal(gp.GraphportError, entry.GraphportError);
  for (const fn of ['load', 'loadFile', 'summaryText', 'usage', 'liveModels']) {
    assert.equal(typeof gp[fn], 'function', fn);
  }
});

test('GraphportError is an Error with name and code', () => {
  const e = new gp.GraphportError('NOT_FOUND', 'x: missing');
  assert.ok(e instanceof Error);
  assert.equal(e.name, 'GraphportError');
  assert.equal(e.code, 'NOT_FOUND');
  assert.equal(e.message, 'x: missing');
});

test('usage() lists every CLI flag of every family\'s option schema', () => {
  const usage = gp.usage();
  for (const family of gp.optionSchema()) {
    for (const schema of [family.load, family.export]) {
      for (const option of schema.options) {
        if (!option.cli) continue;
        const flag = option.type === 'bool' && option.default === true ? `--no-${option.cli}` : `--${option.cli}`;
        assert.ok(usage.includes(`  ${flag}`), `${flag} (${family.family}) is not in the usage text`);
      }
    }
  }
});

leakCheckedTest(gp, 'exports return {files: [{name, bytes}], info} with the default names', () => {
  for (const g of [SAVED, META, FROZEN]) {
    withModel(gp, readBytes(g.path), {}, (m) => {
      const nodeCount = m.inspect().nodeCount;
      for (const to of KINDS) {
        for (const encoding of ['binary', 'text']) {
          const out = m.export({ to, asText: encoding === 'text' });
          assert.deepEqual(Object.keys(out).sort(), ['files', 'info']);
          assert.equal(out.files.length, 1);
          const [file] = out.files;
          assert.deepEqual(Object.keys(file).sort(), ['bytes', 'name']);
          assert.equal(file.name, DEFAULT_NAMES[to][encoding], `${g.name} → ${to} ${encoding}`);
          assert.ok(file.bytes instanceof Uint8Array);
          assert.ok(file.bytes.length > 0);
          // The info record says what was written (it may say more as options grow).
          assert.equal(typeof out.info, 'object');
          assert.deepEqual({ format: out.info.format, encoding: out.info.encoding, nodeCount: out.info.nodeCount },
            { format: to, encoding, nodeCount });
        }
      }
      // No options at all: a binary MetaGraphDef, as export_meta_graph writes by default.
      const plain = m.export();
      assert.equal(plain.files[0].name, 'model.meta');
      assertSameBytes(plain.files[0].bytes, exportBytes(m, { to: 'meta-graph' }), 'default export');
      assertSameBytes(exportBytes(m, {}), plain.files[0].bytes, 'export({})');
      assertSameBytes(exportBytes(m, null), plain.files[0].bytes, 'export(null)');
    });
  }
});

leakCheckedTest(gp, 'filename overrides the output name and nothing else', () => {
  withModel(gp, readBytes(SAVED.path), {}, (m) => {
    for (const to of KINDS) {
      for (const asText of [false, true]) {
        const named = m.export({ to, asText, filename: 'custom name.bin' });
        assert.equal(named.files.length, 1);
        assert.equal(named.files[0].name, 'custom name.bin');
        assertSameBytes(named.files[0].bytes, exportBytes(m, { to, asText }), `${to} ${asText}`);
      }
    }
  });
});

leakCheckedTest(gp, 'output bytes are the caller\'s own copy, not a view of the WebAssembly heap', () => {
  const bytes = readBytes(META.path);
  const first = withModel(gp, bytes, {}, (m) => exportBytes(m, { to: 'meta-graph' }));
  const copy = first.slice();
  assert.ok(!(first.buffer instanceof SharedArrayBuffer));
  assert.equal(first.byteOffset, 0);
  assert.equal(first.buffer.byteLength, first.length, 'a buffer of its own');
  // Heavy reuse of the heap afterwards must not change what the caller holds.
  for (const g of GRAPHS) withModel(gp, readBytes(g.path), {}, (m) => exportBytes(m, { to: 'saved-model', asText: true }));
  assertSameBytes(first, copy, 'earlier export after later ones');
});

leakCheckedTest(gp, 'exporting leaves the model unchanged: inspect and exports before and after agree', () => {
  for (const g of GRAPHS) {
    withModel(gp, readBytes(g.path), {}, (m) => {
      const summary = m.inspect();
      const before = {};
      for (const to of KINDS) for (const asText of [false, true]) before[`${to} ${asText}`] = exportBytes(m, { to, asText });
      // Exports in another order, twice, then everything again.
      for (let round = 0; round < 2; round += 1) {
        for (const to of [...KINDS].reverse()) {
          for (const asText of [true, false]) exportBytes(m, { to, asText, filename: `r${round}` });
        }
      }
      assert.deepEqual(m.inspect(), summary);
      for (const to of KINDS) {
        for (const asText of [false, true]) assertSameBytes(exportBytes(m, { to, asText }), before[`${to} ${asText}`], `${g.name} ${to} ${asText}`);
      }
    });
  }
});

leakCheckedTest(gp, 'liveModels counts loads and deletes; delete is idempotent; a deleted model throws', () => {
  const start = gp.liveModels();
  const a = gp.load(readBytes(SAVED.path));
  const b = gp.loadFile(META.path);
  assert.equal(gp.liveModels(), start + 2);
  assert.equal(a.deleted, false);
  a.delete();
  assert.equal(a.deleted, true);
  assert.equal(gp.liveModels(), start + 1);
  a.delete();
  a.delete();
  assert.equal(gp.liveModels(), start + 1, 'a second delete() changes nothing');
  assertGraphportError(gp, () => a.inspect(), { codes: 'INVALID_OPTION' });
  assertGraphportError(gp, () => a.export(), { codes: 'INVALID_OPTION' });
  assertGraphportError(gp, () => a.export({ to: 'graph-def' }), { codes: 'INVALID_OPTION' });
  // The other model is untouched by a's death.
  assert.equal(b.inspect().nodeCount, META.nodes);
  b[Symbol.dispose]();
  assert.equal(b.deleted, true);
  assert.equal(gp.liveModels(), start);
  // Failed loads do not count.
  for (let i = 0; i < 5; i += 1) {
    assertGraphportError(gp, () => gp.load(new Uint8Array([1, 2, 3])));
    assertGraphportError(gp, () => gp.load(readBytes(SAVED.path), { tags: ['nope'] }));
  }
  assert.equal(gp.liveModels(), start);
});

leakCheckedTest(gp, 'two models of the same bytes are independent', () => {
  const bytes = readBytes(SAVED.path);
  const a = gp.load(bytes);
  const b = gp.load(bytes);
  try {
    const expected = exportBytes(a, { to: 'graph-def' });
    a.delete();
    assertSameBytes(exportBytes(b, { to: 'graph-def' }), expected, 'b after a was deleted');
  } finally {
    a.delete();
    b.delete();
  }
});

leakCheckedTest(gp, 'load options: format forces a kind and encoding, tags select, name names', () => {
  const bytes = readBytes(SAVED.path);
  for (const format of ['auto', 'saved-model', 'saved-model-binary']) {
    withModel(gp, bytes, { format }, (m) => {
      const s = m.inspect();
      assert.equal(s.format, 'saved-model');
      assert.equal(s.encoding, 'binary');
      assert.equal(s.detection === 'format given by the caller', format !== 'auto');
    });
  }
  for (const tags of [['serve'], ['serve', 'serve']]) {
    withModel(gp, bytes, { tags }, (m) => assert.deepEqual(m.inspect().tags, ['serve']));
  }
  withModel(gp, bytes, { tags: [], name: 'named.pb', format: 'auto' }, (m) => assert.equal(m.inspect().selectedMetaGraph, 0));
  // A text export read back under a forced text format.
  const text = withModel(gp, bytes, {}, (m) => exportBytes(m, { to: 'saved-model', asText: true }));
  withModel(gp, text, { format: 'saved-model-text' }, (m) => assert.equal(m.inspect().encoding, 'text'));
  withModel(gp, text, { format: 'saved-model' }, (m) => assert.equal(m.inspect().encoding, 'text'));
  // A GraphDef read as a MetaGraphDef is a parse error, not a wrong model.
  assertGraphportError(gp, () => gp.load(readBytes(FROZEN.path), { format: 'saved-model', name: 'f.pb' }),
    { codes: 'PARSE_ERROR', name: 'f.pb' });
  assertGraphportError(gp, () => gp.load(text, { format: 'saved-model-binary', name: 't.pb' }),
    { codes: 'PARSE_ERROR', name: 't.pb' });
  assertGraphportError(gp, () => gp.load(bytes, { format: 'graph-def-text', name: 'b.pb' }),
    { codes: 'PARSE_ERROR', name: 'b.pb', where: 'line' });
});

leakCheckedTest(gp, 'tags that match no MetaGraphDef are NOT_FOUND, naming what there is', () => {
  const bytes = readBytes(SAVED.path);
  for (const tags of [['nope'], ['serve', 'gpu'], ['train']]) {
    const e = assertGraphportError(gp, () => gp.load(bytes, { tags, name: 'sm.pb' }), { codes: 'NOT_FOUND', name: 'sm.pb' });
    for (const t of tags) assert.ok(e.message.includes(t), e.message);
    assert.match(e.message, /serve/);
  }
  assertGraphportError(gp, () => gp.loadFile(SAVED.path, { tags: ['nope'] }), { codes: 'NOT_FOUND', name: SAVED.path });
});

leakCheckedTest(gp, 'bad options are INVALID_OPTION, before anything is read', () => {
  const bytes = readBytes(SAVED.path);
  let reads = 0;
  const counting = { size: bytes.length, read: () => { reads += 1; return null; }, rewind: () => true };
  const badLoad = [
    ['unknown load option', { bogus: 1 }],
    ['unknown load option, camel case of a CLI flag', { asText: true }],
    ['options a string', 'saved-model'],
    ['options a number', 3],
    ['options an array', ['serve']],
    ['options true', true],
  ];
  for (const [what, options] of badLoad) {
    const e = assertGraphportError(gp, () => gp.load(counting, options), { codes: 'INVALID_OPTION' });
    assert.ok(e.message.length > 0, what);
  }
  assert.match(assertGraphportError(gp, () => gp.load(bytes, { bogus: 1 })).message, /bogus/);
  assert.equal(reads, 0, 'option errors come before reading');
  const badValues = [
    { format: 'onnx' }, { format: 'graph-def-json' }, { format: 'GraphDef' }, { format: 7 },
    { tags: 'serve' }, { tags: [1] }, { tags: {} }, { name: 5 },
  ];
  for (const options of badValues) {
    assertGraphportError(gp, () => gp.load(bytes, options), { codes: 'INVALID_OPTION' });
  }
  for (const input of [undefined, null, 42, 'a string', {}, [1, 2, 3], { read: () => null }]) {
    assertGraphportError(gp, () => gp.load(input), { codes: 'INVALID_OPTION' });
  }

  withModel(gp, bytes, {}, (m) => {
    const badExport = [
      { bogus: 1 }, { to: 'onnx' }, { to: 'model.meta' }, { to: '' }, { to: 3 },
      { asText: 'yes' }, { asText: 1 }, { filename: 5 }, { tags: ['serve'] },
      'meta-graph', 7, ['graph-def'], true,
    ];
    for (const options of badExport) {
      const e = assertGraphportError(gp, () => m.export(options), { codes: 'INVALID_OPTION' });
      assert.ok(e.message.length > 0);
    }
    assert.match(assertGraphportError(gp, () => m.export({ to: 'onnx' })).message, /onnx/);
    assert.match(assertGraphportError(gp, () => m.export({ bogus: 1 })).message, /bogus/);
    // After the errors the model still exports.
    assert.ok(exportBytes(m, { to: 'graph-def' }).length > 0);
  });
});

leakCheckedTest(gp, 'summaryText renders inspect() as the CLI prints it', () => {
  withModel(gp, readBytes(META.path), {}, (m) => {
    const text = gp.summaryText(m.inspect());
    assert.match(text, /^family: +tensorflow$/m);
    assert.match(text, /^format: +meta-graph \(binary, 13244 bytes\)$/m);
    assert.match(text, /TensorFlow 0\.12\.head/);
    assert.match(text, /^nodes: +57 \(13 ops\)$/m);
    assert.match(text, /^collections: 7$/m);
  });
});

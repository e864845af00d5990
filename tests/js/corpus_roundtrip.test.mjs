// Round trips through the WebAssembly build: binary → binary is stable, text → binary gives
// the binary export's bytes, and the exported bytes hold what the input held (read with the
// suite's own wire reader, not with graphport).
import assert from 'node:assert/strict';

import {
  BYTE_IDENTICAL_VERSIONS, GRAPHS, KINDS, assertSameBytes, checkNoLeaksAtEnd, exportBytes, graphport,
  leakCheckedTest, readBytes, withModel,
} from './helpers.mjs';
import { comparableWire, wireSummary } from './wire.mjs';

const gp = await graphport();
checkNoLeaksAtEnd(gp);

const utf8 = new TextDecoder('utf-8', { fatal: true });

for (const g of GRAPHS) {
  leakCheckedTest(gp, `${g.name}: binary ${g.kind} → load → binary is byte-stable`, () => {
    const original = readBytes(g.path);
    const first = withModel(gp, original, {}, (m) => exportBytes(m, { to: g.kind }));
    const second = withModel(gp, first, {}, (m) => {
      const s = m.inspect();
      assert.equal(s.format, g.kind);
      assert.equal(s.encoding, 'binary');
      assert.equal(s.inputBytes, first.length);
      return exportBytes(m, { to: g.kind });
    });
    assertSameBytes(second, first, 'second binary export');
    // research §3.5: re-encoding keeps the size; TF 2.1/2.2/2.4 files come back byte for byte.
    assert.equal(first.length, original.length);
    if (BYTE_IDENTICAL_VERSIONS.has(g.tfVersion)) assertSameBytes(first, original, 'export of a sorted-map file');
    // Whatever the byte order, the content is the same.
    assert.deepEqual(comparableWire(wireSummary(first, g.kind)), comparableWire(wireSummary(original, g.kind)));
  });

  leakCheckedTest(gp, `${g.name}: text ${g.kind} → load → binary equals the binary export`, () => {
    const { binary, text } = withModel(gp, readBytes(g.path), {}, (m) => ({
      binary: exportBytes(m, { to: g.kind }),
      text: exportBytes(m, { to: g.kind, asText: true }),
    }));
    const asString = utf8.decode(text); // text format is valid UTF-8
    assert.ok(asString.length > 0);
    assert.ok(!asString.includes('\0'));
    const fromText = withModel(gp, text, { name: 'roundtrip.pbtxt' }, (m) => {
      const s = m.inspect();
      assert.equal(s.format, g.kind);
      assert.equal(s.encoding, 'text');
      assert.equal(s.inputBytes, text.length);
      return {
        binary: exportBytes(m, { to: g.kind }),
        text: exportBytes(m, { to: g.kind, asText: true }),
      };
    });
    assertSameBytes(fromText.binary, binary, 'binary export of the text export');
    assertSameBytes(fromText.text, text, 'text export of the text export');
  });
}

// The other kinds an export can write hold the right part of the input.
for (const g of GRAPHS) {
  leakCheckedTest(gp, `${g.name}: graph-def, meta-graph and saved-model exports hold the input's graph`, () => {
    const original = readBytes(g.path);
    const want = wireSummary(original, g.kind);
    const out = withModel(gp, original, {}, (m) => Object.fromEntries(KINDS.map((k) => [k, exportBytes(m, { to: k })])));
    const graphOnly = ({ nodeCount, ops, functions, producer }) => ({
      nodeCount, ops, functions, producer: { graphProducer: producer.graphProducer, minConsumer: producer.minConsumer },
    });
    for (const k of KINDS) {
      assert.deepEqual(graphOnly(wireSummary(out[k], k)), graphOnly(want), `${k} export`);
    }
    if (g.kind !== 'graph-def') {
      // A MetaGraphDef input, or the selected one of a SavedModel, goes out whole as meta-graph.
      const meta = wireSummary(out['meta-graph'], 'meta-graph');
      assert.deepEqual({ ...comparableWire(meta), metaGraphs: [], selectedMetaGraph: -1 },
        { ...comparableWire(want), metaGraphs: [], selectedMetaGraph: -1 });
    } else {
      // A lone GraphDef becomes a MetaGraphDef with the graph only, and a SavedModel tagged serve.
      assert.deepEqual(wireSummary(out['meta-graph'], 'meta-graph').tags, []);
      const sm = wireSummary(out['saved-model'], 'saved-model');
      assert.deepEqual(sm.metaGraphs, [{ tags: ['serve'], nodeCount: want.nodeCount, signatureCount: 0 }]);
    }
    if (g.kind === 'meta-graph') {
      const sm = wireSummary(out['saved-model'], 'saved-model', []);
      assert.equal(sm.metaGraphs.length, 1);
      assert.equal(sm.metaGraphs[0].nodeCount, want.nodeCount);
    }
  });
}

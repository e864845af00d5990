// Every corpus graph loads through the WebAssembly build with the right detected format, and
// inspect() agrees with two independent sources: the research notes' table (protoc decoding)
// and this suite's own wire reader (wire.mjs).
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { test } from 'node:test';

import {
  GRAPHS, checkNoLeaksAtEnd, corpusPath, findCorpusGraphs, graphport, leakCheckedTest, readBytes,
  withModel,
} from './helpers.mjs';
import { comparableInspect, comparableWire, wireSummary } from './wire.mjs';

const gp = await graphport();
checkNoLeaksAtEnd(gp);

test('the fact table covers exactly the graphs found in the corpus', () => {
  const found = findCorpusGraphs();
  assert.deepEqual(found, GRAPHS.map((g) => g.rel).sort());
  assert.equal(found.length, 16);
});

for (const g of GRAPHS) {
  leakCheckedTest(gp, `${g.name}: detected format and the facts of research §3.4`, () => {
    const bytes = readBytes(g.path);
    withModel(gp, bytes, { name: g.name }, (model) => {
      const s = model.inspect();
      assert.equal(s.family, 'tensorflow');
      assert.equal(s.format, g.kind);
      assert.equal(s.encoding, 'binary');
      assert.equal(s.inputBytes, bytes.length);
      assert.equal(s.nodeCount, Object.values(s.ops).reduce((a, b) => a + b, 0));

      if (g.bytes !== undefined) assert.equal(bytes.length, g.bytes, 'file size of research §3.4');
      if (g.nodes !== undefined) assert.equal(s.nodeCount, g.nodes);
      if (g.ops !== undefined) assert.equal(Object.keys(s.ops).length, g.ops, 'distinct ops');
      if (g.tfVersion !== undefined) assert.equal(s.producer.tensorflowVersion, g.tfVersion);
      if (g.hasSaver !== undefined) assert.equal(s.hasSaver, g.hasSaver);
      if (g.signatures !== undefined) assert.equal(s.signatures.length, g.signatures);
      if (g.signatureIncludes) assert.ok(s.signatures.some((x) => x.name === g.signatureIncludes));
      if (g.collections) {
        assert.deepEqual(Object.fromEntries(s.collections.map((c) => [c.name, c.kind])), g.collections);
      }
      if (g.collectionNames) assert.deepEqual(s.collections.map((c) => c.name), g.collectionNames);
      if (g.collectionCount !== undefined) assert.equal(s.collections.length, g.collectionCount);
      if (g.collectionIncludes) assert.ok(s.collections.some((c) => c.name === g.collectionIncludes));
      if (g.hasAnyList) assert.ok(s.collections.some((c) => c.kind === 'any_list'));
      if (g.kind === 'saved-model') {
        // research §3.4: tags ["serve"] wherever present; each of these holds one MetaGraphDef.
        assert.deepEqual(s.tags, ['serve']);
        assert.equal(s.metaGraphs.length, 1);
        assert.equal(s.selectedMetaGraph, 0);
        assert.equal(s.metaGraphs[0].nodeCount, s.nodeCount);
        assert.equal(s.metaGraphs[0].signatureCount, s.signatures.length);
      }
      if (g.kind === 'meta-graph') assert.deepEqual(s.metaGraphs, []);

      const wire = wireSummary(bytes, g.kind);
      if (g.ops !== undefined && wire.strippedOps > 0) assert.equal(wire.strippedOps, g.ops);
      if (g.strippedOps !== undefined) assert.equal(wire.strippedOps, g.strippedOps);
      if (g.functionsTotal !== undefined) {
        assert.equal(s.functions.length + wire.objectGraphFunctions, g.functionsTotal);
        assert.ok(s.functions.length > 0 && wire.objectGraphFunctions > 0);
      }
      if (g.strippedDefaultAttrs !== undefined) {
        assert.equal(wire.strippedDefaultAttrs, g.strippedDefaultAttrs);
      }
      // The whole summary against the independent wire reading.
      assert.deepEqual(comparableInspect(s), comparableWire(wire));
    });
  });
}

leakCheckedTest(gp, 'tf2_cpu: 29 nodes, 14 library functions with their node counts, TF 2.14.0', () => {
  const g = GRAPHS.find((x) => x.rel.includes('tf2_cpu'));
  withModel(gp, readBytes(g.path), {}, (model) => {
    const s = model.inspect();
    assert.equal(s.nodeCount, 29);
    assert.equal(s.producer.tensorflowVersion, '2.14.0');
    assert.equal(s.functions.length, 14);
    for (const f of s.functions) {
      assert.match(f.name, /^__inference_/);
      assert.ok(f.nodeCount > 0, f.name);
    }
    assert.equal(new Set(s.functions.map((f) => f.name)).size, 14, 'function names are unique');
  });
});

leakCheckedTest(gp, 'frozen_graph.pb agrees with the TensorFlow.js model.json of the same model', () => {
  const g = GRAPHS.find((x) => x.kind === 'graph-def');
  const topology = JSON.parse(readFileSync(corpusPath(g.modelJson), 'utf8')).modelTopology;
  withModel(gp, readBytes(g.path), {}, (model) => {
    const s = model.inspect();
    assert.equal(s.format, 'graph-def');
    assert.equal(s.inputBytes, statSync(g.path).size);
    assert.equal(s.producer.graphProducer, topology.versions.producer);
    assert.equal(s.producer.tensorflowVersion, undefined, 'a GraphDef has no MetaInfoDef');
    // The converter fused MatMul + BiasAdd into _FusedMatMul; everything else is the same graph.
    const jsOps = topology.node.map((n) => n.op).filter((op) => op !== '_FusedMatMul');
    for (const op of jsOps) assert.ok(s.ops[op] >= 1, `op ${op} of model.json missing`);
    assert.equal(s.ops.MatMul, 1);
    assert.equal(s.ops.BiasAdd, 1);
    assert.equal(s.nodeCount, topology.node.length + 1);
    assert.deepEqual(s.collections, []);
    assert.deepEqual(s.signatures, []);
    assert.deepEqual(s.tags, []);
    assert.equal(s.hasSaver, false);
  });
});

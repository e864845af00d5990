// The graph view's JS API (model.graph, model.node, model.searchGraph) on the corpus: each
// level's node counts add up to its group's and to inspect()'s nodeCount, each node is
// reached once by expanding the groups, and bad arguments are GraphportErrors with codes.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { GRAPHS, assertGraphportError, checkNoLeaksAtEnd, corpusPath, graphport, readBytes, withModel } from './helpers.mjs';

const gp = await graphport();
checkNoLeaksAtEnd(gp);

// Every node reached from the top by expanding the groups, checking each level on the way.
function expandAll(model) {
  const names = new Set();
  const walk = (group) => {
    const level = model.graph({ group });
    let sum = 0;
    for (const c of level.children) {
      if (c.kind === 'group') {
        sum += c.nodes;
        walk(c.name);
      } else {
        sum += 1;
        assert.ok(!names.has(c.name), `${c.name} reached twice`);
        names.add(c.name);
      }
    }
    assert.equal(sum, level.groupNodeCount, `group '${group}'`);
    for (const e of level.edges) {
      assert.ok(e.from >= -1 && e.from < level.children.length && e.to >= -1 && e.to < level.children.length);
      assert.ok(e.count >= 1);
    }
  };
  walk('');
  return names;
}

for (const graph of GRAPHS) {
  test(`${graph.rel}: levels reach each node once`, () => {
    withModel(gp, readBytes(corpusPath(graph.rel)), { name: graph.rel }, (model) => {
      const nodes = model.inspect().nodeCount;
      if (graph.nodes !== undefined) assert.equal(nodes, graph.nodes);
      const top = model.graph();
      assert.equal(top.nodeCount, nodes);
      assert.equal(top.groupNodeCount, nodes);
      assert.equal(top.separator, '/');
      assert.equal(expandAll(model).size, nodes);
    });
  });
}

test('node() gives the details panel its facts; searchGraph() finds by name or op', () => {
  const meta = GRAPHS[0];
  withModel(gp, readBytes(corpusPath(meta.rel)), { name: meta.rel }, (model) => {
    const y = model.node('y');
    assert.equal(y.op, 'Add');
    assert.equal(y.attrs.T, 'float32');
    assert.deepEqual(y.inputs.map((i) => i.node), ['Mul', 'b/read']);
    const found = model.searchGraph('add');
    assert.deepEqual(found.matches, [{ name: 'y', op: 'Add' }]);
    assert.equal(model.searchGraph('read', { limit: 1 }).matches.length, 1);
  });
});

test('bad graph arguments are GraphportErrors with codes', () => {
  const meta = GRAPHS[0];
  withModel(gp, readBytes(corpusPath(meta.rel)), { name: meta.rel }, (model) => {
    assertGraphportError(gp, () => model.graph({ group: 'nowhere' }), { codes: 'NOT_FOUND' });
    assertGraphportError(gp, () => model.graph({ group: 7 }), { codes: 'INVALID_OPTION' });
    assertGraphportError(gp, () => model.graph({ limit: -1 }), { codes: 'INVALID_OPTION' });
    const e = assertGraphportError(gp, () => model.node('no/such'), { codes: 'NOT_FOUND' });
    assert.equal(e.node, 'no/such');
    assertGraphportError(gp, () => model.searchGraph(3), { codes: 'INVALID_OPTION' });
  });
});

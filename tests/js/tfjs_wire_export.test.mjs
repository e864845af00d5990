// A binary GraphDef exported to TF.js is written from its bytes a node at a time, with
// TensorFlow options too (the nodes they change are rewritten one by one): the model is never
// parsed whole, and model.json goes to the sink in pieces rather than as one string. A
// node-heavy graph's export then grows the heap by a small part of the graph (it was 13x the
// graph before), and its files are the ones the export of the parsed graph writes.
// Its own file: node:test runs each file in a fresh process, so the heap starts small here.
import assert from 'node:assert/strict';

import { bytesEqual, checkNoLeaksAtEnd, graphport, leakCheckedTest, withModel } from './helpers.mjs';
import { bytesField, concat, stringField, varintField } from './wire_writer.mjs';

const gp = await graphport();
checkNoLeaksAtEnd(gp);

const MiB = 1 << 20;
const NODES = 200000;
const DT_FLOAT = 1;

// NodeDef: name 1, op 2, input 3, attr 5 (map<string, AttrValue>: key 1, value 2);
// AttrValue: type 6, tensor 8; TensorProto: dtype 1, tensor_shape 2 (dim 2, size 1),
// tensor_content 4. GraphDef: node 1, versions 4 (producer 1).
const attr = (name, value) => bytesField(5, concat([stringField(1, name), bytesField(2, value)]));
const typeAttr = (name) => attr(name, varintField(6, DT_FLOAT));
const node = (...fields) => bytesField(1, concat(fields));

function floatTensor(values) {
  const content = new Uint8Array(new Float32Array(values).buffer);
  const shape = bytesField(2, bytesField(2, varintField(1, values.length)));
  return bytesField(8, concat([varintField(1, DT_FLOAT), shape, bytesField(4, content)]));
}

// A Placeholder, then Relu/Identity/AddN nodes reading the one before, with a small Const
// every 1,000 nodes. Every 997th node carries a field NodeDef lacks (number 99), which keeps
// it from being copied as it is: it is parsed on its own when written.
function nodeHeavyGraph() {
  const parts = [node(stringField(1, 'x'), stringField(2, 'Placeholder'), typeAttr('dtype'))];
  for (let i = 1; i < NODES; ++i) {
    const name = `layer/n${i}`;
    const before = i === 1 ? 'x' : `layer/n${i - 1}`;
    if (i % 1000 === 0) {
      parts.push(node(stringField(1, name), stringField(2, 'Const'), typeAttr('dtype'),
        attr('value', floatTensor([i, -i, 0.5]))));
      continue;
    }
    const op = ['Relu', 'Identity', 'AddN'][i % 3];
    const fields = [stringField(1, name), stringField(2, op), stringField(3, before)];
    if (op === 'AddN') fields.push(stringField(3, 'x'), attr('N', varintField(3, 2)));
    fields.push(typeAttr('T'));
    if (i % 997 === 0) fields.push(stringField(99, 'kept aside'));
    parts.push(node(...fields));
  }
  parts.push(bytesField(4, varintField(1, 1286)));
  return concat(parts);
}

// A sink that keeps every file's chunks and counts its writes.
function collectingSink() {
  const files = {};
  return {
    files,
    open(name) {
      const file = (files[name] = { chunks: [], bytes: null });
      return {
        write(view) { file.chunks.push(view.slice()); },
        close() { file.bytes = concat(file.chunks); },
      };
    },
  };
}

function sameFiles(actual, expected, what) {
  assert.deepEqual(Object.keys(actual.files), Object.keys(expected.files), what);
  for (const name of Object.keys(expected.files)) {
    assert.ok(bytesEqual(actual.files[name].bytes, expected.files[name].bytes),
      `${what}: ${name} differs`);
  }
}

const SCOPED = { to: 'tfjs', exportScope: 'layer', clearDevices: true, stripDefaultAttrs: true };

leakCheckedTest(gp, 'a node-heavy GraphDef goes to TF.js a node at a time, as its parse would', (t) => {
  const graph = nodeHeavyGraph();
  const heapBefore = gp.heapBytes();
  withModel(gp, graph, { name: 'nodes.pb' }, (model) => {
    assert.equal(model.inspect().nodeCount, NODES);
    const afterLoad = gp.heapBytes();
    const streamed = collectingSink();
    const { info } = model.exportTo({ to: 'tfjs' }, streamed);
    // With TensorFlow options the nodes are rewritten one by one as they are written.
    const scoped = collectingSink();
    model.exportTo(SCOPED, scoped);
    const growth = gp.heapBytes() - afterLoad;
    t.diagnostic(`graph ${(graph.length / MiB).toFixed(1)} MiB; heap ${(heapBefore / MiB).toFixed(0)} -> ` +
      `${(afterLoad / MiB).toFixed(0)} MiB after load, +${(growth / MiB).toFixed(1)} MiB by the TF.js exports`);
    assert.ok(growth <= 0.5 * graph.length,
      `the TF.js exports grew the heap by ${(growth / MiB).toFixed(1)} MiB for a ` +
      `${(graph.length / MiB).toFixed(1)} MiB graph`);
    const json = streamed.files['model.json'];
    assert.ok(json.chunks.length > 1, 'model.json reaches the sink in pieces');
    assert.equal(info.weights, NODES / 1000 - 1);

    const written = JSON.parse(new TextDecoder().decode(json.bytes));
    const nodes = written.modelTopology.node;
    assert.equal(nodes.length, NODES);
    assert.deepEqual(nodes[2], { name: 'layer/n2', op: 'AddN', input: ['layer/n1', 'x'],
      attr: { N: { i: '2' }, T: { type: 'DT_FLOAT' } } });
    assert.deepEqual(nodes[1000], { name: 'layer/n1000', op: 'Const', attr: {
      dtype: { type: 'DT_FLOAT' },
      value: { tensor: { dtype: 'DT_FLOAT', tensorShape: { dim: [{ size: '3' }] } } } } });
    // The node with a field NodeDef lacks: written from its parse, which leaves it out.
    assert.deepEqual(nodes[997], { name: 'layer/n997', op: 'Identity', input: ['layer/n996'],
      attr: { T: { type: 'DT_FLOAT' } } });
    const shard = streamed.files['group1-shard1of1.bin'].bytes;
    const weights = new Float32Array(shard.buffer, shard.byteOffset, shard.length / 4);
    assert.deepEqual([...weights.slice(0, 6)], [1000, -1000, 0.5, 2000, -2000, 0.5]);

    const inScope = JSON.parse(new TextDecoder().decode(scoped.files['model.json'].bytes));
    assert.equal(inScope.modelTopology.node.length, NODES - 1, 'x is outside the scope');
    assert.deepEqual(inScope.modelTopology.node[1], { name: 'n2', op: 'AddN',
      input: ['n1', '$unbound_inputs_x'], attr: { N: { i: '2' }, T: { type: 'DT_FLOAT' } } });

    // unfuseOps (which changes nothing in this graph) parses the graph first: the same files,
    // byte for byte.
    const parsed = collectingSink();
    model.exportTo({ to: 'tfjs', unfuseOps: true }, parsed);
    sameFiles(streamed, parsed, 'to: tfjs');
    const parsedScoped = collectingSink();
    model.exportTo({ ...SCOPED, unfuseOps: true }, parsedScoped);
    sameFiles(scoped, parsedScoped, 'to: tfjs in a scope');
  });
});

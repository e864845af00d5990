// The built module's byte loops, which in WebAssembly go sixteen bytes at a time (core/
// byte_block.h): the ASCII check of every name, the compare of a node's tail with the tails
// remembered from nodes before (proto/wire_check.cc), and the copy of each node an export
// writes. Each is driven with a byte that matters at every place of runs of every length
// around the block sizes, on the module itself (the C++ unit tests run natively).
import assert from 'node:assert/strict';

import {
  assertGraphportError, checkNoLeaksAtEnd, exportBytes, graphport, leakCheckedTest, withModel,
} from './helpers.mjs';
import { bytesField, concat, stringField } from './wire_writer.mjs';

const gp = await graphport();
checkNoLeaksAtEnd(gp);

const ascii = (text) => new TextEncoder().encode(text);
// NodeDef: name 1, op 2, input 3, device 4 (../shared/research/tensorflow.md §2).
const node = (name, device, inputs = []) => concat([
  bytesField(1, name), stringField(2, 'NoOp'),
  ...inputs.map((i) => stringField(3, i)), ...(device ? [bytesField(4, device)] : []),
]);
const graph = (nodes) => concat(nodes.map((n) => bytesField(1, n)));  // GraphDef.node is 1
const run = (length, fill = 0x61) => new Uint8Array(length).fill(fill);

leakCheckedTest(gp, 'a name with one byte that is not UTF-8, at any place of any length, fails to load', () => {
  for (let length = 1; length <= 70; ++length) {
    for (let at = 0; at < length; ++at) {
      const name = run(length);
      name[at] = 0xff;
      const e = assertGraphportError(gp, () => gp.load(graph([node(name)]), { name: 'bad.pb' }),
        { codes: 'PARSE_ERROR', name: 'bad.pb' });
      assert.match(e.message, /UTF-8/, `length ${length}, byte ${at}`);
      // Valid two-byte UTF-8 at the same place loads, and is written back as it was.
      const good = graph([node(concat([run(at), Uint8Array.of(0xc3, 0xa9), run(length - at)]))]);
      withModel(gp, good, {}, (m) => assert.deepEqual(exportBytes(m, { to: 'graph-def' }), good));
    }
  }
});

leakCheckedTest(gp, 'ops that differ in any one byte are told apart', () => {
  // The index keeps each op's number by the op's length and end bytes: ops alike in those
  // are told apart by comparing their bytes.
  const opNode = (name, op) => concat([stringField(1, name), bytesField(2, op)]);
  for (const length of [15, 16, 17, 24, 32, 33, 48, 70]) {
    const nodes = [];
    const ops = {};
    for (let at = 1; at < length - 1; ++at) {
      const op = run(length, 0x4f);
      op[at] = 0x50;
      const text = new TextDecoder().decode(op);
      ops[text] = 2;
      nodes.push(opNode(`a${at}`, op), opNode(`b${at}`, op));
    }
    withModel(gp, graph(nodes), {}, (m) => assert.deepEqual(m.inspect().ops, ops, `length ${length}`));
  }
});

leakCheckedTest(gp, 'a device that differs from one met before in any one byte is judged by itself', () => {
  // The tail (device on) of the first node is met three times and remembered; the last node's
  // differs from it in one byte, which makes it invalid: a compare that missed that byte
  // would take the remembered answer and load the graph.
  for (const length of [15, 16, 17, 31, 32, 33, 47, 64, 100]) {
    const device = run(length, 0x64);
    for (let at = 0; at < length; ++at) {
      const bad = device.slice();
      bad[at] = 0xff;
      const nodes = [0, 1, 2].map((i) => node(ascii(`n${i}`), device));
      assertGraphportError(gp, () => gp.load(graph([...nodes, node(ascii('last'), bad)])),
        { codes: 'PARSE_ERROR' });
      withModel(gp, graph([...nodes, node(ascii('last'), device)]), {}, (m) => {
        assert.equal(m.inspect().nodeCount, 4);
      });
    }
  }
});

leakCheckedTest(gp, 'nodes of every length are exported as they are, and without their devices', () => {
  const withDevices = [], without = [];
  // Names across the copy's block sizes and past its short-copy limit (512 bytes).
  for (let length = 1; length <= 600; length += length < 80 ? 1 : 37) {
    const name = ascii(`${length}:`.padEnd(length, String.fromCharCode(97 + (length % 26))));
    const inputs = [`in${length}`];
    withDevices.push(node(name, ascii(`/device:CPU:${length % 7}`), inputs));
    without.push(node(name, null, inputs));
  }
  const input = graph(withDevices);
  withModel(gp, input, {}, (m) => {
    assert.deepEqual(exportBytes(m, { to: 'graph-def' }), input);
    assert.deepEqual(exportBytes(m, { to: 'graph-def', clearDevices: true }), graph(without));
  });
});

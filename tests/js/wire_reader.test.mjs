// The suite's own wire reader (wire.mjs) is an oracle for inspect(); here it is checked
// against encodings worked out by hand from the protobuf wire format specification.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Msg, WireError, readFields, topLevelBoundaries, wireSummary } from './wire.mjs';

test('varints, lengths and wire types decode as the protobuf encoding guide says', () => {
  // The guide's own example: field 1, varint 150 is 08 96 01.
  assert.deepEqual(readFields(new Uint8Array([0x08, 0x96, 0x01])).map(({ number, wire, value }) => ({ number, wire, value })),
    [{ number: 1, wire: 0, value: 150 }]);
  // Field 2, string "testing": 12 07 74 65 73 74 69 6e 67.
  const s = new Msg(new Uint8Array([0x12, 0x07, 0x74, 0x65, 0x73, 0x74, 0x69, 0x6e, 0x67]));
  assert.equal(s.str(2), 'testing');
  // A fixed64 (wire 1) and a fixed32 (wire 5) are skipped by width.
  const f = readFields(new Uint8Array([0x19, 1, 2, 3, 4, 5, 6, 7, 8, 0x25, 1, 2, 3, 4, 0x28, 0x05]));
  assert.deepEqual(f.map((x) => [x.number, x.wire, x.end]), [[3, 1, 9], [4, 5, 14], [5, 0, 16]]);
  // Packed varints 3, 270, 86942 (the guide's packed example: 22 06 03 8e 02 9e a7 05).
  const packed = new Msg(new Uint8Array([0x22, 0x06, 0x03, 0x8e, 0x02, 0x9e, 0xa7, 0x05]));
  assert.equal(packed.repeatedCount(4, 0), 3);
  assert.equal(new Msg(new Uint8Array([0x0d, 0, 0, 0x80, 0x3f, 0x0a, 0x08, 0, 0, 0, 0, 0, 0, 0, 0])).repeatedCount(1, 4), 3);
  // Large varints stay exact up to 2^53.
  assert.equal(readFields(new Uint8Array([0x08, 0x80, 0x80, 0x80, 0x80, 0x10]))[0].value, 2 ** 32);
});

test('malformed bytes throw with the offset of the bad field', () => {
  for (const [bytes, offset] of [
    [[0x0a, 0x05, 1, 2], 0], // length past the end
    [[0x08, 0x01, 0x0b], 2], // wire type 3 (start group)
    [[0x08, 0x01, 0x08], 3], // varint cut off
    [[0x00, 0x01], 0], // field number 0
  ]) {
    assert.throws(() => readFields(new Uint8Array(bytes)), (e) => e instanceof WireError && e.offset === offset);
  }
});

test('top-level boundaries and a hand-made GraphDef summary', () => {
  // GraphDef{node{name:"a" op:"Const"} node{name:"b" op:"Add"} versions{producer:7}}
  const node = (name, op) => [0x0a, name.length + op.length + 4, 0x0a, name.length, ...Buffer.from(name), 0x12, op.length, ...Buffer.from(op)];
  const n1 = node('a', 'Const');
  const n2 = node('b', 'Add');
  const bytes = new Uint8Array([...n1, ...n2, 0x22, 0x02, 0x08, 0x07]);
  assert.deepEqual([...topLevelBoundaries(bytes)], [0, n1.length, n1.length + n2.length, bytes.length]);
  const s = wireSummary(bytes, 'graph-def');
  assert.equal(s.nodeCount, 2);
  assert.deepEqual(s.ops, { Const: 1, Add: 1 });
  assert.deepEqual(s.producer, { graphProducer: 7, minConsumer: 0 });
});

// MegEngine's 64-bit integers through the WebAssembly build: inspect() gives a long/ulong
// param (and the metadata's optimize_options word) beyond Number.MAX_SAFE_INTEGER as its
// decimal string, smaller ones as numbers (index.d.ts, MegEngineParam), and the re-dump keeps
// the value. The model is built here, byte by byte: one Dropout whose seed is the value.
import assert from 'node:assert/strict';
import { describe } from 'node:test';

import { checkNoLeaksAtEnd, graphport, leakCheckedTest, withModel } from './helpers.mjs';

const gp = await graphport();
checkNoLeaksAtEnd(gp);

// A FlatBuffers writer laid out front to back (every uoffset points forward, as the format
// requires); enough for a few tables and vectors of scalars or tables.
class FlatWriter {
  constructor() {
    this.bytes = [];
    this.fixups = []; // [position of a uoffset, label of its target]
  }

  get pos() { return this.bytes.length; }
  pad(n) { while (this.bytes.length % n) this.bytes.push(0); }
  put(view) { for (const b of new Uint8Array(view.buffer)) this.bytes.push(b); }
  scalar(kind, v) {
    const size = { u8: 1, u16: 2, u32: 4, i32: 4, f32: 4, u64: 8 }[kind];
    const d = new DataView(new ArrayBuffer(size));
    if (kind === 'u8') d.setUint8(0, v);
    if (kind === 'u16') d.setUint16(0, v, true);
    if (kind === 'u32') d.setUint32(0, v, true);
    if (kind === 'i32') d.setInt32(0, v, true);
    if (kind === 'f32') d.setFloat32(0, v, true);
    if (kind === 'u64') d.setBigUint64(0, v, true);
    this.put(d);
  }
  set16(at, v) { this.bytes[at] = v & 255; this.bytes[at + 1] = v >> 8; }
  ref(label) {
    this.pad(4);
    this.fixups.push([this.pos, label]);
    this.scalar('u32', 0);
  }

  // fields: [{ slot, kind, value }] with kind a scalar kind or 'ref' (value: a label).
  table(label, fields) {
    const slots = Math.max(...fields.map((f) => f.slot)) + 1;
    this.pad(2);
    const vtable = this.pos;
    this.scalar('u16', 4 + 2 * slots);
    for (let i = 0; i <= slots; ++i) this.scalar('u16', 0);
    this.pad(8);
    const table = this.pos;
    label.pos = table;
    this.scalar('i32', table - vtable);
    for (const f of fields) {
      const size = { u8: 1, u32: 4, f32: 4, u64: 8, ref: 4 }[f.kind];
      this.pad(size);
      this.set16(vtable + 4 + 2 * f.slot, this.pos - table);
      if (f.kind === 'ref') this.ref(f.value);
      else this.scalar(f.kind, f.value);
    }
    this.set16(vtable + 2, this.pos - table);
  }

  u32Vector(label, values) {
    this.pad(4);
    label.pos = this.pos;
    this.scalar('u32', values.length);
    for (const v of values) this.scalar('u32', v);
  }

  refVector(label, targets) {
    this.pad(4);
    label.pos = this.pos;
    this.scalar('u32', targets.length);
    for (const t of targets) this.ref(t);
  }

  finish() {
    for (const [at, label] of this.fixups) {
      const d = new DataView(new ArrayBuffer(4));
      d.setUint32(0, label.pos - at, true);
      this.bytes.splice(at, 4, ...new Uint8Array(d.buffer));
    }
    const out = Uint8Array.from(this.bytes);
    new DataView(out.buffer).setUint32(0, out.length - 4, true);
    return out;
  }
}

const DROPOUT_PARAM = 86;
const DROPOUT_TYPE_ID = 0x8cbe1d131973bdc4n;

// An FBS_V2 model (size-prefixed, identifier "mgv2"): one Dropout (union 86: drop_prob, seed)
// with no inputs, outputs 0 and 1, output 0 the graph's; metadata with `optimizeOptions`.
function dropoutModel(seed, optimizeOptions) {
  const w = new FlatWriter();
  const root = {};
  const oprs = {}, op = {}, param = {}, outputs = {}, outVars = {}, outVar = {}, meta = {};
  w.scalar('u32', 0); // the size prefix, set by finish()
  w.ref(root);
  w.put(new TextEncoder().encode('mgv2'));
  // Model: model_version (slot 1), oprs (2), output_vars_idx (4), metadata (7).
  w.table(root, [
    { slot: 1, kind: 'u32', value: 2 },
    { slot: 2, kind: 'ref', value: oprs },
    { slot: 4, kind: 'ref', value: outVars },
    { slot: 7, kind: 'ref', value: meta },
  ]);
  w.refVector(oprs, [op]);
  // Operator: type_id (1; Dropout's FBS_V2 id, research megengine_opr_type_ids.csv),
  // param_type (3), param (4), outputs (8), opr_version (12).
  w.table(op, [
    { slot: 1, kind: 'u64', value: DROPOUT_TYPE_ID },
    { slot: 3, kind: 'u8', value: DROPOUT_PARAM },
    { slot: 4, kind: 'ref', value: param },
    { slot: 8, kind: 'ref', value: outputs },
    { slot: 12, kind: 'u32', value: 1 },
  ]);
  w.table(param, [
    { slot: 0, kind: 'f32', value: 0.5 },
    { slot: 1, kind: 'u64', value: seed },
  ]);
  w.u32Vector(outputs, [0, 1]);
  w.refVector(outVars, [outVar]);
  w.table(outVar, [{ slot: 0, kind: 'u32', value: 0 }, { slot: 1, kind: 'u32', value: 0 }]);
  // Metadata: is_valid (0), optimize_options (2).
  w.table(meta, [{ slot: 0, kind: 'u8', value: 1 }, { slot: 2, kind: 'u64', value: optimizeOptions }]);
  return w.finish();
}

const SAFE = BigInt(Number.MAX_SAFE_INTEGER); // 2^53 - 1

describe('mge 64-bit integers in inspect()', () => {
  for (const value of [0n, SAFE, SAFE + 1n, SAFE + 2n, 2n ** 64n - 1n]) {
    leakCheckedTest(gp, `a seed and an optimize_options word of ${value}`, () => {
      const expected = value > SAFE ? value.toString() : Number(value);
      withModel(gp, dropoutModel(value, value), { name: 'built.mge' }, (model) => {
        const summary = model.inspect();
        const fields = summary.megengine.operators[0].params[0].fields;
        assert.equal(summary.megengine.operators[0].class, 'Dropout');
        assert.equal(summary.megengine.operators[0].params[0].union, DROPOUT_PARAM);
        assert.strictEqual(fields.seed, expected);
        assert.equal(BigInt(fields.seed), value);
        assert.strictEqual(summary.megengine.metadata.optimizeOptions, expected);
        // The re-dump keeps the value exactly.
        const out = model.export({});
        withModel(gp, out.files[0].bytes, { name: 'again.mge' }, (again) => {
          assert.strictEqual(again.inspect().megengine.operators[0].params[0].fields.seed, expected);
        });
      });
    });
  }
});

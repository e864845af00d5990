// A small FlatBuffers writer for the MegEngine tests: it lays objects out front to back (a
// table before the objects it points to, so every offset points forward as the format wants),
// each 8-aligned from the start of the buffer, with no vtable sharing. Enough to build an
// FBS_V2 model of a few operators with large tensor values, without the flatc runtime.

export class ForwardFlatBuffer {
  #bytes;
  #view;
  length = 0;

  constructor(capacity = 1 << 16) {
    this.#bytes = new Uint8Array(capacity);
    this.#view = new DataView(this.#bytes.buffer);
  }

  // `size` bytes at the next multiple of `align`; returns their position.
  alloc(size, align = 4) {
    const at = Math.ceil(this.length / align) * align;
    if (at + size > this.#bytes.length) {
      const grown = new Uint8Array(Math.max(at + size, this.#bytes.length * 2));
      grown.set(this.#bytes.subarray(0, this.length));
      this.#bytes = grown;
      this.#view = new DataView(grown.buffer);
    }
    this.length = at + size;
    return at;
  }

  u8(at, v) { this.#view.setUint8(at, v); }
  u16(at, v) { this.#view.setUint16(at, v, true); }
  u32(at, v) { this.#view.setUint32(at, v, true); }
  i32(at, v) { this.#view.setInt32(at, v, true); }
  u64(at, v) { this.#view.setBigUint64(at, BigInt(v), true); }
  // An offset field at `at` pointing to the object at `target` (always further on).
  ref(at, target) {
    if (target <= at) throw new Error(`offset at ${at} must point forward, not to ${target}`);
    this.u32(at, target - at);
  }

  // A table with fields [slot, kind, value]: kind 'u8', 'u32', 'u64' (value written now) or
  // 'ref' (value ignored; set later with ref()). Returns {at, field: {slot: position}}.
  table(fields) {
    const slots = fields.length ? Math.max(...fields.map(([slot]) => slot)) + 1 : 0;
    const sizes = { u8: 1, u32: 4, u64: 8, ref: 4 };
    // Widest first, so each field is aligned to its size inside an 8-aligned table.
    const ordered = [...fields].sort((a, b) => sizes[b[1]] - sizes[a[1]]);
    let offset = 4;  // after the soffset to the vtable
    const place = new Map();
    for (const [slot, kind] of ordered) {
      const size = sizes[kind];
      offset = Math.ceil(offset / size) * size;
      place.set(slot, offset);
      offset += size;
    }
    const tableSize = Math.ceil(offset / 4) * 4;
    const vtable = this.alloc(4 + 2 * slots, 2);
    const at = this.alloc(tableSize, 8);
    this.i32(at, at - vtable);
    this.u16(vtable, 4 + 2 * slots);
    this.u16(vtable + 2, tableSize);
    const field = {};
    for (const [slot, kind, value] of fields) {
      const pos = at + place.get(slot);
      this.u16(vtable + 4 + 2 * slot, place.get(slot));
      field[slot] = pos;
      if (kind === 'u8') this.u8(pos, value);
      else if (kind === 'u32') this.u32(pos, value);
      else if (kind === 'u64') this.u64(pos, value);
    }
    return { at, field };
  }

  string(text) {
    const utf8 = new TextEncoder().encode(text);
    const at = this.alloc(4 + utf8.length + 1, 4);
    this.u32(at, utf8.length);
    this.#bytes.set(utf8, at + 4);
    this.u8(at + 4 + utf8.length, 0);
    return at;
  }

  u32s(values) {
    const at = this.alloc(4 + 4 * values.length, 4);
    this.u32(at, values.length);
    values.forEach((v, i) => this.u32(at + 4 + 4 * i, v));
    return at;
  }

  // A [ubyte] of `size` bytes, byte i = fill(i); returns its position.
  bytes(size, fill) {
    const at = this.alloc(4 + size, 8);
    this.u32(at, size);
    const data = this.#bytes.subarray(at + 4, at + 4 + size);
    for (let i = 0; i < size; ++i) data[i] = fill(i);
    return at;
  }

  // A vector of `n` offsets; returns {at, element(i)}: set each with ref().
  refs(n) {
    const at = this.alloc(4 + 4 * n, 4);
    this.u32(at, n);
    return { at, element: (i) => at + 4 + 4 * i };
  }

  // The finished bytes (a copy of exactly `length`).
  finish() {
    return this.#bytes.slice(0, this.length);
  }
}

// An FBS_V2 model (size-prefixed, "mgv2") of one value-holding operator per entry of
// `tensors`, each making one var; the last var is the output. `holder` names the operator
// as the registry knows it: {type, typeId (hex text), oprVersion}. Tensors: {name, shape,
// bytes, fill} (Float32, on cpu0:0).
export function mgeModelV2(holder, tensors, { mgeVersion = 1099900 } = {}) {
  const total = tensors.reduce((n, t) => n + t.bytes, 0);
  const fb = new ForwardFlatBuffer(total + (1 << 16) + 64 * tensors.length);
  const header = fb.alloc(12, 8);  // size prefix, root offset, file identifier
  'mgv2'.split('').forEach((c, i) => fb.u8(header + 8 + i, c.charCodeAt(0)));
  // Model: mge_version 0, model_version 1, oprs 2, output_vars_idx 4, nr_shared_tensor 6.
  const model = fb.table([[0, 'u32', mgeVersion], [1, 'u32', 2], [2, 'ref'], [4, 'ref'],
    [6, 'u32', 0]]);
  fb.ref(header + 4, model.at);
  const oprs = fb.refs(tensors.length);
  fb.ref(model.field[2], oprs.at);
  tensors.forEach((t, i) => {
    // Operator: type 0, type_id 1, name 2, outputs 8, tensors 11, opr_version 12.
    const op = fb.table([[0, 'ref'], [1, 'u64', BigInt(holder.typeId)], [2, 'ref'], [8, 'ref'],
      [11, 'ref'], [12, 'u32', holder.oprVersion]]);
    fb.ref(oprs.element(i), op.at);
    fb.ref(op.field[0], fb.string(holder.type));
    fb.ref(op.field[2], fb.string(`holder${i}`));
    fb.ref(op.field[8], fb.u32s([i]));
    const list = fb.refs(1);
    fb.ref(op.field[11], list.at);
    // Tensor: name 0, shape 1, comp_node 2, dtype 3, data 6.
    const tensor = fb.table([[0, 'ref'], [1, 'ref'], [2, 'ref'], [3, 'ref'], [6, 'ref']]);
    fb.ref(list.element(0), tensor.at);
    fb.ref(tensor.field[0], fb.string(t.name));
    fb.ref(tensor.field[1], fb.u32s(t.shape));
    const compNode = fb.table([[0, 'ref']]);
    fb.ref(tensor.field[2], compNode.at);
    fb.ref(compNode.field[0], fb.string('cpu0:0'));
    fb.ref(tensor.field[3], fb.table([]).at);  // DType: Float32, the default
    fb.ref(tensor.field[6], fb.bytes(t.bytes, t.fill));
  });
  const outputs = fb.refs(1);
  fb.ref(model.field[4], outputs.at);
  // OutputVar: compact_id 0, original_id 1.
  const last = tensors.length - 1;
  const output = fb.table([[0, 'u32', last], [1, 'u32', last]]);
  fb.ref(outputs.element(0), output.at);
  fb.u32(header, fb.length - 4);
  return fb.finish();
}

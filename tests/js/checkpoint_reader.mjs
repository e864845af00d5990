// An independent reader of TensorFlow checkpoints (TensorBundle: variables.index and its data
// files) for the tests, written from the format's facts in
// ../shared/research/savedmodel_freeze.md §1 and sharing no code with graphport: the table's
// footer, blocks (plain or snappy, decoded here), prefix-compressed entries, and the
// BundleEntryProto fields a value needs. It skips the crcs: the point is a second opinion on
// which bytes a key holds.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { readFields } from './wire.mjs';

const MAGIC = [0x57, 0xfb, 0x80, 0x8b, 0x24, 0x75, 0x47, 0xdb];

function varint(bytes, pos) {
  let value = 0;
  let scale = 1;
  for (;;) {
    const b = bytes[pos];
    pos += 1;
    value += (b & 0x7f) * scale;
    scale *= 128;
    if ((b & 0x80) === 0) return [value, pos];
  }
}

// Snappy's raw format: the uncompressed length, then literals and back-references.
function unsnappy(input) {
  let [length, pos] = varint(input, 0);
  const out = new Uint8Array(length);
  let at = 0;
  while (pos < input.length) {
    const tag = input[pos];
    pos += 1;
    const kind = tag & 3;
    if (kind === 0) {
      let n = tag >> 2;
      if (n >= 60) {
        const extra = n - 59;
        n = 0;
        for (let i = 0; i < extra; i += 1) n |= input[pos + i] << (8 * i);
        pos += extra;
      }
      n += 1;
      out.set(input.subarray(pos, pos + n), at);
      pos += n;
      at += n;
      continue;
    }
    let n;
    let offset;
    if (kind === 1) {
      n = ((tag >> 2) & 7) + 4;
      offset = ((tag >> 5) << 8) | input[pos];
      pos += 1;
    } else if (kind === 2) {
      n = (tag >> 2) + 1;
      offset = input[pos] | (input[pos + 1] << 8);
      pos += 2;
    } else {
      n = (tag >> 2) + 1;
      offset = (input[pos] | (input[pos + 1] << 8) | (input[pos + 2] << 16) | (input[pos + 3] << 24)) >>> 0;
      pos += 4;
    }
    for (let i = 0; i < n; i += 1) out[at + i] = out[at - offset + i];
    at += n;
  }
  if (at !== length) throw new Error(`snappy block gave ${at} bytes, not ${length}`);
  return out;
}

// The block at a handle: its bytes, decompressed when its trailer's type byte says snappy.
function block(file, offset, size) {
  const stored = file.subarray(offset, offset + size);
  const type = file[offset + size];
  if (type === 0) return stored;
  if (type === 1) return unsnappy(stored);
  throw new Error(`block at ${offset}: compression type ${type}`);
}

function handle(bytes, pos) {
  const [offset, p1] = varint(bytes, pos);
  const [size, p2] = varint(bytes, p1);
  return [{ offset, size }, p2];
}

// The entries of a block, keys rebuilt from their shared prefixes: [{key (bytes), value}].
function entries(bytes) {
  const count = new DataView(bytes.buffer, bytes.byteOffset + bytes.length - 4, 4).getUint32(0, true);
  const end = bytes.length - 4 - 4 * count;
  const out = [];
  let key = new Uint8Array(0);
  let pos = 0;
  while (pos < end) {
    let shared;
    let unshared;
    let length;
    [shared, pos] = varint(bytes, pos);
    [unshared, pos] = varint(bytes, pos);
    [length, pos] = varint(bytes, pos);
    const next = new Uint8Array(shared + unshared);
    next.set(key.subarray(0, shared));
    next.set(bytes.subarray(pos, pos + unshared), shared);
    pos += unshared;
    key = next;
    out.push({ key, value: bytes.subarray(pos, pos + length) });
    pos += length;
  }
  return out;
}

// {key: {dtype, shape, shard, offset, size}} of a checkpoint prefix (".../variables/variables").
export function readCheckpointIndex(prefix) {
  const file = new Uint8Array(readFileSync(`${prefix}.index`));
  const footer = file.subarray(file.length - 48);
  MAGIC.forEach((b, i) => {
    if (footer[40 + i] !== b) throw new Error(`${prefix}.index: no table magic`);
  });
  const [, afterMeta] = handle(footer, 0);
  const [index] = handle(footer, afterMeta);
  const decoder = new TextDecoder();
  const out = {};
  for (const { value } of entries(block(file, index.offset, index.size))) {
    const [data] = handle(value, 0);
    for (const e of entries(block(file, data.offset, data.size))) {
      if (e.key.length === 0 || e.key[0] === 0) continue;  // the header, slices
      const entry = { dtype: 0, shape: [], shard: 0, offset: 0, size: 0 };
      for (const f of readFields(e.value)) {
        if (f.number === 1) entry.dtype = f.value;
        else if (f.number === 3) entry.shard = f.value;
        else if (f.number === 4) entry.offset = f.value;
        else if (f.number === 5) entry.size = f.value;
        else if (f.number === 2) {
          for (const dim of readFields(e.value, f.from, f.to)) {
            if (dim.number !== 2) continue;
            const size = readFields(e.value, dim.from, dim.to).find((x) => x.number === 1);
            entry.shape.push(size ? size.value : 0);
          }
        }
      }
      out[decoder.decode(e.key)] = entry;
    }
  }
  return out;
}

// The stored bytes of one key.
export function readCheckpointValue(prefix, entry, numShards = 1) {
  const shard = `${prefix}.data-${String(entry.shard).padStart(5, '0')}-of-${String(numShards).padStart(5, '0')}`;
  const data = readFileSync(shard);
  return new Uint8Array(data.buffer, data.byteOffset + entry.offset, entry.size);
}

export function checkpointPrefix(savedModelDir) {
  return join(savedModelDir, 'variables', 'variables');
}

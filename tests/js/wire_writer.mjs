// A minimal protobuf wire writer for the tests, the counterpart of wire.mjs: it knows only the
// wire format and the TensorFlow field numbers of ../shared/research/tensorflow.md §2, and
// shares no code with graphport. weightsGraph() writes a weights-heavy GraphDef piece by piece,
// so a test can make a graph of any size without holding it in memory.

const utf8 = new TextEncoder();

export function varint(value) {
  const out = [];
  let v = value;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
  return Uint8Array.from(out);
}

export function concat(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const key = (field, wire) => varint(field * 8 + wire);
export const varintField = (field, value) => concat([key(field, 0), varint(value)]);
// The key and length of a length-delimited field whose `length` payload bytes follow.
export const lengthHeader = (field, length) => concat([key(field, 2), varint(length)]);
export const bytesField = (field, payload) => concat([lengthHeader(field, payload.length), payload]);
export const stringField = (field, text) => bytesField(field, utf8.encode(text));

const DT_FLOAT = 1;

// The tensor_content bytes of tensor `index`, at `offset` in it, into `view`: a cheap
// position-dependent pattern, so any range can be checked without keeping the bytes.
export function fillContent(index, offset, view) {
  for (let i = 0; i < view.length; i += 1) {
    const p = offset + i;
    view[i] = (Math.imul(p >>> 2, 0x9e3779b1) >>> ((p & 3) * 8)) ^ (index * 37);
  }
}

// A faster fill for whole aligned runs: 4 bytes at a time, the same bytes as fillContent.
function fillAligned(index, offset, view) {
  const words = new Uint32Array(view.buffer, view.byteOffset, view.length >>> 2);
  const salt = (index * 37) & 0xff;
  const xor = (salt | (salt << 8) | (salt << 16) | (salt << 24)) >>> 0;
  const base = offset >>> 2;
  for (let i = 0; i < words.length; i += 1) words[i] = Math.imul(base + i, 0x9e3779b1) ^ xor;
}

// Writes a GraphDef of Const nodes "w0", "w1", ... (float tensors of `sizes[i]` bytes, a
// multiple of 4, shape [sizes[i] / 4]) and a versions record, by calling write(chunk) with
// pieces of at most `chunkBytes`. Returns {bytes, contents: [{offset, length}]}: the file's
// size and where each tensor_content payload sits in it.
export function weightsGraph(sizes, write, chunkBytes = 8 << 20) {
  let at = 0;
  const put = (bytes) => {
    write(bytes);
    at += bytes.length;
  };
  const contents = [];
  const buffer = new Uint8Array(chunkBytes);
  sizes.forEach((size, index) => {
    const shape = bytesField(2, bytesField(2, varintField(1, size / 4)));
    const tensorHead = concat([varintField(1, DT_FLOAT), shape, lengthHeader(4, size)]);
    const tensorLength = tensorHead.length + size;
    const valueAttr = concat([lengthHeader(8, tensorLength)]);
    const valueEntryLength = stringField(1, 'value').length + lengthHeader(2, valueAttr.length + tensorLength).length
      + valueAttr.length + tensorLength;
    const dtypeEntry = bytesField(5, concat([stringField(1, 'dtype'), bytesField(2, varintField(6, DT_FLOAT))]));
    const nodeHead = concat([stringField(1, `w${index}`), stringField(2, 'Const'), dtypeEntry]);
    const valueEntryHead = concat([lengthHeader(5, valueEntryLength), stringField(1, 'value'),
      lengthHeader(2, valueAttr.length + tensorLength), valueAttr]);
    const nodeLength = nodeHead.length + valueEntryHead.length + tensorLength;
    put(concat([lengthHeader(1, nodeLength), nodeHead, valueEntryHead, tensorHead]));
    contents.push({ offset: at, length: size });
    for (let done = 0; done < size;) {
      const n = Math.min(chunkBytes, size - done);
      const view = buffer.subarray(0, n);
      fillAligned(index, done, view);
      put(view);
      done += n;
    }
  });
  put(bytesField(4, concat([varintField(1, 1087), varintField(2, 12)])));
  return { bytes: at, contents };
}

// The same graph as one Uint8Array, for small sizes.
export function weightsGraphBytes(sizes, chunkBytes) {
  const parts = [];
  const layout = weightsGraph(sizes, (chunk) => parts.push(chunk.slice()), chunkBytes);
  return { ...layout, bytes: concat(parts), size: layout.bytes };
}

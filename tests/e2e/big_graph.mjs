// Writes a weights-heavy GraphDef of at least `mib` MiB for the page's large-input tests:
// with the native generator when it is built (bench/make_graph.cc), otherwise with the tiny
// protobuf encoder below (Const nodes whose float tensor_content is 4 MiB each).
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const NATIVE = join(repo, 'build/native/bench/graphport_make_graph');

function varint(n) {
  const out = [];
  let v = n;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
  return out;
}

// field number + wire type 2 (length-delimited), then the length, then the bytes.
function bytesField(field, payload) {
  return [...varint((field << 3) | 2), ...varint(payload.length), ...payload];
}
function varintField(field, value) {
  return [...varint(field << 3), ...varint(value)];
}
function stringField(field, text) {
  return bytesField(field, [...new TextEncoder().encode(text)]);
}

// The bytes of a GraphDef node entry without its tensor_content payload, and the payload
// length: the caller writes the returned head, then `contentBytes` bytes of content.
function constNodeHead(name, contentBytes) {
  const floats = contentBytes / 4;
  const shape = bytesField(2, varintField(1, floats)); // TensorShapeProto.dim {size}
  const tensorHead = [...varintField(1, 1), ...bytesField(2, shape), // dtype DT_FLOAT, shape
    ...varint((4 << 3) | 2), ...varint(contentBytes)]; // tensor_content tag + length
  const tensorLength = tensorHead.length + contentBytes;
  const attrValueHead = [...varint((8 << 3) | 2), ...varint(tensorLength)]; // AttrValue.tensor
  const valueLength = attrValueHead.length + tensorLength;
  const entryHead = [...stringField(1, 'value'), ...varint((2 << 3) | 2), ...varint(valueLength)];
  const entryLength = entryHead.length + valueLength;
  const dtypeEntry = bytesField(5, [...stringField(1, 'dtype'), ...bytesField(2, varintField(6, 1))]);
  const head = [...stringField(1, name), ...stringField(2, 'Const'), ...dtypeEntry,
    ...varint((5 << 3) | 2), ...varint(entryLength), ...entryHead, ...attrValueHead, ...tensorHead];
  const nodeLength = head.length + contentBytes;
  return Uint8Array.from([...varint((1 << 3) | 2), ...varint(nodeLength), ...head]);
}

function writeWithJs(path, mib) {
  const chunk = 4 << 20;
  const content = new Uint8Array(chunk);
  const floats = new Float32Array(content.buffer);
  for (let i = 0; i < floats.length; i += 1) floats[i] = ((i * 2654435761) % 1000) / 1000;
  const fd = openSync(path, 'w');
  try {
    const count = Math.ceil((mib << 20) / chunk);
    for (let i = 0; i < count; i += 1) {
      writeSync(fd, constNodeHead(`dense_${Math.floor(i / 4)}/weights_${i % 4}`, chunk));
      writeSync(fd, content);
    }
    writeSync(fd, Uint8Array.from(bytesField(4, [...varintField(1, 1205), ...varintField(2, 12)])));
  } finally {
    closeSync(fd);
  }
  return 'js';
}

// Returns which generator wrote the file ('native' or 'js').
export function writeBigGraph(path, mib) {
  if (existsSync(NATIVE)) {
    execFileSync(NATIVE, ['weights', path, '--mib', String(mib)], { stdio: 'ignore' });
    return 'native';
  }
  return writeWithJs(path, mib);
}

export { writeWithJs };

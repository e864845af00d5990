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

// A node-heavy GraphDef as bench/make_graph.cc's `nodes` writes it: an input, then blocks of
// six small nodes (two scalar Consts, Mul, AddV2, Relu, Identity) under
// model/encoder/layers/stage_NN/block_NNNNN/, each block fed by the one before.
function nodeEntry(name, op, inputs, attrs = []) {
  const payload = [...stringField(1, name), ...stringField(2, op), ...inputs.flatMap((i) => stringField(3, i)),
    ...stringField(4, '/job:localhost/replica:0/task:0/device:CPU:0'), ...attrs];
  return bytesField(1, payload);
}

function typeAttr(key) {
  return bytesField(5, [...stringField(1, key), ...bytesField(2, varintField(6, 1))]);
}

function scalarConstAttrs(value) {
  const f = new Uint8Array(new Float32Array([value]).buffer);
  const tensor = [...varintField(1, 1), ...bytesField(2, []), ...bytesField(5, [...f])]; // float_val packed
  return [typeAttr('dtype'), bytesField(5, [...stringField(1, 'value'), ...bytesField(2, bytesField(8, tensor))])].flat();
}

function writeNodesWithJs(path, wanted) {
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, Uint8Array.from(nodeEntry('input', 'Placeholder', [], typeAttr('dtype'))));
    let x = 'input';
    let written = 1;
    for (let block = 0; written < wanted; block += 1) {
      const s = `model/encoder/layers/stage_${String(Math.floor(block / 1000)).padStart(2, '0')}/block_${String(block).padStart(5, '0')}/`;
      const parts = [
        nodeEntry(`${s}scale`, 'Const', [], scalarConstAttrs(0.5)),
        nodeEntry(`${s}shift`, 'Const', [], scalarConstAttrs(0.25)),
        nodeEntry(`${s}mul`, 'Mul', [x, `${s}scale`], typeAttr('T')),
        nodeEntry(`${s}add`, 'AddV2', [`${s}mul`, `${s}shift`], typeAttr('T')),
        nodeEntry(`${s}relu`, 'Relu', [`${s}add`], typeAttr('T')),
        nodeEntry(`${s}out`, 'Identity', [`${s}relu`, `^${s}mul`], typeAttr('T')),
      ];
      writeSync(fd, Uint8Array.from(parts.flat()));
      written += parts.length;
      x = `${s}out`;
    }
    writeSync(fd, Uint8Array.from(bytesField(4, [...varintField(1, 1205), ...varintField(2, 12)])));
  } finally {
    closeSync(fd);
  }
}

// A graph of about `nodes` small nodes; returns which generator wrote it ('native' or 'js').
export function writeNodeGraph(path, nodes) {
  if (existsSync(NATIVE)) {
    execFileSync(NATIVE, ['nodes', path, '--nodes', String(nodes)], { stdio: 'ignore' });
    return 'native';
  }
  writeNodesWithJs(path, nodes);
  return 'js';
}

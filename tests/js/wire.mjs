// A minimal, independent protobuf wire reader for the tests. It knows only the wire format and
// the TensorFlow field numbers published in ../shared/research/tensorflow.md §2, and shares no
// code with graphport, so what it reads out of a file is a second opinion on inspect().

const utf8 = new TextDecoder('utf-8');

export class WireError extends Error {
  constructor(message, offset) {
    super(`${message} at byte ${offset}`);
    this.offset = offset;
  }
}

function readVarint(bytes, pos, end) {
  let value = 0;
  let scale = 1;
  for (let i = 0; ; i += 1) {
    if (pos >= end) throw new WireError('varint runs past the end', pos);
    if (i >= 10) throw new WireError('varint longer than 10 bytes', pos);
    const b = bytes[pos];
    pos += 1;
    value += (b & 0x7f) * scale;
    scale *= 128;
    if ((b & 0x80) === 0) return [value, pos];
  }
}

// The fields of one message encoded in bytes[start, end): {number, wire, value, from, to,
// start, end}; for length-delimited fields the payload is bytes[from, to).
export function readFields(bytes, start = 0, end = bytes.length) {
  const out = [];
  let pos = start;
  while (pos < end) {
    const at = pos;
    let key;
    [key, pos] = readVarint(bytes, pos, end);
    const number = Math.floor(key / 8);
    const wire = key % 8;
    if (number === 0) throw new WireError('field number 0', at);
    let value = null;
    let from = pos;
    if (wire === 0) {
      [value, pos] = readVarint(bytes, pos, end);
    } else if (wire === 1) {
      pos += 8;
    } else if (wire === 5) {
      pos += 4;
    } else if (wire === 2) {
      let length;
      [length, pos] = readVarint(bytes, pos, end);
      from = pos;
      pos += length;
    } else {
      throw new WireError(`unsupported wire type ${wire}`, at);
    }
    if (pos > end) throw new WireError(`field ${number} runs past the end`, at);
    out.push({ number, wire, value, from, to: pos, start: at, end: pos });
  }
  return out;
}

// Offsets at which a prefix of `bytes` is a whole sequence of top-level fields (0 and the
// length included): cutting there leaves a valid, shorter message.
export function topLevelBoundaries(bytes) {
  return new Set([0, ...readFields(bytes).map((f) => f.end)]);
}

// A read-only view of one encoded message.
export class Msg {
  constructor(bytes, from = 0, to = bytes.length) {
    this.bytes = bytes;
    this.fields = readFields(bytes, from, to);
  }

  all(n) {
    return this.fields.filter((f) => f.number === n);
  }

  has(n) {
    return this.all(n).length > 0;
  }

  count(n) {
    return this.all(n).length;
  }

  msgs(n) {
    return this.all(n).map((f) => new Msg(this.bytes, f.from, f.to));
  }

  // A singular message field; an absent one reads as the empty message.
  msg(n) {
    const f = this.all(n).at(-1);
    return f ? new Msg(this.bytes, f.from, f.to) : new Msg(this.bytes, 0, 0);
  }

  str(n) {
    const f = this.all(n).at(-1);
    return f ? utf8.decode(this.bytes.subarray(f.from, f.to)) : '';
  }

  strs(n) {
    return this.all(n).map((f) => utf8.decode(this.bytes.subarray(f.from, f.to)));
  }

  int(n) {
    const f = this.all(n).at(-1);
    return f ? f.value : 0;
  }

  // Elements of a repeated scalar field, packed or not (width 0 = varint).
  repeatedCount(n, width) {
    let count = 0;
    for (const f of this.all(n)) {
      if (f.wire !== 2) {
        count += 1;
      } else if (width > 0) {
        count += (f.to - f.from) / width;
      } else {
        for (let i = f.from; i < f.to; i += 1) if ((this.bytes[i] & 0x80) === 0) count += 1;
      }
    }
    return count;
  }
}

const COLLECTION_KINDS = { 1: 'node_list', 2: 'bytes_list', 3: 'int64_list', 4: 'float_list', 5: 'any_list' };

function collectionSummary(entry) {
  const name = entry.str(1);
  const def = entry.msg(2);
  const kindField = def.fields.at(-1);
  if (!kindField) return { name, kind: 'none', size: 0 };
  const kind = COLLECTION_KINDS[kindField.number];
  const list = new Msg(def.bytes, kindField.from, kindField.to);
  const width = { int64_list: 0, float_list: 4 }[kind];
  const size = width === undefined ? list.count(1) : list.repeatedCount(1, width);
  return { name, kind, size };
}

function tensorInfoName(info) {
  return info.has(4) ? info.msg(4).str(1) : info.str(1);
}

function signatureSummary(entry) {
  const def = entry.msg(2);
  const tensors = (n) =>
    Object.fromEntries(def.msgs(n).map((e) => [e.str(1), tensorInfoName(e.msg(2))]).sort());
  return { name: entry.str(1), methodName: def.str(3), inputs: tensors(1), outputs: tensors(2) };
}

function sameSet(a, b) {
  const sa = new Set(a);
  const sb = new Set(b);
  return sa.size === sb.size && [...sa].every((x) => sb.has(x));
}

// What the bytes of a TensorFlow graph file hold, read field by field.
// kind: 'graph-def' | 'meta-graph' | 'saved-model'.
export function wireSummary(bytes, kind, tags = ['serve']) {
  const root = new Msg(bytes);
  let meta = null;
  let metaGraphs = [];
  let selectedMetaGraph = -1;
  if (kind === 'saved-model') {
    const all = root.msgs(2);
    metaGraphs = all.map((mg) => ({
      tags: mg.msg(1).strs(4),
      nodeCount: mg.msg(2).count(1),
      signatureCount: mg.count(5),
    }));
    selectedMetaGraph = metaGraphs.findIndex((mg) => sameSet(mg.tags, tags));
    if (selectedMetaGraph < 0 && all.length === 1) selectedMetaGraph = 0;
    meta = all[selectedMetaGraph] ?? null;
  } else if (kind === 'meta-graph') {
    meta = root;
  }
  const graph = meta ? meta.msg(2) : root;
  const ops = {};
  for (const node of graph.msgs(1)) {
    const op = node.str(2);
    ops[op] = (ops[op] ?? 0) + 1;
  }
  const versions = graph.msg(4);
  const producer = { graphProducer: versions.int(1), minConsumer: versions.int(2) };
  const summary = {
    nodeCount: graph.count(1),
    ops,
    functions: graph.msg(2).msgs(1).map((f) => ({ name: f.msg(1).str(1), nodeCount: f.count(3) })),
    producer,
    metaGraphs,
    selectedMetaGraph,
    tags: [],
    hasSaver: false,
    collections: [],
    signatures: [],
    strippedOps: 0,
    strippedDefaultAttrs: false,
    objectGraphFunctions: 0,
  };
  if (meta) {
    const info = meta.msg(1);
    producer.tensorflowVersion = info.str(5);
    producer.tensorflowGitVersion = info.str(6);
    summary.tags = info.strs(4);
    summary.strippedOps = info.msg(2).count(1);
    summary.strippedDefaultAttrs = info.int(7) === 1;
    summary.hasSaver = meta.has(3);
    const byName = (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
    summary.collections = meta.msgs(4).map(collectionSummary).sort(byName);
    summary.signatures = meta.msgs(5).map(signatureSummary).sort(byName);
    // SavedObject.function is field 6 of each object graph node.
    summary.objectGraphFunctions = meta.msg(7).msgs(1).filter((o) => o.has(6)).length;
  }
  return summary;
}

// The parts of inspect()'s object that wireSummary() also computes, in the same shape.
export function comparableInspect(s) {
  return {
    nodeCount: s.nodeCount,
    ops: s.ops,
    functions: s.functions,
    producer: s.producer,
    metaGraphs: s.metaGraphs,
    selectedMetaGraph: s.selectedMetaGraph,
    tags: s.tags,
    hasSaver: s.hasSaver,
    collections: s.collections,
    signatures: s.signatures.map((sig) => ({
      name: sig.name,
      methodName: sig.methodName,
      inputs: Object.fromEntries(Object.entries(sig.inputs).map(([k, v]) => [k, v.name]).sort()),
      outputs: Object.fromEntries(Object.entries(sig.outputs).map(([k, v]) => [k, v.name]).sort()),
    })),
  };
}

export function comparableWire(w) {
  const { strippedOps, strippedDefaultAttrs, objectGraphFunctions, ...rest } = w;
  return rest;
}

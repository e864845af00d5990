// Every way of handing input to load() gives the same model: a whole Uint8Array, a file
// streamed from its descriptor (loadFile), a chunk source of at most 7 bytes per read, an
// ArrayBuffer, a DataView, a Node Buffer.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import {
  GRAPHS, KINDS, assertSameBytes, checkNoLeaksAtEnd, chunkSource, exportBytes, graphport,
  leakCheckedTest, readBytes, tempDir, withModel,
} from './helpers.mjs';

const gp = await graphport();
checkNoLeaksAtEnd(gp);

// All six exports of a model, keyed "kind/binary" and "kind/text".
function allExports(model) {
  const out = {};
  for (const to of KINDS) {
    for (const asText of [false, true]) out[`${to}/${asText ? 'text' : 'binary'}`] = exportBytes(model, { to, asText });
  }
  return out;
}

function assertSameExports(actual, expected, what) {
  assert.deepEqual(Object.keys(actual), Object.keys(expected));
  for (const key of Object.keys(expected)) assertSameBytes(actual[key], expected[key], `${what} ${key}`);
}

for (const g of GRAPHS) {
  leakCheckedTest(gp, `${g.name}: loadFile, 7-byte chunks, ArrayBuffer, DataView, Buffer all equal a Uint8Array`, () => {
    const bytes = readBytes(g.path);
    const reference = withModel(gp, bytes, {}, (m) => ({ summary: m.inspect(), exports: allExports(m) }));

    const fromFile = gp.loadFile(g.path);
    try {
      assert.deepEqual(fromFile.inspect(), reference.summary);
      assertSameExports(allExports(fromFile), reference.exports, 'loadFile');
    } finally {
      fromFile.delete();
    }

    const source = chunkSource(bytes, 7);
    withModel(gp, source, {}, (m) => {
      assert.deepEqual(m.inspect(), reference.summary);
      assertSameExports(allExports(m), reference.exports, '7-byte chunks');
    });
    assert.ok(source.largestChunk <= 7);
    assert.ok(source.reads >= Math.ceil(bytes.length / 7), `only ${source.reads} reads for ${bytes.length} bytes`);

    // An ArrayBuffer, and views that do not start at offset 0 of their buffer.
    const padded = new ArrayBuffer(bytes.length + 16);
    new Uint8Array(padded, 5, bytes.length).set(bytes);
    const inputs = {
      ArrayBuffer: bytes.slice().buffer,
      DataView: new DataView(padded, 5, bytes.length),
      'Uint8Array at offset 5': new Uint8Array(padded, 5, bytes.length),
      Buffer: Buffer.from(bytes),
    };
    for (const [what, input] of Object.entries(inputs)) {
      withModel(gp, input, {}, (m) => {
        assert.deepEqual(m.inspect(), reference.summary, what);
        assertSameExports(allExports(m), reference.exports, what);
      });
    }
  });
}

leakCheckedTest(gp, 'text input streams in 7-byte chunks and from a file like binary input', (t) => {
  const g = GRAPHS.find((x) => x.rel.includes('tf2_cpu'));
  const text = withModel(gp, readBytes(g.path), {}, (m) => exportBytes(m, { to: 'saved-model', asText: true }));
  const reference = withModel(gp, text, {}, (m) => ({ summary: m.inspect(), exports: allExports(m) }));
  assert.equal(reference.summary.encoding, 'text');
  withModel(gp, chunkSource(text, 7), {}, (m) => {
    assert.deepEqual(m.inspect(), reference.summary);
    assertSameExports(allExports(m), reference.exports, 'text in 7-byte chunks');
  });
  const path = join(tempDir(t), 'saved_model.pbtxt');
  writeFileSync(path, text);
  const fromFile = gp.loadFile(path);
  try {
    assert.deepEqual(fromFile.inspect(), reference.summary);
    assertSameExports(allExports(fromFile), reference.exports, 'text loadFile');
  } finally {
    fromFile.delete();
  }
});

leakCheckedTest(gp, 'a chunk source of 1-byte reads and one of chunks larger than asked', () => {
  const g = GRAPHS.find((x) => x.kind === 'graph-def');
  const bytes = readBytes(g.path);
  const expected = withModel(gp, bytes, {}, (m) => exportBytes(m, { to: 'graph-def' }));
  withModel(gp, chunkSource(bytes, 1), {}, (m) => assertSameBytes(exportBytes(m, { to: 'graph-def' }), expected, '1-byte chunks'));
  // A source that ignores `max` is an input error, not a heap overflow.
  const greedy = { size: bytes.length, read: (max) => new Uint8Array(max + 1), rewind: () => true };
  let error = null;
  try {
    gp.load(greedy).delete();
  } catch (e) {
    error = e;
  }
  assert.ok(error instanceof gp.GraphportError, String(error));
  assert.equal(error.code, 'IO_ERROR');
});

leakCheckedTest(gp, 'loadFile names the file in its errors unless a name is given', (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'not-a-graph.pb');
  writeFileSync(path, 'hello world');
  let error = null;
  try {
    gp.loadFile(path).delete();
  } catch (e) {
    error = e;
  }
  assert.ok(error instanceof gp.GraphportError);
  assert.equal(error.code, 'UNKNOWN_FORMAT');
  assert.ok(error.message.startsWith(`${path}: `), error.message);
  // An explicit name wins over the path.
  try {
    gp.loadFile(path, { name: 'given' }).delete();
  } catch (e) {
    error = e;
  }
  assert.ok(error.message.startsWith('given: '), error.message);
});

// A stream's declared size sizes the buffer its first bytes are read into, but never past the
// caller's memory budget: a source that declares 96 MiB under a 1 MiB budget must not grow the
// heap by that much before a byte of it is seen.
leakCheckedTest(gp, 'a declared size past maxMemoryBytes reserves nothing', () => {
  const bytes = readBytes(GRAPHS[0].path);
  const declared = 96 << 20;
  const source = { ...chunkSource(bytes, 64 << 10), size: declared };
  const before = gp.heapBytes();
  withModel(gp, source, { name: 'declared.meta', maxMemoryBytes: 1 << 20 }, (model) => {
    assert.equal(model.inspect().nodeCount, GRAPHS[0].nodes);
  });
  assert.ok(gp.heapBytes() - before < declared / 2,
    `heap grew by ${gp.heapBytes() - before} bytes for a ${bytes.length}-byte input`);
});

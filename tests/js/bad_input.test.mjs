// Hostile and broken input: each case throws a GraphportError with the right code, a message
// that names the input and says where it went wrong, and leaves the WebAssembly instance
// working (no abort). The last test proves the last point on the same instance.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import {
  GRAPHS, KERAS_METADATA, assertGraphportError, assertSameBytes, byteOffsetIn, checkNoLeaksAtEnd,
  chunkSource, exportBytes, graphport, leakCheckedTest, prng, randomBytes, readBytes, tempDir,
  withModel,
} from './helpers.mjs';
import { readFields, topLevelBoundaries, wireSummary } from './wire.mjs';

const gp = await graphport();
checkNoLeaksAtEnd(gp);

const enc = (s) => new TextEncoder().encode(s);

// The WebAssembly heap before any bad input (it grows and never shrinks, so its size at the
// end bounds what any case below allocated).
const HEAP_AT_START = gp.heapBytes();

// A reference export taken before any bad input reached this instance.
const REFERENCE = GRAPHS.find((g) => g.rel.includes('tf2_cpu'));
const referenceBytes = withModel(gp, readBytes(REFERENCE.path), {}, (m) => ({
  summary: m.inspect(),
  binary: exportBytes(m, { to: 'saved-model' }),
  text: exportBytes(m, { to: 'meta-graph', asText: true }),
}));

// 1-based line and column of a character offset, counted here, not by the parser.
function lineColumn(text, offset) {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before.at(-1).length + 1 };
}

function lineColumnIn(message) {
  const m = /line (\d+) column (\d+)/.exec(message);
  return m ? { line: Number(m[1]), column: Number(m[2]) } : null;
}

// --- Empty input --------------------------------------------------------------------------

leakCheckedTest(gp, 'empty input in every form and format is EMPTY_INPUT', (t) => {
  const path = join(tempDir(t), 'empty.pb');
  writeFileSync(path, '');
  for (const format of ['auto', 'graph-def', 'meta-graph-binary', 'saved-model-text']) {
    const inputs = {
      Uint8Array: new Uint8Array(0),
      ArrayBuffer: new ArrayBuffer(0),
      DataView: new DataView(new ArrayBuffer(8), 8, 0),
      'chunk source': chunkSource(new Uint8Array(0)),
    };
    for (const [what, input] of Object.entries(inputs)) {
      const e = assertGraphportError(gp, () => gp.load(input, { name: 'empty.pb', format }),
        { codes: 'EMPTY_INPUT', name: 'empty.pb' });
      assert.match(e.message, /empty/, `${what}, ${format}`);
    }
    assertGraphportError(gp, () => gp.loadFile(path, { format }), { codes: 'EMPTY_INPUT', name: path });
  }
});

// --- Truncated corpus files -----------------------------------------------------------------

// Cuts at every 101st byte and at each of the last 5. A cut between two top-level fields
// leaves a whole, shorter message (protobuf cannot tell), which may load; any other cut must
// fail with the input's name and a byte offset inside the cut.
for (const g of GRAPHS) {
  leakCheckedTest(gp, `${g.name}: truncated at every 101st byte and the last 5`, () => {
    const bytes = readBytes(g.path);
    const boundaries = topLevelBoundaries(bytes);
    const cuts = [];
    for (let n = 0; n < bytes.length; n += 101) cuts.push(n);
    for (let n = bytes.length - 5; n < bytes.length; n += 1) cuts.push(n);
    let failures = 0;
    for (const n of cuts) {
      const cut = bytes.subarray(0, n);
      for (const format of ['auto', `${g.kind}-binary`]) {
        const what = `cut at ${n} of ${bytes.length}, format ${format}`;
        if (n === 0) {
          assertGraphportError(gp, () => gp.load(cut, { name: 'cut.pb', format }), { codes: 'EMPTY_INPUT', name: 'cut.pb' });
          continue;
        }
        let model = null;
        let error = null;
        try {
          model = gp.load(cut, { name: 'cut.pb', format });
        } catch (e) {
          error = e;
        }
        if (model) {
          try {
            assert.ok(boundaries.has(n), `${what}: a cut inside a field loaded`);
            const s = model.inspect();
            assert.equal(s.format, g.kind, what);
            assert.equal(s.inputBytes, n, what);
            const again = exportBytes(model, { to: g.kind });
            assert.deepEqual(wireSummary(again, g.kind), wireSummary(cut, g.kind), what);
          } finally {
            model.delete();
          }
          continue;
        }
        failures += 1;
        assert.ok(error instanceof gp.GraphportError, `${what}: ${error}`);
        assert.ok(error.message.startsWith('cut.pb: '), `${what}: ${error.message}`);
        if (boundaries.has(n)) {
          // Only a SavedModel that lost all of its MetaGraphDefs may fail at a boundary.
          assert.equal(g.kind, 'saved-model', `${what}: ${error.message}`);
          assert.equal(error.code, 'PARSE_ERROR', what);
          assert.match(error.message, /no MetaGraphDef/, what);
          continue;
        }
        // Detection may rule the cut bytes out, or recognise the kind and fail to parse it.
        const codes = format === 'auto' ? ['UNKNOWN_FORMAT', 'PARSE_ERROR'] : ['PARSE_ERROR'];
        assert.ok(codes.includes(error.code), `${what}: ${error.code}: ${error.message}`);
        const offset = byteOffsetIn(error.message);
        assert.ok(offset !== null, `${what}: no byte offset in: ${error.message}`);
        assert.ok(offset < n, `${what}: offset ${offset} outside the cut: ${error.message}`);
      }
    }
    assert.ok(failures > 0);
  });
}

// --- Random bytes ---------------------------------------------------------------------------

leakCheckedTest(gp, 'random bytes of many lengths are rejected, detected or forced', () => {
  const lengths = [1, 2, 3, 5, 8, 13, 64, 100, 1000, 4096, 65536];
  let forcedLoads = 0;
  for (const length of lengths) {
    for (let seed = 1; seed <= 12; seed += 1) {
      const bytes = randomBytes(seed * 7919 + length, length);
      const name = `random-${seed}-${length}.bin`;
      const e = assertGraphportError(gp, () => gp.load(bytes, { name }), { codes: ['UNKNOWN_FORMAT', 'PARSE_ERROR'], name });
      if (e.code === 'UNKNOWN_FORMAT') {
        // The message explains why the bytes are none of the three kinds.
        assert.match(e.message, /GraphDef/);
      }
      for (const format of ['graph-def-binary', 'meta-graph-binary', 'saved-model-binary']) {
        let model = null;
        try {
          model = gp.load(bytes, { name, format });
        } catch (err) {
          assert.ok(err instanceof gp.GraphportError, String(err));
          assert.equal(err.code, 'PARSE_ERROR', err.message);
          assert.ok(err.message.startsWith(`${name}: `), err.message);
          continue;
        }
        // Forced, a few short inputs are valid messages made only of unknown fields: then the
        // independent reader must agree they are well-formed and hold no node.
        try {
          forcedLoads += 1;
          assert.doesNotThrow(() => readFields(bytes), `${name} as ${format} loaded`);
          const kind = format.replace('-binary', '');
          assert.equal(model.inspect().nodeCount, wireSummary(bytes, kind).nodeCount);
          assert.ok(exportBytes(model, { to: kind }).length > 0);
        } finally {
          model.delete();
        }
      }
    }
  }
  assert.ok(forcedLoads < 20, `${forcedLoads} random inputs loaded`);
});

leakCheckedTest(gp, 'random bit flips in corpus files load or fail cleanly, never anything else', () => {
  const next = prng(20240601);
  let rejected = 0;
  let loaded = 0;
  for (const g of GRAPHS) {
    const original = readBytes(g.path);
    for (let i = 0; i < 12; i += 1) {
      const bytes = original.slice();
      const flips = 1 + Math.floor(next() * 4);
      for (let k = 0; k < flips; k += 1) bytes[Math.floor(next() * bytes.length)] ^= 1 << Math.floor(next() * 8);
      let model = null;
      try {
        model = gp.load(bytes, { name: 'flipped.pb' });
      } catch (e) {
        assert.ok(e instanceof gp.GraphportError, `${g.name}: ${e}`);
        assert.ok(['UNKNOWN_FORMAT', 'PARSE_ERROR'].includes(e.code), e.message);
        assert.ok(e.message.startsWith('flipped.pb: '), e.message);
        rejected += 1;
        continue;
      }
      try {
        loaded += 1;
        const out = exportBytes(model, { to: 'meta-graph', asText: true });
        assert.ok(out.length > 0);
      } finally {
        model.delete();
      }
    }
  }
  assert.ok(rejected > 0 && loaded > 0, `rejected ${rejected}, loaded ${loaded}`);
});

// --- Text -----------------------------------------------------------------------------------

leakCheckedTest(gp, 'text that is not a protobuf is UNKNOWN_FORMAT naming the input', () => {
  let e = assertGraphportError(gp, () => gp.load(enc('hello world, this is not a graph\n'), { name: 'notes.txt' }),
    { codes: 'UNKNOWN_FORMAT', name: 'notes.txt' });
  assert.match(e.message, /'hello'/);
  assert.match(e.message, /line 1\b/);
  e = assertGraphportError(gp, () => gp.load(enc('\n\n# comment\n  tensor_content: "x"\n'), { name: 'n.txt' }),
    { codes: 'UNKNOWN_FORMAT', name: 'n.txt' });
  assert.match(e.message, /'tensor_content' \(line 4\)/);
  for (const text of ['{"node": []}', '   \n\t\n', '# only a comment\n', '<graph/>']) {
    assertGraphportError(gp, () => gp.load(enc(text), { name: 'x.txt' }), { codes: 'UNKNOWN_FORMAT', name: 'x.txt' });
  }
  const alphabet = ' \n{}:"abcnodeop_0123456789<>[]';
  for (let seed = 1; seed <= 20; seed += 1) {
    const next = prng(seed);
    let text = '';
    for (let i = 0; i < 300; i += 1) text += alphabet[Math.floor(next() * alphabet.length)];
    const err = assertGraphportError(gp, () => gp.load(enc(text), { name: 'noise.txt' }),
      { codes: ['UNKNOWN_FORMAT', 'PARSE_ERROR'], name: 'noise.txt' });
    if (err.code === 'PARSE_ERROR') assert.match(err.message, /line \d+ column \d+/);
  }
});

leakCheckedTest(gp, 'a text syntax error is PARSE_ERROR at the line and column of the bad token', () => {
  const cases = [
    // op: needs a string; the parser meets '}' instead.
    { text: 'node {\n  name: "a"\n  op: "Const"\n}\nnode {\n  name: "b"\n  op: \n}\n', at: (s) => s.lastIndexOf('}') },
    { text: 'node { name: "a" op: "Const" }\nnode { name: "b" op: "Add" input: ] }\n', at: (s) => s.indexOf(']') },
    { text: 'meta_info_def {\n  tags: "serve"\n}\ngraph_def {\n  node {\n    name: 12x\n  }\n}\n', at: (s) => s.indexOf('x\n') },
  ];
  for (const { text, at } of cases) {
    const e = assertGraphportError(gp, () => gp.load(enc(text), { name: 'broken.pbtxt' }),
      { codes: 'PARSE_ERROR', name: 'broken.pbtxt', where: 'line' });
    assert.deepEqual(lineColumnIn(e.message), lineColumn(text, at(text)), e.message);
  }
  // Errors without a single bad token: the line is still right.
  const unknownField = 'node {\n  name: "a"\n  bogus_field: 1\n}\n';
  let e = assertGraphportError(gp, () => gp.load(enc(unknownField), { name: 'u.pbtxt' }), { codes: 'PARSE_ERROR', name: 'u.pbtxt', where: 'line' });
  assert.equal(lineColumnIn(e.message).line, 3);
  assert.match(e.message, /bogus_field/);
  const unterminated = 'node {\n  name: "a\n}\n';
  e = assertGraphportError(gp, () => gp.load(enc(unterminated), { name: 'q.pbtxt' }), { codes: 'PARSE_ERROR', name: 'q.pbtxt', where: 'line' });
  assert.equal(lineColumnIn(e.message).line, 2);
});

leakCheckedTest(gp, 'a text export cut short is PARSE_ERROR within the lines it has', () => {
  const text = new TextDecoder().decode(referenceBytes.text);
  const next = prng(7);
  for (let i = 0; i < 15; i += 1) {
    // Cut inside a line (not after a closing brace) so the message cannot be whole.
    let n = 1 + Math.floor(next() * (text.length - 2));
    while (n < text.length && /[\s}]/.test(text[n - 1])) n += 1;
    const cut = enc(text.slice(0, n));
    for (const source of [cut, chunkSource(cut, 7)]) {
      let model = null;
      try {
        model = gp.load(source, { name: 'cut.pbtxt' });
      } catch (e) {
        assert.ok(e instanceof gp.GraphportError, String(e));
        assert.ok(['PARSE_ERROR', 'UNKNOWN_FORMAT'].includes(e.code), e.message);
        assert.ok(e.message.startsWith('cut.pbtxt: '), e.message);
        if (e.code === 'PARSE_ERROR') {
          const where = lineColumnIn(e.message);
          assert.ok(where, e.message);
          assert.ok(where.line <= text.slice(0, n).split('\n').length, e.message);
        }
        continue;
      }
      model.delete();
      assert.fail(`a text export cut at ${n} loaded`);
    }
  }
});

// --- Not a graph ----------------------------------------------------------------------------

leakCheckedTest(gp, 'keras_metadata.pb (a protobuf that is not a graph) is UNKNOWN_FORMAT with offsets', () => {
  const bytes = readBytes(KERAS_METADATA);
  for (const input of [bytes, bytes.buffer, chunkSource(bytes, 7)]) {
    const e = assertGraphportError(gp, () => gp.load(input, { name: 'keras_metadata.pb' }),
      { codes: 'UNKNOWN_FORMAT', name: 'keras_metadata.pb', where: 'byte' });
    // Each of the three kinds is ruled out, with its own reason.
    for (const kind of ['SavedModel', 'MetaGraphDef', 'GraphDef']) assert.match(e.message, new RegExp(`not a ${kind}:`));
  }
  assertGraphportError(gp, () => gp.loadFile(KERAS_METADATA), { codes: 'UNKNOWN_FORMAT', name: KERAS_METADATA, where: 'byte' });
  // Forced to a kind, it fails to parse as that kind.
  for (const format of ['graph-def', 'meta-graph', 'saved-model']) {
    assertGraphportError(gp, () => gp.load(bytes, { name: 'k.pb', format }), { codes: 'PARSE_ERROR', name: 'k.pb' });
  }
});

// --- Sizes ----------------------------------------------------------------------------------

function varint(n) {
  const out = [];
  while (n >= 128) {
    out.push((n % 128) | 128);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}

leakCheckedTest(gp, 'a length prefix claiming gigabytes fails at byte 0, without allocating them', () => {
  for (const claim of [3_000_000_000, 2 ** 31, 2 ** 32 - 1, 1_500_000_000]) {
    const bytes = new Uint8Array([0x0a, ...varint(claim), 1, 2, 3, 4]);
    // Detection may rule the bytes out or take them for a cut-off message; either way the
    // message points at the claim.
    const e = assertGraphportError(gp, () => gp.load(bytes, { name: 'claim.pb' }),
      { codes: ['UNKNOWN_FORMAT', 'PARSE_ERROR'], name: 'claim.pb', where: 'byte' });
    assert.match(e.message, new RegExp(`claims ${claim} bytes`));
    assert.equal(byteOffsetIn(e.message), 0);
    for (const format of ['graph-def-binary', 'meta-graph-binary']) {
      const f = assertGraphportError(gp, () => gp.load(bytes, { name: 'claim.pb', format }), { codes: 'PARSE_ERROR', name: 'claim.pb', where: 'byte' });
      assert.equal(byteOffsetIn(f.message), 0, f.message);
      assert.match(f.message, new RegExp(`claims ${claim} bytes`));
    }
  }
  // Past the 1 MiB detection window: 2 MiB of well-formed NodeDef names inside a node field
  // that claims 1.5 GB. Detection cannot see the end; the parse must fail, not allocate.
  const head = [0x0a, ...varint(1_500_000_000)];
  const bytes = new Uint8Array(head.length + 4 * 512 * 1024);
  bytes.set(head);
  for (let i = head.length; i < bytes.length; i += 4) bytes.set([0x0a, 0x02, 0x61, 0x61], i);
  for (const input of [bytes, chunkSource(bytes, 65536)]) {
    const e = assertGraphportError(gp, () => gp.load(input, { name: 'claim.pb' }), { codes: ['PARSE_ERROR', 'UNKNOWN_FORMAT'], name: 'claim.pb', where: 'byte' });
    assert.equal(byteOffsetIn(e.message), 0, e.message);
  }
});

leakCheckedTest(gp, 'a source declaring 2 GiB or more is TOO_LARGE; one byte less is only a hint', () => {
  const g = GRAPHS.find((x) => x.kind === 'graph-def');
  const bytes = readBytes(g.path);
  for (const size of [2 ** 31, 3 * 2 ** 30, 2 ** 40]) {
    for (const format of ['auto', 'graph-def']) {
      const source = chunkSource(bytes, 4096);
      source.size = size;
      const e = assertGraphportError(gp, () => gp.load(source, { name: 'huge.pb', format }), { codes: 'TOO_LARGE', name: 'huge.pb' });
      assert.match(e.message, new RegExp(`${size} bytes`));
      assert.match(e.message, /2 GiB/);
    }
  }
  const source = chunkSource(bytes, 4096);
  source.size = 2 ** 31 - 1;
  withModel(gp, source, {}, (m) => assert.equal(m.inspect().inputBytes, bytes.length));
});

leakCheckedTest(gp, 'nesting beyond the recursion limit is PARSE_ERROR, binary and text', () => {
  const field = (n, payload) => [...varint(n * 8 + 2), ...varint(payload.length), ...payload];
  const str = (s) => [...enc(s)];
  // NodeDef.attr["value"] = AttrValue{func: NameAttrList{attr["a"] = AttrValue{func: ...}}}:
  // three messages per level.
  const nested = (levels) => {
    let value = [3 * 8, 1]; // AttrValue{i: 1}
    for (let d = 0; d < levels; d += 1) {
      value = field(10, [...field(1, str('f')), ...field(2, [...field(1, str('a')), ...field(2, value)])]);
    }
    const node = [...field(1, str('n')), ...field(2, str('Const')), ...field(5, [...field(1, str('value')), ...field(2, value)])];
    return new Uint8Array(field(1, node));
  };
  // 10 levels (about 33 messages deep) is an ordinary graph.
  withModel(gp, nested(10), {}, (m) => assert.equal(m.inspect().nodeCount, 1));
  for (const levels of [40, 1000]) {
    const bytes = nested(levels);
    for (const input of [bytes, chunkSource(bytes, 4096)]) {
      const e = assertGraphportError(gp, () => gp.load(input, { name: 'deep.pb', format: 'graph-def' }), { codes: 'PARSE_ERROR', name: 'deep.pb' });
      assert.match(e.message, /nested too deep|recursion/, e.message);
    }
  }
  let text = 'i: 1';
  for (let d = 0; d < 1000; d += 1) text = `func { name: "f" attr { key: "a" value { ${text} } } }`;
  const e = assertGraphportError(gp, () => gp.load(enc(`node { name: "n" attr { key: "v" value { ${text} } } }`), { name: 'deep.pbtxt' }),
    { codes: 'PARSE_ERROR', name: 'deep.pbtxt', where: 'line' });
  assert.match(e.message, /recursion limit/);
});

leakCheckedTest(gp, 'a chunk source that throws is IO_ERROR, and nothing leaks', (t) => {
  const bytes = readBytes(REFERENCE.path);
  for (const failAt of [0, 1, 3, 200]) {
    let reads = 0;
    const source = chunkSource(bytes, 7);
    const read = source.read;
    source.read = (max) => {
      reads += 1;
      if (reads > failAt) throw new RangeError('disk on fire');
      return read(max);
    };
    const e = assertGraphportError(gp, () => gp.load(source, { name: 'fire.pb' }), { codes: 'IO_ERROR', name: 'fire.pb' });
    assert.match(e.message, /disk on fire/);
  }
  const wrongType = { size: 10, read: () => 'not bytes', rewind: () => true };
  assertGraphportError(gp, () => gp.load(wrongType, { name: 'str.pb' }), { codes: 'IO_ERROR', name: 'str.pb' });
  assertGraphportError(gp, () => gp.loadFile(join(tempDir(t), 'does-not-exist.pb')), { codes: 'IO_ERROR' });
});

// --- And the instance still works -------------------------------------------------------------

test('after all of the above, the same instance loads and exports exactly as before', async () => {
  assert.equal(await graphport(), gp, 'the same instance');
  // Gigabyte claims, 2 GiB size hints and rereads of failed streams cost no big allocation:
  // the largest input above is 2 MiB.
  const grown = gp.heapBytes() - HEAP_AT_START;
  assert.ok(grown <= 64 * 2 ** 20, `the heap grew by ${grown} bytes during the bad inputs`);
  withModel(gp, readBytes(REFERENCE.path), {}, (m) => {
    assert.deepEqual(m.inspect(), referenceBytes.summary);
    assertSameBytes(exportBytes(m, { to: 'saved-model' }), referenceBytes.binary, 'binary export');
    assertSameBytes(exportBytes(m, { to: 'meta-graph', asText: true }), referenceBytes.text, 'text export');
  });
  for (const g of GRAPHS) {
    withModel(gp, readBytes(g.path), {}, (m) => assert.equal(m.inspect().format, g.kind));
  }
});

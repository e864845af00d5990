// The faults of issue 11 that a user of the WebAssembly module meets, each checked on the
// built module: text strings that are not UTF-8 (1), text exports of unknown fields (2) and
// error messages that echo megabytes (7).
import assert from 'node:assert/strict';

import {
  assertGraphportError, checkNoLeaksAtEnd, graphport, leakCheckedTest, withModel,
} from './helpers.mjs';

const gp = await graphport();
checkNoLeaksAtEnd(gp);

const enc = (s) => new TextEncoder().encode(s);

leakCheckedTest(gp, 'a text string that is not UTF-8 is PARSE_ERROR at load, with field and line', () => {
  for (const text of ['node { name: "a" op: "\\377" }', 'node { name: "a" }\nnode {\n  name: "\\300\\257"\n}']) {
    const e = assertGraphportError(gp, () => gp.load(enc(text), { name: 'bad.pbtxt' }),
      { codes: 'PARSE_ERROR', name: 'bad.pbtxt', where: 'line' });
    assert.match(e.message, /UTF-8/);
    assert.match(e.message, /node\[\d\]\.(op|name)/);
  }
  // Valid UTF-8 loads, inspects and exports.
  withModel(gp, enc('node { name: "caf\\303\\251" op: "NoOp" }'), {}, (m) => {
    assert.equal(m.inspect().nodeCount, 1);
    assert.equal(m.export({ to: 'graph-def', asText: true }).files.length, 1);
  });
});

// GraphDef { node { name: "a" op: "NoOp" 9: 1 } 99: "x" }: two fields the schema lacks.
const WITH_UNKNOWN = new Uint8Array([
  0x0a, 0x0b, 0x0a, 0x01, 0x61, 0x12, 0x04, 0x4e, 0x6f, 0x4f, 0x70, 0x48, 0x01,
  0x9a, 0x06, 0x01, 0x78,
]);

leakCheckedTest(gp, 'a text export leaves unknown fields out, says so, and loads back', () => {
  withModel(gp, WITH_UNKNOWN, {}, (m) => {
    for (const to of ['graph-def', 'meta-graph', 'saved-model']) {
      const out = m.export({ to, asText: true });
      const text = new TextDecoder().decode(out.files[0].bytes);
      assert.doesNotMatch(text, /^\s*(9|99): /m, text);
      assert.equal(out.info.unknownFieldsLeftOut.count, 2);
      assert.ok(out.info.unknownFieldsLeftOut.fields.some((f) => /node\[0\] field 9$/.test(f)));
      withModel(gp, out.files[0].bytes, {}, (again) => {
        assert.equal(again.inspect().format, to);
        assert.equal(again.inspect().encoding, 'text');
      });
    }
    // Binary keeps them.
    const binary = m.export({ to: 'graph-def' });
    assert.equal(binary.info.unknownFieldsLeftOut, undefined);
    assert.ok(binary.files[0].bytes.length >= WITH_UNKNOWN.length);
  });
});

leakCheckedTest(gp, 'messages quote at most a few hundred bytes of a huge option', () => {
  withModel(gp, enc('node { name: "a/b" op: "NoOp" }'), {}, (m) => {
    const e = assertGraphportError(gp, () => m.export({ exportScope: 'x'.repeat(100_000) }),
      { codes: 'NOT_FOUND' });
    assert.ok(e.message.length < 1000, `message of ${e.message.length} bytes`);
    assert.match(e.message, /\(99800 more bytes\)/);
  });
});

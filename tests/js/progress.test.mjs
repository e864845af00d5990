// onProgress of load() and export(): what it reports as bytes move, and that throwing from it
// stops the work cleanly (same error out, no model made or changed, nothing half returned).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  GRAPHS, assertGraphportError, assertSameBytes, checkNoLeaksAtEnd, chunkSource, graphport,
  leakCheckedTest, readBytes, withModel,
} from './helpers.mjs';

const gp = await graphport();
checkNoLeaksAtEnd(gp);

const SAVED = GRAPHS.find((g) => g.rel.includes('matrix_half_plus_two'));
const FROZEN = GRAPHS.find((g) => g.kind === 'graph-def');

// Asserts that `events` of one phase and file count up from 0 to `size`.
function assertCountsUp(events, { phase, file, size, total }) {
  assert.ok(events.length >= 2, `${file}: ${events.length} progress events`);
  assert.deepEqual(events[0], { phase, file, done: 0, total });
  for (let i = 1; i < events.length; i += 1) {
    assert.equal(events[i].phase, phase);
    assert.equal(events[i].file, file);
    assert.equal(events[i].total, total);
    assert.ok(events[i].done > events[i - 1].done,
      `${file}: done went ${events[i - 1].done} -> ${events[i].done}`);
  }
  assert.equal(events.at(-1).done, size);
}

leakCheckedTest(gp, 'load() reports the bytes read, chunk by chunk, up to the input size', () => {
  const bytes = readBytes(FROZEN.path);
  const events = [];
  const source = chunkSource(bytes, 4096);
  withModel(gp, source, { name: 'frozen.pb', onProgress: (e) => events.push(e) }, () => {});
  // A rewind (detection reads the start, then parsing starts over) begins a new count.
  const starts = events.map((e, i) => (e.done === 0 ? i : -1)).filter((i) => i >= 0);
  assert.equal(starts.length, source.rewinds + 1);
  const lastPass = events.slice(starts.at(-1));
  assertCountsUp(lastPass, { phase: 'read', file: 'frozen.pb', size: bytes.length, total: bytes.length });
  assert.ok(lastPass.length >= Math.ceil(bytes.length / 4096), `${lastPass.length} events`);
});

leakCheckedTest(gp, 'a load from a file names it in the progress events', () => {
  const events = [];
  withModel(gp, readBytes(SAVED.path), {}, () => {});
  const model = gp.loadFile(SAVED.path, { onProgress: (e) => events.push(e) });
  model.delete();
  assert.equal(events.at(-1).file, SAVED.path);
  assert.equal(events.at(-1).done, readBytes(SAVED.path).length);
});

leakCheckedTest(gp, 'export() reports each file it writes, with its size, text too', () => {
  withModel(gp, readBytes(SAVED.path), {}, (model) => {
    for (const asText of [false, true]) {
      const events = [];
      const out = model.export({ saveDebugInfo: true, asText, onProgress: (e) => events.push(e) });
      assert.deepEqual(out, model.export({ saveDebugInfo: true, asText }), 'onProgress changed the output');
      assert.equal(out.files.length, 2);
      for (const { name, bytes } of out.files) {
        const mine = events.filter((e) => e.file === name);
        // An empty file (no debug traces in this input) gets its opening event only.
        if (bytes.length === 0) {
          assert.deepEqual(mine, [{ phase: 'write', file: name, done: 0, total: 0 }]);
          continue;
        }
        // export() gathers each file whole, so a text file is counted before it is written.
        assertCountsUp(mine, { phase: 'write', file: name, size: bytes.length, total: bytes.length });
      }
      assert.deepEqual([...new Set(events.map((e) => e.file))], out.files.map((f) => f.name),
        'files are reported one after the other, in output order');
    }
  });
});

leakCheckedTest(gp, 'exportTo() reports a text file without a size: it is printed once, as it goes', () => {
  withModel(gp, readBytes(SAVED.path), {}, (model) => {
    const events = [];
    const chunks = [];
    const sink = { open: () => ({ write: (c) => chunks.push(c.slice()), close() {} }) };
    const { files } = model.exportTo({ asText: true, onProgress: (e) => events.push(e) }, sink);
    const size = chunks.reduce((n, c) => n + c.length, 0);
    assert.equal(files[0].size, size);
    assertCountsUp(events, { phase: 'write', file: files[0].name, size, total: null });
  });
});

leakCheckedTest(gp, 'throwing from onProgress stops an export with that error; the model is unchanged', () => {
  withModel(gp, readBytes(SAVED.path), {}, (model) => {
    const before = model.export({ to: 'saved-model' });
    const stop = new Error('stop here');
    let calls = 0;
    const onProgress = (e) => {
      calls += 1;
      if (e.done > 0) throw stop;
    };
    assert.throws(() => model.export({ to: 'saved-model', onProgress }), (e) => e === stop);
    assert.ok(calls >= 2);
    const after = model.export({ to: 'saved-model' });
    assertSameBytes(after.files[0].bytes, before.files[0].bytes, 'export after a stopped export');
  });
});

leakCheckedTest(gp, 'throwing from onProgress stops a load with that error; no model is left', () => {
  const stop = new RangeError('enough');
  const bytes = readBytes(FROZEN.path);
  const onProgress = (e) => {
    if (e.done > bytes.length / 2) throw stop;
  };
  assert.throws(() => gp.load(chunkSource(bytes, 1024), { onProgress }), (e) => e === stop);
  // The instance is fine afterwards.
  withModel(gp, bytes, {}, (m) => assert.ok(m.inspect().nodeCount > 0));
});

test('onProgress must be a function', () => {
  const bytes = readBytes(FROZEN.path);
  assertGraphportError(gp, () => gp.load(bytes, { onProgress: 'yes' }), { codes: 'INVALID_OPTION' });
  withModel(gp, bytes, {}, (m) => {
    const e = assertGraphportError(gp, () => m.export({ onProgress: 1 }), { codes: 'INVALID_OPTION' });
    assert.match(e.message, /onProgress/);
  });
});

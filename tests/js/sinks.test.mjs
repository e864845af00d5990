// Streamed outputs: model.exportTo(options, sink) hands the caller each chunk as the core
// writes it, gp.exportToFile() streams to disk, model.exportToStreams() to WritableStreams.
// What they deliver equals export()'s bytes; a sink failing at any chunk stops the export with
// IO_ERROR, aborts the sink, reports no file as complete, and leaves the model as it was.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

import { test } from 'node:test';

import {
  GRAPHS, assertGraphportError, assertSameBytes, checkNoLeaksAtEnd, corpusPath, graphport,
  leakCheckedTest, readBytes, requireNativeCli, runCli, tempDir, withModel,
} from './helpers.mjs';
import { bytesField, concat, stringField, weightsGraphBytes } from './wire_writer.mjs';

const gp = await graphport();
checkNoLeaksAtEnd(gp);

const CHUNK = 1 << 20;
// Three Const nodes of 1.5 MiB, 1.5 MiB and 1 KiB: a GraphDef export of four 1 MiB chunks.
const WEIGHTS = weightsGraphBytes([3 << 19, 3 << 19, 1024], 64 << 10);
const SAVED_DIR = corpusPath('tf/serving/servables/tensorflow/testdata/saved_model_half_plus_three/00000123');

// A sink that keeps copies of what it gets and logs every call; `failAt` makes the Nth call of
// one kind ('open', 'sizeHint', 'write', 'close', counted over all files) throw.
function recordingSink({ failAt = null } = {}) {
  const log = [];
  const files = [];
  const counts = { open: 0, sizeHint: 0, write: 0, close: 0 };
  const boom = new Error('the disk is full');
  const step = (kind) => {
    counts[kind] += 1;
    log.push(kind);
    if (failAt && failAt.kind === kind && failAt.n === counts[kind]) throw boom;
  };
  const sink = {
    log, files, counts, boom, aborts: [],
    open(name) {
      const file = { name, chunks: [], hint: null, closed: false };
      files.push(file);
      step('open');
      return {
        sizeHint(total) {
          step('sizeHint');
          file.hint = total;
        },
        write(chunk) {
          step('write');
          assert.ok(chunk instanceof Uint8Array);
          assert.ok(chunk.length <= CHUNK, `a chunk of ${chunk.length} bytes`);
          file.chunks.push(chunk.slice());
        },
        close() {
          step('close');
          file.closed = true;
        },
      };
    },
    abort(error) {
      sink.aborts.push(error);
    },
  };
  return sink;
}

const bytesOf = (file) => concat(file.chunks);

// exportTo() into a recording sink, checked against export(): same names, same bytes, every
// file closed, sizes reported, the size hint right where one was given.
function exportToMatches(model, options) {
  const expected = model.export(options);
  const sink = recordingSink();
  const result = model.exportTo(options, sink);
  assert.deepEqual(result.info, expected.info);
  assert.deepEqual(result.files, expected.files.map((f) => ({ name: f.name, size: f.bytes.length })));
  assert.deepEqual(sink.files.map((f) => f.name), expected.files.map((f) => f.name));
  sink.files.forEach((f, i) => {
    assert.ok(f.closed, `${f.name} closed`);
    assertSameBytes(bytesOf(f), expected.files[i].bytes, `${f.name} through the sink`);
    if (f.hint !== null) assert.equal(f.hint, expected.files[i].bytes.length, `${f.name}: size hint`);
  });
  assert.equal(sink.aborts.length, 0);
  return { expected, sink };
}

// For each N from 1 to the number of `kind` calls a good export makes, a sink failing at the
// Nth: IO_ERROR naming the file, the sink's error as cause, abort() once with the thrown error,
// no result; then the model inspects and exports as before.
function failEveryCall(model, options, kind) {
  const { expected, sink: good } = exportToMatches(model, options);
  const summary = model.inspect();
  const total = good.counts[kind];
  assert.ok(total >= 1, `a good export makes ${kind}() calls`);
  for (let n = 1; n <= total; n += 1) {
    const sink = recordingSink({ failAt: { kind, n } });
    let result;
    const error = assertGraphportError(gp, () => {
      result = model.exportTo(options, sink);
    }, { codes: 'IO_ERROR' });
    assert.equal(result, undefined, `${kind} #${n}: no result`);
    assert.equal(error.cause, sink.boom, `${kind} #${n}: the cause is what the sink threw`);
    assert.match(error.message, new RegExp(`the sink's ${kind}\\(\\) failed: the disk is full`));
    const failedFile = sink.files.at(-1).name;
    assert.equal(error.file, failedFile);
    assert.ok(error.message.startsWith(`${failedFile}: `), error.message);
    assert.deepEqual(sink.aborts, [error], `${kind} #${n}: abort() once, with the error thrown`);
    // The export stopped at the failure: nothing was asked of the sink after it.
    assert.equal(sink.log.at(-1), kind, `${kind} #${n}: calls after the failure: ${sink.log.join(',')}`);
  }
  assert.deepEqual(model.inspect(), summary, 'the model is unchanged');
  const again = model.export(options);
  again.files.forEach((f, i) => assertSameBytes(f.bytes, expected.files[i].bytes, `export after failures: ${f.name}`));
  exportToMatches(model, options);
  return total;
}

leakCheckedTest(gp, 'exportTo gives export()\'s bytes for every corpus graph, kind and encoding', () => {
  for (const g of GRAPHS) {
    withModel(gp, readBytes(g.path), {}, (m) => {
      for (const to of ['meta-graph', 'graph-def', 'saved-model']) {
        for (const asText of [false, true]) exportToMatches(m, { to, asText });
      }
    });
  }
});

leakCheckedTest(gp, 'a weights-heavy GraphDef is written in chunks of at most 1 MiB, and round-trips byte for byte', () => {
  withModel(gp, WEIGHTS.bytes, {}, (m) => {
    const { sink } = exportToMatches(m, { to: 'graph-def' });
    assert.equal(sink.files.length, 1);
    assertSameBytes(bytesOf(sink.files[0]), WEIGHTS.bytes, 'the generated GraphDef exported as a GraphDef');
    // Each big node's bytes go out from the model a chunk at a time, after the few bytes
    // buffered before them: at most two chunks more per node than cutting the file evenly.
    const nodes = 3;
    assert.ok(sink.counts.write >= Math.ceil(WEIGHTS.size / CHUNK), `${sink.counts.write} writes`);
    assert.ok(sink.counts.write <= Math.ceil(WEIGHTS.size / CHUNK) + 2 * nodes, `${sink.counts.write} writes`);
    assert.deepEqual(sink.log.slice(0, 2), ['open', 'sizeHint']);
    // TF.js shards take a 1.5 MiB tensor in one piece; the sink still gets at most 1 MiB a
    // chunk (the recording sink asserts it).
    const { sink: tfjs } = exportToMatches(m, { to: 'tfjs' });
    assert.ok(tfjs.files.some((f) => f.name.endsWith('.bin')), 'weight shards written');
  });
});

leakCheckedTest(gp, 'GraphDef: a sink failing at the Nth chunk, for every N, stops the export and aborts', () => {
  withModel(gp, WEIGHTS.bytes, {}, (m) => {
    // Every write is failed once: at least the file's 1 MiB chunks, with the big nodes' bytes
    // handed over from the model among them.
    assert.ok(failEveryCall(m, { to: 'graph-def' }, 'write') >= Math.ceil(WEIGHTS.size / CHUNK));
    for (const kind of ['open', 'sizeHint', 'close']) failEveryCall(m, { to: 'graph-def' }, kind);
    // A text export has no size hint and more, smaller-than-1 MiB pieces; the same holds.
    assert.ok(failEveryCall(m, { to: 'graph-def', asText: true }, 'write') > 4);
  });
});

leakCheckedTest(gp, 'TF.js folder: a sink failing at the Nth chunk, open or close, for every N, reports no file', () => {
  // 4,000 Identity nodes before the weights: a model.json of several 64 KiB pieces, streamed
  // node by node from the GraphDef's bytes, after a shard of 3 MiB.
  const identities = Array.from({ length: 4000 }, (_, i) => bytesField(1, concat([
    stringField(1, `chain/identity_${i}`), stringField(2, 'Identity'),
    stringField(3, i === 0 ? 'w0' : `chain/identity_${i - 1}`)])));
  withModel(gp, concat([...identities, WEIGHTS.bytes]), {}, (m) => {
    const options = { to: 'tfjs' };
    const files = m.export(options).files;
    assert.deepEqual(files.map((f) => f.name), ['group1-shard1of1.bin', 'model.json']);
    assert.ok(files[1].bytes.length > 4 * (64 << 10), `model.json of ${files[1].bytes.length} bytes`);
    assert.ok(failEveryCall(m, options, 'write') >= 3 + 4);
    assert.equal(failEveryCall(m, options, 'close'), 2);
    failEveryCall(m, options, 'open');
  });
});

leakCheckedTest(gp, 'SavedModel folder: a sink failing at the Nth chunk or close, for every N, reports no file', () => {
  const m = gp.loadFile(SAVED_DIR);
  try {
    const options = { to: 'saved-model' };
    assert.equal(m.writesFolder(options), true);
    const files = m.export(options).files.map((f) => f.name);
    assert.ok(files.includes('variables/variables.index') && files.length >= 3, files.join(', '));
    assert.ok(failEveryCall(m, options, 'write') >= 3);
    // Failing at the last close: every file but one was closed, and still none is complete.
    assert.equal(failEveryCall(m, options, 'close'), files.length);
    failEveryCall(m, options, 'open');
  } finally {
    m.delete();
  }
});

leakCheckedTest(gp, 'exportTo: onProgress, core errors and bad sinks', () => {
  withModel(gp, WEIGHTS.bytes, {}, (m) => {
    // Progress comes as bytes reach the sink; what onProgress throws is thrown as it is.
    const events = [];
    m.exportTo({ to: 'graph-def', onProgress: (e) => events.push(e) }, recordingSink());
    assert.deepEqual(events[0], { phase: 'write', file: 'graph.pb', done: 0, total: WEIGHTS.size });
    assert.deepEqual(events.at(-1), { phase: 'write', file: 'graph.pb', done: WEIGHTS.size, total: WEIGHTS.size });
    const stop = new Error('stop');
    const sink = recordingSink();
    assert.throws(() => m.exportTo({ to: 'graph-def', onProgress: ({ done }) => { if (done > 0) throw stop; } }, sink),
      (e) => e === stop);
    assert.deepEqual(sink.aborts, [stop]);

    // The core refusing the options: its error, and the sink is aborted all the same.
    const refused = recordingSink();
    const error = assertGraphportError(gp, () => m.exportTo({ to: 'onnx' }, refused), { codes: 'INVALID_OPTION' });
    assert.deepEqual(refused.aborts, [error]);

    for (const bad of [undefined, null, 3, {}, { open: 1 }]) {
      assertGraphportError(gp, () => m.exportTo({}, bad), { codes: 'INVALID_OPTION' });
    }
    assertGraphportError(gp, () => m.exportTo({}, { open() {}, abort: 'no' }), { codes: 'INVALID_OPTION' });
    // open() must give a file sink.
    const e = assertGraphportError(gp, () => m.exportTo({ to: 'graph-def' }, { open: () => null }), { codes: 'IO_ERROR' });
    assert.match(e.message, /^graph\.pb: the sink's open\(\) failed: open\(\) must return/);
    // What abort() throws does not hide the export's error.
    const failing = { open() { throw stop; }, abort() { throw new Error('abort failed too'); } };
    assert.equal(assertGraphportError(gp, () => m.exportTo({}, failing), { codes: 'IO_ERROR' }).cause, stop);
    exportToMatches(m, { to: 'graph-def' });
  });
});

// Every regular file under `dir`, '/'-separated, sorted.
function listFiles(dir) {
  const out = [];
  const walk = (d) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else out.push(relative(dir, p).split(sep).join('/'));
    }
  };
  walk(dir);
  return out.sort();
}

leakCheckedTest(gp, 'exportToFile: a GraphDef file and a SavedModel folder equal export(); a failure leaves nothing', (t) => {
  const dir = tempDir(t);
  withModel(gp, WEIGHTS.bytes, {}, (m) => {
    const path = join(dir, 'weights.pb');
    const out = gp.exportToFile(m, { to: 'graph-def' }, path);
    assert.deepEqual(out.files, [{ name: 'weights.pb', size: WEIGHTS.size, path }]);
    assertSameBytes(readFileSync(out.files[0].path), WEIGHTS.bytes, 'graph.pb on disk');
    // The file's base name is export_meta_graph's filename: the MetaGraphDef goes there.
    const meta = gp.exportToFile(m, { to: 'meta-graph' }, join(dir, 'model.meta'));
    assert.equal(meta.files[0].path, join(dir, 'model.meta'));
    assertSameBytes(readFileSync(join(dir, 'model.meta')), m.export({ to: 'meta-graph', filename: 'model.meta' }).files[0].bytes, 'model.meta');
    assertGraphportError(gp, () => gp.exportToFile(m, {}, join(dir, 'no', 'such', 'x.meta')), { codes: 'IO_ERROR' });
    assertGraphportError(gp, () => gp.exportToFile(m, {}, ''), { codes: 'INVALID_OPTION' });
  });
  assert.deepEqual(listFiles(dir), ['model.meta', 'weights.pb']);

  const m = gp.loadFile(SAVED_DIR);
  try {
    const options = { to: 'saved-model' };
    const expected = m.export(options).files;
    const folder = join(dir, 'out', 'saved');
    const out = gp.exportToFile(m, options, folder);
    assert.deepEqual(out.files.map((f) => f.name), expected.map((f) => f.name));
    assert.deepEqual(listFiles(folder), expected.map((f) => f.name).sort());
    for (const f of expected) assertSameBytes(readFileSync(join(folder, ...f.name.split('/'))), f.bytes, `on disk: ${f.name}`);

    // A file where the export needs its variables/ folder: saved_model.pb is written first, then
    // the export fails; the half-made output goes and nothing else is touched.
    const blocked = join(dir, 'blocked');
    mkdirSync(blocked);
    writeFileSync(join(blocked, 'variables'), 'in the way');
    assertGraphportError(gp, () => gp.exportToFile(m, options, blocked), { codes: 'IO_ERROR' });
    assert.deepEqual(listFiles(blocked), ['variables']);
    // Renaming into place fails (a folder holds the final name): the files not yet in place go.
    const taken = join(dir, 'taken');
    mkdirSync(join(taken, 'saved_model.pb', 'inside'), { recursive: true });
    const e = assertGraphportError(gp, () => gp.exportToFile(m, options, taken), { codes: 'IO_ERROR' });
    assert.match(e.message, /saved_model\.pb: cannot rename into place/);
    assert.deepEqual(listFiles(taken), []);
    assert.deepEqual(readdirSync(taken), ['saved_model.pb']);
  } finally {
    m.delete();
  }
});

// A WritableStream (Node's, the same API as the browser's) that keeps what it is given; it
// rejects its `failAt`th write, and records whether it was closed or aborted.
function memoryStream(name, log, failAt = 0) {
  const record = { name, chunks: [], closed: false, aborted: null };
  log.push(record);
  return new WritableStream({
    write(chunk) {
      if (record.chunks.length + 1 === failAt) throw new Error(`${name}: quota exceeded`);
      record.chunks.push(chunk);
    },
    close() {
      record.closed = true;
    },
    abort(reason) {
      record.aborted = reason;
    },
  });
}

leakCheckedTest(gp, 'exportToStreams: one WritableStream per file, closed only once the export succeeded', async () => {
  const m = gp.loadFile(SAVED_DIR);
  try {
    const options = { to: 'saved-model' };
    const expected = m.export(options);
    const log = [];
    // A promise of a stream counts, as createWritable() gives.
    const result = await m.exportToStreams(options, async (name) => memoryStream(name, log));
    assert.deepEqual(result.files, expected.files.map((f) => ({ name: f.name, size: f.bytes.length })));
    assert.deepEqual(log.map((r) => r.name), expected.files.map((f) => f.name));
    log.forEach((r, i) => {
      assert.ok(r.closed && r.aborted === null, `${r.name} closed`);
      assertSameBytes(concat(r.chunks), expected.files[i].bytes, `stream ${r.name}`);
    });

    // The second file's stream rejects its first write: IO_ERROR, every stream aborted, none closed.
    const failing = [];
    await assert.rejects(m.exportToStreams(options, (name) => memoryStream(name, failing, failing.length === 1 ? 1 : 0)),
      (e) => e instanceof gp.GraphportError && e.code === 'IO_ERROR' && e.file === expected.files[1].name
        && /the stream failed: .*quota exceeded/.test(e.message));
    assert.equal(failing.length, expected.files.length);
    // The stream whose write failed is errored; every other one is aborted.
    failing.forEach((r, i) => {
      assert.ok(!r.closed, `${r.name}: not closed`);
      if (i !== 1) assert.ok(r.aborted instanceof gp.GraphportError, `${r.name}: aborted with the export's error`);
    });

    // The export itself failing (a bad option): the streams opened so far are aborted.
    const refused = [];
    await assert.rejects(m.exportToStreams({ to: 'onnx' }, (name) => memoryStream(name, refused)),
      (e) => e.code === 'INVALID_OPTION');
    assert.deepEqual(refused, []);
    await assert.rejects(m.exportToStreams(options, 'not a function'), (e) => e.code === 'INVALID_OPTION');
    await assert.rejects(m.exportToStreams(options, () => ({})),
      (e) => e.code === 'IO_ERROR' && /did not give a WritableStream/.test(e.message));
  } finally {
    m.delete();
  }
});

test('the Node CLI streams a SavedModel folder to disk, and a failed export leaves no file, as the native CLI', (t) => {
  requireNativeCli();
  const dir = tempDir(t);
  const m = gp.loadFile(SAVED_DIR);
  let files;
  try {
    files = m.export({ to: 'saved-model' }).files;
  } finally {
    m.delete();
  }
  for (const which of ['node', 'native']) {
    const out = join(dir, which, 'saved');
    const r = runCli(which, ['export', SAVED_DIR, '-o', out, '--to', 'saved-model']);
    assert.equal(r.status, 0, r.stderr);
    for (const f of files) assertSameBytes(readFileSync(join(out, ...f.name.split('/'))), f.bytes, `${which}: ${f.name}`);
    assert.deepEqual(listFiles(out), files.map((f) => f.name).sort(), `${which}: no partial file left`);

    // variables/ cannot be made: saved_model.pb, written first, goes again.
    const blocked = join(dir, which, 'blocked');
    mkdirSync(blocked, { recursive: true });
    writeFileSync(join(blocked, 'variables'), 'in the way');
    const failed = runCli(which, ['export', SAVED_DIR, '-o', blocked, '--to', 'saved-model']);
    assert.equal(failed.status, 1);
    assert.ok(failed.stderr.startsWith('graphport: error IO_ERROR: '), `${which}: ${failed.stderr}`);
    assert.deepEqual(listFiles(blocked), ['variables'], `${which}: nothing left behind`);
  }
});

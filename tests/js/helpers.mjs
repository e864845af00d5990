// Shared by the JavaScript tests: where the repo, the corpus and the builds are, the corpus
// graphs with their independently known facts, and small tools (chunk sources, a seeded
// PRNG, CLI runners, a leak-checking test wrapper).
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const CORPUS = join(REPO, '..', 'shared', 'corpus');
// The native CLI the WebAssembly one is compared with: the build GRAPHPORT_NATIVE_BUILD names
// (npm test sets build/asan, the instrumented one), else a developer's optimized build/native.
export const NATIVE_CLI = join(process.env.GRAPHPORT_NATIVE_BUILD ?? join(REPO, 'build', 'native'), 'graphport');
export const NODE_CLI = join(REPO, 'bindings', 'js', 'cli.mjs');
export const NODE_ENTRY = join(REPO, 'bindings', 'js', 'node.mjs');
export const CJS_ENTRY = join(REPO, 'bindings', 'js', 'index.cjs');

// Missing inputs fail the suite loudly: a test run that silently skipped its data proves nothing.
if (!existsSync(join(CORPUS, 'tf')) || !existsSync(join(CORPUS, 'tfjs'))) {
  throw new Error(
    `graphport JS tests: the test corpus is missing. They read real models from ` +
      `../shared/corpus relative to the repo root, i.e. ${CORPUS}; restore it there.`,
  );
}
if (!existsSync(join(REPO, 'bindings', 'js', 'wasm', 'graphport_node.wasm'))) {
  throw new Error(
    'graphport JS tests: bindings/js/wasm/graphport_node.wasm is missing; ' +
      'build it with `bash scripts/build.sh wasm`.',
  );
}

export const corpusPath = (rel) => join(CORPUS, ...rel.split('/'));
export const KERAS_METADATA = corpusPath(
  'tf/serving/servables/tensorflow/testdata/tf_text_regression/01/keras_metadata.pb',
);

const SERVABLES = 'tf/serving/servables/tensorflow/testdata';

// Facts from ../shared/research/tensorflow.md §3.4 ("Binaries verified by decoding", protoc
// against TensorFlow's own protos), per corpus file: size in bytes, TensorFlow version, node
// count, "Ops" (the stripped op list, which equals the distinct ops of the graph when the
// graph has no functions), and the extra notes of the table where it gives them.
// frozen_graph.pb is not in that table; its facts come from model.json beside it (the same
// model as a TensorFlow.js graph model, written by another tool).
export const GRAPHS = [
  {
    rel: 'tf/serving/session_bundle/testdata/half_plus_two/00000123/export.meta',
    kind: 'meta-graph', bytes: 13244, tfVersion: '0.12.head', nodes: 57, ops: 13, hasSaver: true,
    collections: {
      asset_filepaths: 'node_list', serving_assets: 'any_list', serving_graph: 'any_list',
      serving_init_op: 'node_list', serving_signatures: 'any_list',
      trainable_variables: 'bytes_list', variables: 'bytes_list',
    },
  },
  {
    rel: `${SERVABLES}/bad_half_plus_two/00000123/export.meta`,
    kind: 'meta-graph', bytes: 4053, tfVersion: '', nodes: 26, ops: 10, hasSaver: true,
    collectionNames: ['trainable_variables', 'variables'],
  },
  {
    rel: 'tf/serving/batching/testdata/matrix_half_plus_two/1/saved_model.pb',
    kind: 'saved-model', bytes: 856, tfVersion: '1.2.0-rc2', nodes: 6, ops: 5, hasSaver: false,
    collectionNames: [], signatures: 1,
  },
  {
    rel: `${SERVABLES}/saved_model_counter/00000123/saved_model.pb`,
    kind: 'saved-model', bytes: 5289, tfVersion: '1.5.0-rc1', nodes: 30, ops: 13, hasSaver: true,
    collectionNames: ['trainable_variables', 'variables'], signatures: 4,
  },
  {
    rel: `${SERVABLES}/saved_model_half_plus_three/00000123/saved_model.pb`,
    kind: 'saved-model', bytes: 8658, tfVersion: '1.0.0-rc2', nodes: 60, ops: 15,
    collectionCount: 5, hasAnyList: true, signatures: 2,
  },
  {
    rel: `${SERVABLES}/saved_model_half_plus_two_2_versions/00000123/saved_model.pb`,
    kind: 'saved-model', bytes: 9935, tfVersion: '1.1.0-rc2', nodes: 65, ops: 16, signatures: 6,
  },
  {
    rel: `${SERVABLES}/saved_model_half_plus_two_2_versions/00000124/saved_model.pb`,
    kind: 'saved-model', bytes: 9935, tfVersion: '1.1.0-rc2', nodes: 65, ops: 16, signatures: 6,
  },
  {
    rel: `${SERVABLES}/saved_model_half_plus_two_cpu/00000123/saved_model.pb`,
    kind: 'saved-model', bytes: 12107, tfVersion: '1.14.0', nodes: 74, ops: 17, signatures: 5,
    collectionIncludes: 'saved_model_main_op',
  },
  {
    rel: `${SERVABLES}/saved_model_half_plus_two_gpu/00000123/saved_model.pb`,
    kind: 'saved-model', bytes: 9337, tfVersion: '1.9.0', nodes: 58, ops: 16,
  },
  {
    rel: `${SERVABLES}/saved_model_half_plus_two_mkl/00000123/saved_model.pb`,
    kind: 'saved-model', bytes: 29084, tfVersion: '1.12.0-rc0', nodes: 163, ops: 26,
  },
  {
    rel: `${SERVABLES}/saved_model_half_plus_two_mlmd/00000123/saved_model.pb`,
    kind: 'saved-model', bytes: 12685, tfVersion: '2.1.0', nodes: 78, ops: 19,
  },
  {
    rel: `${SERVABLES}/saved_model_half_plus_two_gpu_trt/00000123/saved_model.pb`,
    kind: 'saved-model', bytes: 13043, tfVersion: '2.2.0', nodes: 78, ops: 19,
  },
  {
    rel: `${SERVABLES}/saved_model_half_plus_two_cpu_with_saved_model_config/00000123/saved_model.pb`,
    kind: 'saved-model', bytes: 15176, tfVersion: '2.4.0', nodes: 97, ops: 21,
  },
  {
    rel: `${SERVABLES}/saved_model_half_plus_two_cpu_with_empty_saved_model_config/00000123/saved_model.pb`,
    kind: 'saved-model', bytes: 15176, tfVersion: '2.4.0', nodes: 97, ops: 21,
  },
  {
    // The table says "20 library functions"; decoding shows 14 FunctionDefs in
    // graph_def.library and 6 SavedObject function nodes in object_graph_def (14 + 6 = 20),
    // so the tests check the two parts and their sum. Its "Ops" 23 is the stripped op list,
    // which also covers the ops used inside the functions.
    rel: `${SERVABLES}/saved_model_half_plus_two_tf2_cpu/00000123/saved_model.pb`,
    kind: 'saved-model', bytes: 37987, tfVersion: '2.14.0', nodes: 29, strippedOps: 23,
    functionsTotal: 20, strippedDefaultAttrs: true, hasSaver: true,
    collectionNames: ['saved_model_main_op'], signatureIncludes: '__saved_model_init_op',
  },
  {
    rel: 'tfjs/tfjs-to-tf/simple/frozen_graph.pb',
    kind: 'graph-def', modelJson: 'tfjs/tfjs-to-tf/simple/model.json',
  },
];
for (const g of GRAPHS) {
  g.path = corpusPath(g.rel);
  g.name = g.rel.split('/').slice(-3).join('/');
}

// research §3.5: TF 2.1, 2.2 and 2.4 wrote sorted maps, and re-encoding them reproduced the
// bytes exactly; every other file re-encodes to the same size with different bytes.
export const BYTE_IDENTICAL_VERSIONS = new Set(['2.1.0', '2.2.0', '2.4.0']);

export const KINDS = ['meta-graph', 'graph-def', 'saved-model'];

// The corpus files that are graphs: every saved_model.pb and *.meta under tf/, plus the
// frozen GraphDef. Tests check this against GRAPHS so a new corpus file cannot go untested.
export function findCorpusGraphs() {
  const out = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.name === 'saved_model.pb' || entry.name.endsWith('.meta')) out.push(p);
    }
  };
  walk(join(CORPUS, 'tf'));
  out.push(corpusPath('tfjs/tfjs-to-tf/simple/frozen_graph.pb'));
  return out.map((p) => relative(CORPUS, p).split(sep).join('/')).sort();
}

export const readBytes = (path) => new Uint8Array(readFileSync(path));

let gpPromise = null;
export function graphport() {
  if (!gpPromise) gpPromise = import(NODE_ENTRY).then((m) => m.default());
  return gpPromise;
}

// test() that also proves the test left no model handle alive, and a file-level check of the
// same at the end.
export function leakCheckedTest(gp, name, fn) {
  return test(name, async (t) => {
    const before = gp.liveModels();
    try {
      await fn(t);
    } finally {
      assert.equal(gp.liveModels(), before, `${name}: a model handle leaked`);
    }
  });
}

export function checkNoLeaksAtEnd(gp) {
  const start = gp.liveModels();
  after(() => {
    assert.equal(gp.liveModels(), start, 'models loaded by this file were not all deleted');
  });
}

// Runs fn(model) and deletes the model whatever happens.
export function withModel(gp, input, options, fn) {
  const model = gp.load(input, options);
  try {
    return fn(model);
  } finally {
    model.delete();
  }
}

export function exportBytes(model, options) {
  const out = model.export(options);
  assert.equal(out.files.length, 1, 'a TensorFlow export writes one file');
  assert.ok(out.files[0].bytes instanceof Uint8Array);
  return out.files[0].bytes;
}

// Asserts fn throws a GraphportError; returns it for further checks.
export function assertGraphportError(gp, fn, { codes, name, where } = {}) {
  let error = null;
  try {
    const leaked = fn();
    if (leaked && typeof leaked.delete === 'function') leaked.delete();
  } catch (e) {
    error = e;
  }
  assert.ok(error, 'expected a GraphportError, nothing was thrown');
  assert.ok(error instanceof gp.GraphportError,
    `expected a GraphportError, got ${error?.constructor?.name}: ${error?.message}`);
  assert.equal(error.name, 'GraphportError');
  if (codes) {
    const allowed = Array.isArray(codes) ? codes : [codes];
    assert.ok(allowed.includes(error.code), `code ${error.code} not in [${allowed}]: ${error.message}`);
  }
  if (name !== undefined) {
    assert.ok(error.message.startsWith(`${name}: `), `message does not name '${name}': ${error.message}`);
  }
  if (where === 'byte') {
    assert.match(error.message, /at byte \d+/, `no byte offset in: ${error.message}`);
  } else if (where === 'line') {
    assert.match(error.message, /line \d+ column \d+/, `no line/column in: ${error.message}`);
  }
  return error;
}

export function byteOffsetIn(message) {
  const m = /at byte (\d+)/.exec(message);
  return m ? Number(m[1]) : null;
}

// A chunk source that hands out at most `chunk` bytes per read and counts its calls.
export function chunkSource(bytes, chunk = 7) {
  let offset = 0;
  const source = {
    size: bytes.length,
    reads: 0,
    rewinds: 0,
    largestChunk: 0,
    read(max) {
      source.reads += 1;
      if (offset >= bytes.length) return null;
      const n = Math.min(chunk, max, bytes.length - offset);
      const out = bytes.slice(offset, offset + n);
      offset += n;
      source.largestChunk = Math.max(source.largestChunk, n);
      return out;
    },
    rewind() {
      source.rewinds += 1;
      offset = 0;
      return true;
    },
  };
  return source;
}

// mulberry32: a small seeded PRNG, so "random" inputs are the same on every run.
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomBytes(seed, length) {
  const next = prng(seed);
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i += 1) out[i] = Math.floor(next() * 256);
  return out;
}

export function tempDir(t, label = 'graphport-js-') {
  const dir = mkdtempSync(join(tmpdir(), label));
  if (t) t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export function requireNativeCli() {
  assert.ok(existsSync(NATIVE_CLI) && statSync(NATIVE_CLI).isFile(),
    `the native CLI is missing at ${NATIVE_CLI}; build it with \`bash scripts/build.sh native\``);
}

// Runs a CLI and returns {status, stdout, stderr}; never throws on a non-zero exit.
export function runCli(which, args) {
  const [cmd, argv] = which === 'native' ? [NATIVE_CLI, args] : [process.execPath, [NODE_CLI, ...args]];
  const r = spawnSync(cmd, argv, { encoding: 'utf8', cwd: REPO, timeout: 60_000 });
  if (r.error) throw r.error;
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

export function runNative(args) {
  return execFileSync(NATIVE_CLI, args, { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
}

export function bytesEqual(a, b) {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength)
    .equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}

// assert.ok(bytesEqual) with a readable message: sizes and the first differing byte.
export function assertSameBytes(actual, expected, what) {
  if (bytesEqual(actual, expected)) return;
  let i = 0;
  while (i < actual.length && i < expected.length && actual[i] === expected[i]) i += 1;
  assert.fail(`${what}: ${actual.length} bytes vs ${expected.length} expected, first difference at byte ${i}`);
}

// A SavedModel folder as load() takes it: every file under its relative name.
export function folderFiles(dir) {
  const files = {};
  const walk = (d) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else files[relative(dir, p).split(sep).join('/')] = new Uint8Array(readFileSync(p));
    }
  };
  walk(dir);
  return { files, primary: 'saved_model.pb' };
}

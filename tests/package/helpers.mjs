// Shared by the package tests: they meet graphport as its users do, through the tarball
// `npm pack` makes, installed into an empty project in a temporary folder. Nothing here runs
// from the source tree except the reference exports (bindings/js/node.mjs) and the tools the
// repo already has (esbuild, tsc, the static server, Debian's Chromium).
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const CORPUS = join(REPO, '..', 'shared', 'corpus');
export const EXAMPLES = fileURLToPath(new URL('./examples/', import.meta.url));
export const TSC = join(REPO, 'node_modules', '.bin', 'tsc');
export const ESBUILD_PACKAGE = join(REPO, 'node_modules', 'esbuild');
export const REPO_NODE_ENTRY = join(REPO, 'bindings', 'js', 'node.mjs');
export const PACKAGE = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));

// Missing inputs fail loudly: a run that quietly skipped its data would prove nothing.
if (!existsSync(join(CORPUS, 'tf'))) {
  throw new Error(
    `graphport package tests: the test corpus is missing. They read real models from ` +
      `../shared/corpus relative to the repo root, i.e. ${CORPUS}; restore it there.`,
  );
}
for (const file of ['graphport_node.wasm', 'graphport_web.wasm']) {
  if (!existsSync(join(REPO, 'bindings', 'js', 'wasm', file))) {
    throw new Error(
      `graphport package tests: bindings/js/wasm/${file} is missing; ` +
        'build it with `bash scripts/build.sh wasm`.',
    );
  }
}

export const corpusPath = (rel) => join(CORPUS, ...rel.split('/'));

// Real graphs of the three kinds, with export options that exercise different writers.
export const CASES = [
  { rel: 'tf/serving/session_bundle/testdata/half_plus_two/00000123/export.meta', nodes: 57,
    options: { asText: true, clearDevices: true } },
  { rel: 'tf/serving/servables/tensorflow/testdata/saved_model_half_plus_two_tf2_cpu/00000123/saved_model.pb',
    nodes: 29, options: { to: 'saved-model', stripDefaultAttrs: true, saveDebugInfo: true } },
  { rel: 'tfjs/tfjs-to-tf/simple/frozen_graph.pb', nodes: 6, options: { to: 'meta-graph' } },
];

// The environment of a user's shell: no NODE_PATH (Debian's emscripten needs one, users do
// not), no npm_* variables from an enclosing `npm run`, and no node_modules/.bin of this repo on
// the PATH, so nothing can be found except through the installed package.
export function userEnv(extra = {}) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key === 'NODE_PATH' || key === 'NODE_OPTIONS' || key.toLowerCase().startsWith('npm_')) continue;
    env[key] = value;
  }
  env.PATH = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((p) => p && !p.includes(`node_modules${sep}.bin`))
    .join(delimiter);
  return { ...env, ...extra };
}

// Runs a command, returns {status, stdout, stderr}; never throws on a non-zero exit.
export function run(cmd, args, { cwd, env = userEnv(), input, timeout = 60_000 } = {}) {
  const r = spawnSync(cmd, args, { cwd, env, input, encoding: 'utf8', timeout, maxBuffer: 64 << 20 });
  if (r.error) throw r.error;
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

// Runs a command that must succeed; its output on failure names the command.
export function runOk(cmd, args, options) {
  const r = run(cmd, args, options);
  assert.equal(r.status, 0,
    `${cmd} ${args.join(' ')} failed (status ${r.status}, signal ${r.signal}):\n${r.stdout}\n${r.stderr}`);
  return r;
}

// A temporary folder, removed when the test process exits (whichever hook or test made it).
export function tempDir(label) {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `graphport-${label}-`)));
  if (!process.env.GRAPHPORT_KEEP_TEMP) process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// `npm pack` of the repo into `dest`: {tarball, files: [{path, size, mode}]}. The npm cache
// is private to the folder, so the run neither reads nor fills the user's.
export function packRepo(dest) {
  const env = userEnv({ npm_config_cache: join(dest, '.npm-cache') });
  const r = runOk('npm', ['pack', REPO, '--pack-destination', dest, '--json'], { cwd: dest, env });
  const [info] = JSON.parse(r.stdout);
  return { tarball: join(dest, info.filename), files: info.files, info, stderr: r.stderr };
}

// A fresh project in a temporary folder with the packed graphport installed, the way a user
// gets it: `npm init -y`, then `npm install <tarball> --offline` (graphport has no runtime
// dependencies, so nothing comes from a registry). Returns {root, app, tarball, files}.
export function installPackage(label) {
  const root = tempDir(label);
  const packed = packRepo(root);
  const app = join(root, 'app');
  const env = userEnv({ npm_config_cache: join(root, '.npm-cache') });
  runOk('mkdir', ['-p', app]);
  runOk('npm', ['init', '-y'], { cwd: app, env });
  runOk('npm', ['install', packed.tarball, '--offline', '--no-audit', '--no-fund'], { cwd: app, env });
  assert.ok(existsSync(join(app, 'node_modules', 'graphport', 'package.json')), 'graphport was not installed');
  return { root, app, env, ...packed };
}

export const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

// Files as a comparable record: names, sizes and hashes (bytes stay out of assertion diffs).
export const describeFiles = (files) =>
  files.map(({ name, bytes }) => ({ name, size: bytes.length, sha256: sha256(bytes) }));

// What the repo's own Node entry exports for a corpus file: the reference every installed or
// bundled copy must match byte for byte.
let repoApi = null;
export async function repoExport(rel, options) {
  if (!repoApi) repoApi = import(REPO_NODE_ENTRY).then((m) => m.default());
  const gp = await repoApi;
  const model = gp.loadFile(corpusPath(rel));
  try {
    return { files: model.export(options).files, summary: model.inspect() };
  } finally {
    model.delete();
  }
}

// esbuild, as a user of the installed package would call it: the repo's copy, run with the
// app folder as its working directory.
export async function esbuild() {
  return import(join(ESBUILD_PACKAGE, 'lib', 'main.js')).then((m) => m.default ?? m);
}

export function execText(cmd, args, options) {
  return execFileSync(cmd, args, { encoding: 'utf8', ...options });
}

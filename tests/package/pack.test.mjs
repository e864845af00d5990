// What `npm pack` puts in the tarball: everything the entries need (the WebAssembly builds,
// the JS layer, the types, the CLI, the README) and nothing else (no sources, tests, builds or
// dependencies).
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { test } from 'node:test';

import { PACKAGE, REPO, packRepo, tempDir } from './helpers.mjs';

const packed = packRepo(tempDir('pack'));
const paths = packed.files.map((f) => f.path).sort();
const byPath = new Map(packed.files.map((f) => [f.path, f]));

const REQUIRED = [
  'package.json',
  'README.md',
  'LICENSE',
  'bindings/js/options.d.ts',
  'bindings/js/error_codes.d.ts',
  'bindings/js/results.d.ts',
  'bindings/js/results_common.d.ts',
  'bindings/js/results_tensorflow.d.ts',
  'bindings/js/results_megengine.d.ts',
  'bindings/js/results_tfjs.d.ts',
  'bindings/js/node.mjs',
  'bindings/js/browser.mjs',
  'bindings/js/index.cjs',
  'bindings/js/cli.mjs',
  'bindings/js/api.mjs',
  'bindings/js/instantiate.mjs',
  'bindings/js/index.d.ts',
  'bindings/js/node.d.mts',
  'bindings/js/index.d.cts',
  'bindings/js/wasm/graphport_node.cjs',
  'bindings/js/wasm/graphport_web.mjs',
  'bindings/js/wasm/graphport_web.wasm',
];

test('the tarball holds the entries, the WebAssembly module, the types, the CLI and the README', () => {
  for (const path of REQUIRED) assert.ok(byPath.has(path), `${path} is not in the tarball: ${paths.join(', ')}`);
  // One module for both loaders (node.mjs and browser.mjs load the same .wasm).
  const wasm = paths.filter((p) => p.endsWith('.wasm'));
  assert.deepEqual(wasm, ['bindings/js/wasm/graphport_web.wasm'], 'the .wasm is shipped once');
  assert.ok(byPath.get(wasm[0]).size > 100_000, `${wasm[0]} is suspiciously small`);
});

test('the tarball holds nothing else: no sources, tests, builds or dependencies', () => {
  const allowed = (p) => p === 'package.json' || /^(README|LICEN[CS]E|NOTICE)(\.md|\.txt)?$/i.test(p) ||
    /^bindings\/js\/[a-z_]+\.(mjs|cjs|d\.ts|d\.mts|d\.cts)$/.test(p) ||
    /^bindings\/js\/wasm\/graphport_(node\.cjs|web\.mjs|web\.wasm)$/.test(p);
  assert.deepEqual(paths.filter((p) => !allowed(p)), [], 'unexpected files in the tarball');
  for (const prefix of ['src/', 'tests/', 'build/', 'node_modules/', 'bench/', 'scripts/', 'web/', 'bindings/wasm/']) {
    assert.deepEqual(paths.filter((p) => p.startsWith(prefix)), [], `${prefix} leaked into the tarball`);
  }
  assert.deepEqual(paths.filter((p) => /\.(map|cc|h|proto|fbs|test\.mjs)$/.test(p)), []);
});

test('every entry point package.json names is in the tarball', () => {
  const targets = [];
  const walk = (value) => {
    if (typeof value === 'string') targets.push(value);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(PACKAGE.exports);
  walk(PACKAGE.bin);
  for (const field of ['main', 'browser', 'types', 'module']) walk(PACKAGE[field]);
  assert.ok(targets.length >= 6);
  for (const target of targets) {
    const path = posix.normalize(target);
    assert.ok(byPath.has(path), `package.json names ${target}, which is not in the tarball`);
  }
});

test('every relative import of a shipped script resolves to a shipped file', () => {
  const scripts = paths.filter((p) => /\.(mjs|cjs|d\.ts|d\.mts|d\.cts)$/.test(p));
  // import/export ... from './x', import('./x'), require('./x'), new URL('./x', import.meta.url)
  const pattern = /(?:from\s*|import\s*\(\s*|require\s*\(\s*|new URL\(\s*)['"](\.\.?\/[^'"]+)['"]/g;
  let checked = 0;
  for (const script of scripts) {
    const text = readFileSync(`${REPO}/${script}`, 'utf8');
    for (const [, spec] of text.matchAll(pattern)) {
      let target = posix.join(posix.dirname(script), spec);
      // A type file names its siblings by their .js twin (./index.js is index.d.ts).
      if (/\.d\.[mc]?ts$/.test(script)) target = target.replace(/\.js$/, '.d.ts');
      assert.ok(byPath.has(target), `${script} refers to ${spec} (${target}), which is not in the tarball`);
      checked += 1;
    }
  }
  assert.ok(checked >= 10, `only ${checked} relative references found: is the pattern still right?`);
});

test('the CLI is executable with a node shebang, and npm pack warns about nothing', () => {
  const bin = posix.normalize(PACKAGE.bin.graphport);
  assert.ok(byPath.get(bin).mode & 0o111, `${bin} is not executable in the tarball`);
  assert.match(readFileSync(`${REPO}/${bin}`, 'utf8'), /^#!\/usr\/bin\/env node\n/);
  assert.doesNotMatch(packed.stderr, /warn/i, packed.stderr);
});

test('the package is self-contained: no runtime dependencies, a Node engine, ESM by default', (t) => {
  assert.equal(PACKAGE.dependencies, undefined);
  assert.equal(PACKAGE.peerDependencies, undefined);
  assert.equal(PACKAGE.type, 'module');
  assert.match(PACKAGE.engines.node, />=\s*\d+/);
  // Reported for the record (see the README for sizes): the tarball and what it unpacks to.
  t.diagnostic(`tarball ${packed.info.size} bytes, unpacked ${packed.info.unpackedSize} bytes, ${paths.length} files`);
});

test('packing a checkout without the WebAssembly module refuses, saying how to build it', (t) => {
  // What a fresh clone is: the committed files only, so no bindings/js/wasm/.
  const dir = tempDir('fresh-clone');
  execFileSync('git', ['-C', REPO, 'archive', '--format=tar', '-o', join(dir, 'head.tar'), 'HEAD']);
  const tree = join(dir, 'tree');
  mkdirSync(tree);
  execFileSync('tar', ['-xf', join(dir, 'head.tar'), '-C', tree]);
  assert.ok(!existsSync(join(tree, 'bindings', 'js', 'wasm')), 'a clone has no built module');
  const r = spawnSync('npm', ['pack', '--dry-run'], {
    cwd: tree, encoding: 'utf8', env: { ...process.env, GRAPHPORT_PREPACK_BUILD: '0' },
  });
  assert.notEqual(r.status, 0, 'npm pack went on without the module');
  assert.match(r.stderr, /bindings\/js\/wasm\/graphport_node\.cjs is missing: .*scripts\/build\.sh wasm/);
  assert.ok(existsSync(join(tree, 'LICENSE')), 'the licence package.json names is committed');
});

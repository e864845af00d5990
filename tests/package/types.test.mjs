// The installed package's types, as strict TypeScript consumers meet them: the Node ESM entry
// (module node16), a bundler's resolution (moduleResolution bundler, DOM lib) and the CommonJS
// entry (a .cts file). They must compile without errors with `tsc --noEmit`, resolving
// graphport's types from node_modules; a wrong or misspelt option must not compile.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { TSC, installPackage, run } from './helpers.mjs';

const FIXTURES = fileURLToPath(new URL('./fixtures/types/', import.meta.url));
const pkg = installPackage('types');
const dir = join(pkg.app, 'ts');
mkdirSync(dir);
for (const file of readdirSync(FIXTURES)) copyFileSync(join(FIXTURES, file), join(dir, file));
// The consumer project is ESM, as a new Node project in TypeScript usually is; the .cts file
// is CommonJS whatever the project's type.
writeFileSync(join(dir, 'package.json'), JSON.stringify({ private: true, type: 'module' }));

const STRICT = {
  strict: true,
  noEmit: true,
  target: 'es2022',
  noUnusedLocals: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  // No @types/node: the package's types must not need it (nor the DOM lib, on Node).
  types: [],
};
const NODE16 = { ...STRICT, module: 'node16', moduleResolution: 'node16', lib: ['es2022', 'esnext.disposable'] };
const BUNDLER = { ...STRICT, module: 'esnext', moduleResolution: 'bundler', lib: ['es2022', 'dom', 'esnext.disposable'] };

// Type-checks `files` under `options`; returns tsc's result and the files it read.
function tsc(name, options, files) {
  writeFileSync(join(dir, `tsconfig.${name}.json`), JSON.stringify({ compilerOptions: options, files }, null, 2));
  const r = run(TSC, ['-p', `tsconfig.${name}.json`, '--listFiles'], { cwd: dir });
  const read = r.stdout.split('\n').filter((line) => line.includes('node_modules/graphport/'))
    .map((line) => line.slice(line.indexOf('node_modules/graphport/') + 'node_modules/graphport/'.length).trim());
  const errors = r.stdout.split('\n').filter((line) => /error TS\d+/.test(line));
  return { ...r, read, errors };
}

function assertCompiles(r) {
  assert.deepEqual(r.errors, [], `tsc reported errors:\n${r.stdout}\n${r.stderr}`);
  assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
}

test('a strict ESM consumer (module node16) compiles against the Node entry types', () => {
  const r = tsc('node16', NODE16, ['node-esm.ts']);
  assertCompiles(r);
  assert.deepEqual(r.read.sort(), ['bindings/js/index.d.ts', 'bindings/js/node.d.mts', 'bindings/js/options.d.ts']);
});

test('a strict consumer with moduleResolution bundler compiles against the shared types', () => {
  const r = tsc('bundler', BUNDLER, ['bundler.ts']);
  assertCompiles(r);
  assert.deepEqual(r.read.sort(), ['bindings/js/index.d.ts', 'bindings/js/options.d.ts']);
});

test('a strict CommonJS consumer (.cts, module node16) compiles against the CommonJS entry types', () => {
  const r = tsc('commonjs', { ...NODE16, lib: ['es2022'] }, ['commonjs.cts']);
  assertCompiles(r);
  assert.deepEqual(r.read.sort(), ['bindings/js/index.d.cts', 'bindings/js/index.d.ts', 'bindings/js/options.d.ts']);
});

test('an export option of the wrong type does not compile', () => {
  for (const [name, options] of [['wrong-node16', NODE16], ['wrong-bundler', BUNDLER]]) {
    const r = tsc(name, options, ['wrong-option.ts']);
    assert.notEqual(r.status, 0, `asText: 'yes' compiled under ${name}`);
    assert.equal(r.errors.length, 1, r.stdout);
    assert.match(r.errors[0], /^wrong-option\.ts\(6,\d+\): error TS2322: Type 'string' is not assignable to type 'boolean/);
  }
});

test('a misspelt export option does not compile', () => {
  const r = tsc('unknown', NODE16, ['unknown-option.ts']);
  assert.notEqual(r.status, 0, 'clearDevice: true compiled');
  assert.equal(r.errors.length, 1, r.stdout);
  assert.match(r.errors[0], /^unknown-option\.ts\(6,\d+\): error TS(2353|2561): .*'clearDevice'/);
});

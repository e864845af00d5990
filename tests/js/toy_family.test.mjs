// The toy family of the test tree (tests/cpp/toy), linked into a WebAssembly module of its
// own by the test build (tests/wasm), shows up through the package's unchanged JS: gp.load,
// gp.optionSchema, and the Node CLI's inspect, export, --help and schema. The package's JS is
// copied beside that module, so nothing in bindings/ is edited or switched for it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { REPO } from './helpers.mjs';

const TOY_MODULE = join(REPO, 'build', 'wasm', 'toy-module');
if (!existsSync(join(TOY_MODULE, 'graphport_node.wasm'))) {
  throw new Error(`the toy module is missing from ${TOY_MODULE}: build it with \`bash scripts/build.sh wasm\``);
}

const dir = mkdtempSync(join(tmpdir(), 'graphport-toy-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const pkg = join(dir, 'js');
mkdirSync(join(pkg, 'wasm'), { recursive: true });
for (const name of readdirSync(join(REPO, 'bindings', 'js'))) {
  if (name.endsWith('.mjs')) copyFileSync(join(REPO, 'bindings', 'js', name), join(pkg, name));
}
// node.mjs loads the shared .wasm under its browser name; the toy link has one .wasm only.
copyFileSync(join(TOY_MODULE, 'graphport_node.cjs'), join(pkg, 'wasm', 'graphport_node.cjs'));
copyFileSync(join(TOY_MODULE, 'graphport_node.wasm'), join(pkg, 'wasm', 'graphport_web.wasm'));
const words = join(dir, 'words.txt');
writeFileSync(words, 'TOY1\nhello\nworld\n');

function cli(...args) {
  const run = spawnSync(process.execPath, [join(pkg, 'cli.mjs'), ...args], { encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

test('gp.load reads a toy file and gp.optionSchema lists the toy family', async () => {
  const { default: createGraphport } = await import(pathToFileURL(join(pkg, 'node.mjs')).href);
  const gp = await createGraphport();
  const model = gp.load(new TextEncoder().encode('TOY1\nsmall\nwords\n'));
  try {
    assert.equal(model.family, 'toy');
    assert.deepEqual(model.inspect().words, ['small', 'words']);
    const { files } = model.export({ shout: true });
    assert.equal(new TextDecoder().decode(files[0].bytes), 'TOY1\nSMALL\nWORDS\n');
  } finally {
    model.delete();
  }
  const schema = gp.optionSchema('toy');
  assert.equal(schema.export.options[0].name, 'shout');
  assert.ok(gp.optionSchema().some((f) => f.family === 'tensorflow'), 'the real families stay');
});

test('the Node CLI inspects, exports, lists --shout in --help and prints the toy schema', () => {
  const inspected = cli('inspect', words);
  assert.equal(inspected.status, 0, inspected.stderr);
  assert.match(inspected.stdout, /^words: {7}2$/m);
  const out = join(dir, 'out');
  mkdirSync(out);
  const exported = cli('export', words, '-o', join(out, 'ignored'), '--shout');
  assert.equal(exported.status, 0, exported.stderr);
  assert.equal(readFileSync(join(out, 'words.txt'), 'utf8'), 'TOY1\nHELLO\nWORLD\n');
  assert.match(cli('--help').stdout, /--shout/);
  const schema = cli('schema', 'toy');
  assert.equal(schema.status, 0, schema.stderr);
  assert.equal(JSON.parse(schema.stdout).export.options[0].seed, 'shout_words');
});

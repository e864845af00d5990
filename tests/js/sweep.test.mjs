// The sweep on the WebAssembly module: every corpus file, truncated at every byte (at 2,000
// offsets for files over 20 KB) and with 500 seeded bit flips, loads, inspects and exports,
// or fails with a GraphportError whose code is not INTERNAL. Afterwards the same instance
// loads a good file to the same summary, and no model handle is left alive. The outcome
// table is printed (node --test shows it as a diagnostic).
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { test } from 'node:test';

import { CORPUS, checkNoLeaksAtEnd, graphport, prng, readBytes } from './helpers.mjs';

const gp = await graphport();
checkNoLeaksAtEnd(gp);

const EVERY_BYTE_UP_TO = 20 * 1024;
const OFFSETS_OF_BIG_FILES = 2000;
const BIT_FLIPS = 500;

function corpusFiles() {
  const out = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else out.push(relative(CORPUS, p).split(sep).join('/'));
    }
  };
  walk(CORPUS);
  return out.sort();
}

// FNV-1a of the name: each file its own seed, the same on every run.
function seedOf(name) {
  let h = 0x811c9dc5;
  for (const c of Buffer.from(name)) h = Math.imul(h ^ c, 0x01000193) >>> 0;
  return h;
}

// Each family's exports: two encodings or formats, so both writers of each are swept.
const EXPORTS = {
  tensorflow: [{ to: 'meta-graph' }, { to: 'saved-model', asText: true }],
  megengine: [{}, { dumpFormat: 'FBS', compatOlderVersion: '8.14' }],
};

// One copy through load, inspect and export; its outcome ("ok" or the error code).
function exercise(bytes, failures, label) {
  let model = null;
  try {
    model = gp.load(bytes, { name: 'copy' });
    model.inspect();
    for (const options of EXPORTS[model.family] ?? [{}]) model.export(options);
    return 'ok';
  } catch (e) {
    if (!(e instanceof gp.GraphportError)) {
      failures.push(`${label}: not a GraphportError: ${e?.constructor?.name}: ${e?.message}`);
      return 'not a GraphportError';
    }
    if (e.code === 'INTERNAL') failures.push(`${label}: INTERNAL: ${e.message}`);
    return e.code;
  } finally {
    model?.delete();
  }
}

const table = {};

for (const rel of corpusFiles()) {
  test(`sweep: ${rel}`, (t) => {
    const bytes = readBytes(join(CORPUS, ...rel.split('/')));
    const live = gp.liveModels();
    const failures = [];
    const counts = {};
    const count = (result) => {
      counts[result] = (counts[result] ?? 0) + 1;
      table[result] = (table[result] ?? 0) + 1;
    };
    let before = null;
    try {
      before = gp.load(bytes, { name: rel });
    } catch {
      // Not every corpus file is a graph.
    }
    const summary = before ? JSON.stringify(before.inspect()) : null;
    before?.delete();

    const step = bytes.length <= EVERY_BYTE_UP_TO ? 1 : Math.floor(bytes.length / OFFSETS_OF_BIG_FILES);
    for (let n = 0; n < bytes.length; n += step) {
      count(exercise(bytes.subarray(0, n), failures, `cut at ${n}`));
    }
    const next = prng(seedOf(rel));
    for (let i = 0; i < BIT_FLIPS && bytes.length > 0; i += 1) {
      const copy = bytes.slice();
      const bit = Math.floor(next() * bytes.length * 8);
      copy[bit >> 3] ^= 1 << (bit & 7);
      count(exercise(copy, failures, `bit ${bit} flipped`));
    }
    assert.deepEqual(failures.slice(0, 10), []);
    assert.equal(gp.liveModels(), live, 'a model handle leaked');
    if (summary !== null) {
      const again = gp.load(bytes, { name: rel });
      try {
        assert.equal(JSON.stringify(again.inspect()), summary, 'the instance still loads it the same');
      } finally {
        again.delete();
      }
    }
    t.diagnostic(`${rel}: ${JSON.stringify(counts)}`);
  });
}

test('sweep: the outcome table of the corpus', (t) => {
  t.diagnostic(`sweep table (corpus, wasm): ${JSON.stringify(table)}`);
  assert.ok(Object.keys(table).length > 0);
  assert.equal(table['not a GraphportError'] ?? 0, 0);
});

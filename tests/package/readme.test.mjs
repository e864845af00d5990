// The README's JavaScript examples are the files in tests/package/examples/, which the other
// package tests run (node.test.mjs: the Node example; browser.test.mjs: the browser example and
// its build script). This test checks the README shows each file verbatim, as a fenced code
// block, so the documentation cannot drift from what is tested.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { EXAMPLES, REPO } from './helpers.mjs';

const README = readFileSync(join(REPO, 'README.md'), 'utf8');

// The body of every fenced code block in the README (``` or ~~~, any info string).
const blocks = [...README.matchAll(/^(```|~~~)[^\n]*\n([\s\S]*?)^\1[ \t]*$/gm)].map((m) => m[2].trimEnd());

const examples = readdirSync(EXAMPLES).sort();

test('the examples folder holds the Node and the browser example', () => {
  for (const file of ['node-example.mjs', 'browser-example.mjs', 'browser-example.html', 'browser-build.sh']) {
    assert.ok(examples.includes(file), `tests/package/examples/${file} is missing`);
  }
});

for (const file of examples) {
  test(`README.md shows tests/package/examples/${file} verbatim`, () => {
    const code = readFileSync(join(EXAMPLES, file), 'utf8').trimEnd();
    assert.ok(blocks.includes(code),
      `README.md has no code block equal to tests/package/examples/${file}; paste it in:\n\n${code}\n`);
  });
}

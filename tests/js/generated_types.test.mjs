// bindings/js/options.d.ts and the README's option tables are generated from the families'
// option schemas: each must be what its generator makes of this build's schemas, or the
// published types and the documentation lie about the options.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

import createGraphport from '../../bindings/js/node.mjs';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const gp = await createGraphport();

test('options.d.ts is what scripts/gen-types.mjs makes of the current schemas', () => {
  const r = spawnSync(process.execPath, ['scripts/gen-types.mjs', '--check'], { cwd: repo, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
});

test('every option of every family is in options.d.ts with its seed name', () => {
  const types = readFileSync(`${repo}bindings/js/options.d.ts`, 'utf8');
  for (const family of gp.optionSchema()) {
    for (const option of [...family.load.options, ...family.export.options]) {
      assert.match(types, new RegExp(`\\n  ${option.name}\\?: .* \\| null;\\n`), `${family.family}.${option.name}`);
      if (option.seed) assert.ok(types.includes(`/** ${option.seed}: `), `${option.seed} is named`);
    }
  }
});

test('the README\'s option tables are what scripts/gen-option-tables.mjs makes of the schemas', () => {
  const r = spawnSync(process.execPath, ['scripts/gen-option-tables.mjs', '--check'], { cwd: repo, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
});

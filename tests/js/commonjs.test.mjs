// The CommonJS entry (bindings/js/index.cjs, the package's "require" condition) resolves to a
// memoized factory that returns the same API as the ESM entry. A child `node` runs the fixture
// so require() is exercised for real, in a process of its own.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import {
  CJS_ENTRY, GRAPHS, REPO, checkNoLeaksAtEnd, graphport, leakCheckedTest, readBytes, withModel,
} from './helpers.mjs';

const FIXTURE = fileURLToPath(new URL('./fixtures/require_api.cjs', import.meta.url));
const gp = await graphport();
checkNoLeaksAtEnd(gp);

leakCheckedTest(gp, 'the package resolves require("graphport") to bindings/js/index.cjs', () => {
  const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
  assert.equal(pkg.exports['.'].node.require, './bindings/js/index.cjs');
  assert.equal(pkg.main, './bindings/js/index.cjs');
  // Resolve the package by its name from inside the repo, as a dependent would.
  const require = createRequire(join(REPO, 'package.json'));
  assert.equal(require.resolve(pkg.name), CJS_ENTRY);
});

leakCheckedTest(gp, 'require(index.cjs) is a memoized factory giving the ESM API', () => {
  const g = GRAPHS.find((x) => x.rel.includes('saved_model_half_plus_two_cpu/'));
  const stdout = execFileSync(process.execPath, [FIXTURE, CJS_ENTRY, g.path], { cwd: REPO, encoding: 'utf8' });
  const seen = JSON.parse(stdout);
  assert.equal(seen.typeofFactory, 'function');
  assert.equal(seen.defaultIsFactory, true);
  assert.equal(seen.namedIsFactory, true);
  assert.equal(seen.samePromise, true, 'two calls give the same promise');
  assert.equal(seen.sameApi, true, 'and the same API object');
  assert.equal(seen.sameAsEsm, true, 'the CommonJS and ESM entries share one instance');
  assert.deepEqual(seen.apiKeys, Object.keys(gp).sort());
  assert.equal(seen.format, 'saved-model');
  assert.equal(seen.nodeCount, g.nodes);
  // The same bytes as this process's ESM API makes of the same file.
  const expected = withModel(gp, readBytes(g.path), {}, (m) => m.export({ to: 'saved-model', asText: true }));
  assert.deepEqual(seen.files, expected.files.map((f) => ({
    name: f.name,
    size: f.bytes.length,
    sha256: createHash('sha256').update(f.bytes).digest('hex'),
  })));
  assert.equal(seen.files[0].name, 'saved_model.pbtxt');
  assert.deepEqual(seen.info, expected.info);
  // Errors are GraphportErrors of that instance, as in ESM.
  let esmError = null;
  try {
    gp.load(new Uint8Array(0), { name: 'empty' });
  } catch (e) {
    esmError = { isGraphportError: e instanceof gp.GraphportError, code: e.code, message: e.message };
  }
  assert.deepEqual(seen.error, esmError);
  assert.equal(seen.error.code, 'EMPTY_INPUT');
  assert.equal(seen.liveModels, 0);
});

// The benchmarks' raw instance (bench/wasm_util.mjs) calls the module's exports without the JS
// API around them, so a change to their signature breaks the benchmarks and nothing else: this
// test runs that path on a corpus model and checks it writes what the API writes.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { rawExport, rawInstance, rawLoad } from '../../bench/wasm_util.mjs';
import { corpusPath, exportBytes, graphport, readBytes, withModel } from './helpers.mjs';

const MODEL = corpusPath('tf/serving/session_bundle/testdata/half_plus_two/00000123/export.meta');

test('the benchmarks\' raw load and export count the bytes the JS API writes', async () => {
  const gp = await graphport();
  const input = readBytes(MODEL);
  for (const options of [{ to: 'graph-def' }, { to: 'meta-graph', asText: true }]) {
    const { raw } = await rawInstance();
    const model = rawLoad(raw, input, 'export.meta');
    try {
      const counted = rawExport(model, options);
      const expected = withModel(gp, input, { name: 'export.meta' }, (m) => exportBytes(m, options));
      assert.equal(counted.files, 1);
      assert.equal(counted.bytes, expected.length, JSON.stringify(options));
    } finally {
      model.delete();
    }
  }
});

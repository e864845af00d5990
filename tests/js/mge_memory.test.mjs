// MegEngine in WebAssembly holds a model once: tensor values are views into the loaded bytes,
// never copies, so a model of 64 MiB of values grows the heap by less than 1.3x its size
// through load and inspect (issue 10's heap target). The model is built here (FBS_V2, two
// ImmutableTensor operators), with the operator's registration taken from a corpus re-dump.
import assert from 'node:assert/strict';

import {
  CORPUS, checkNoLeaksAtEnd, graphport, leakCheckedTest, readBytes, withModel,
} from './helpers.mjs';
import { mgeModelV2 } from './mge_flatbuffer.mjs';
import { immutableTensorRegistration } from './mge_test_models.mjs';

const MiB = 1 << 20;
const gp = await graphport();
checkNoLeaksAtEnd(gp);

const holder = immutableTensorRegistration(gp, readBytes, CORPUS);
const TENSORS = [
  { name: 'w_big', bytes: 40 * MiB },
  { name: 'w_small', bytes: 24 * MiB },
].map((t, k) => ({ ...t, shape: [t.bytes / 4], fill: (i) => (i * 7 + k) & 0xff }));
const MODEL = mgeModelV2(holder, TENSORS);
const VALUE_BYTES = TENSORS.reduce((n, t) => n + t.bytes, 0);

leakCheckedTest(gp, 'a model of 64 MiB of tensor values: heap growth through load and inspect under 1.3x the model', (t) => {
  const before = gp.heapBytes();
  withModel(gp, MODEL, {}, (model) => {
    const loaded = gp.heapBytes();
    const summary = model.inspect();
    const inspected = gp.heapBytes();
    assert.equal(summary.format, 'mge-fbs-v2');
    assert.deepEqual(summary.counts.find(([label]) => label === 'valueBytes'), ['valueBytes', VALUE_BYTES]);
    assert.deepEqual(summary.megengine.operators.map((o) => o.tensors[0].valueBytes),
      TENSORS.map((t) => t.bytes));
    const limit = 1.3 * MODEL.length;
    t.diagnostic(`heap growth: ${((loaded - before) / MODEL.length).toFixed(2)}x the model after load, ` +
      `${((inspected - before) / MODEL.length).toFixed(2)}x after inspect`);
    assert.ok(loaded - before < limit,
      `load grew the heap by ${((loaded - before) / MiB).toFixed(1)} MiB for a ${(MODEL.length / MiB).toFixed(1)} MiB model`);
    assert.ok(inspected - before < limit,
      `load and inspect grew the heap by ${((inspected - before) / MiB).toFixed(1)} MiB for a ${(MODEL.length / MiB).toFixed(1)} MiB model`);
  });
});

leakCheckedTest(gp, 'an export to a sink hands its values over in chunks of at most 1 MiB, as the sink contract says', () => {
  const tensors = [{ name: 'w', bytes: 3 * MiB + 12, shape: [(3 * MiB + 12) / 4], fill: (i) => (i * 13) & 0xff }];
  withModel(gp, mgeModelV2(holder, tensors), {}, (model) => {
    const whole = model.export({ dumpFormat: 'FBS_V2' }).files[0].bytes;
    const chunks = [];
    model.exportTo({ dumpFormat: 'FBS_V2' }, {
      open() {
        return { write(chunk) { chunks.push(chunk.slice()); }, close() {} };
      },
    });
    assert.ok(chunks.every((c) => c.length <= MiB), `chunks of ${chunks.map((c) => c.length).join(', ')} bytes`);
    const joined = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
    let at = 0;
    for (const c of chunks) { joined.set(c, at); at += c.length; }
    assert.deepEqual(joined, whole);
  });
});

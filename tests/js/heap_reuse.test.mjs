// A model's memory is reused by the next one: a page that loads, inspects and exports a
// graph, deletes it and loads another of the same size must not grow the WebAssembly heap
// again (it never shrinks). Tables made once per process by the first export (the built-in
// op list) would otherwise sit just above the first model and split the space it leaves.
// Its own file: node:test runs each file in a fresh process, so the first export of this
// module instance happens here.
import assert from 'node:assert/strict';

import { checkNoLeaksAtEnd, graphport, leakCheckedTest, withModel } from './helpers.mjs';
import { weightsGraphBytes } from './wire_writer.mjs';

const gp = await graphport();
checkNoLeaksAtEnd(gp);

const MiB = 1 << 20;

leakCheckedTest(gp, 'a second model of the same size fits where the first one was', () => {
  // Larger than the heap's start (16 MiB), so the first load grows it.
  const graph = weightsGraphBytes(Array(48).fill(MiB));
  const round = () => withModel(gp, graph.bytes, { name: 'weights.pb' }, (model) => {
    assert.equal(model.inspect().nodeCount, 48);
    const out = model.export({ to: 'graph-def', clearDevices: true });
    assert.equal(out.files[0].bytes.length, graph.size);
  });
  round();
  const afterFirst = gp.heapBytes();
  for (let i = 0; i < 3; ++i) round();
  assert.equal(gp.heapBytes(), afterFirst,
    `the heap grew from ${afterFirst / MiB} to ${gp.heapBytes() / MiB} MiB for models of ` +
    `${(graph.size / MiB).toFixed(1)} MiB`);
});

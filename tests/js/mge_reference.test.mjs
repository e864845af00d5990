// graphport's MegEngine exports against MegEngine itself: tests/fixtures/mge_reference/ holds
// what MegEngine v1.13.4's Network.dump wrote (scripts/megengine-reference/, issue 33) for six
// inputs, the two corpus dumps, the optimizer's blocks model, MegEngine's own optimized dump
// of it (`again`: a re-dump, where loading reorders inputs and renumbers), and two CNNs as
// MegEngine writes them: `cnn` (a hybrid first ConvBias, channel-wise and dense convolutions, a
// pooling) and `multi` (three outputs, one read by another's chain; a group convolution, a
// convolution whose 6 output channels the layouts pad), with twelve option sets: the default
// optimization, FBS, FBS 8.14, the kwargs, optimize_for_inference off, the CPU layouts nchw44
// and nchw88, and each layout with a float16 kwarg. graphport's export of the same input with
// the same options must be the same bytes: all 72 are.
//
// A case whose export differs would list the parts that differ in cases.json's `gaps`
// (operators, priorities, metadata, outputs, originalIds, mgeVersion, varNames, varShapes,
// varDevices): those are checked to differ, so that a fix fails the test until its gap is
// struck off, and the others to be equal. None is listed now.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe } from 'node:test';

import {
  checkNoLeaksAtEnd, CORPUS, graphport, leakCheckedTest, readBytes, REPO, withModel,
} from './helpers.mjs';

const gp = await graphport();
checkNoLeaksAtEnd(gp);

const FIXTURES = join(REPO, 'tests', 'fixtures', 'mge_reference');
const CASES = JSON.parse(readFileSync(join(FIXTURES, 'cases.json'), 'utf8'));
assert.equal(CASES.inputs.length * CASES.optionSets.length, 72, 'the 72 reference dumps');

const inputBytes = (path) => readBytes(path.startsWith('corpus:')
  ? join(CORPUS, path.slice('corpus:'.length))
  : join(FIXTURES, path.slice('fixture:'.length)));

// A param as inspect() shows it, without `ambiguous` (which says whether the file's version
// tells its layout, and so follows mgeVersion).
const param = (p) => Object.fromEntries(Object.entries(p).filter(([key]) => key !== 'ambiguous'));

// The parts of a dump that are compared, each as JSON text.
function parts(summary) {
  const m = summary.megengine;
  const ops = m.operators;
  const ids = (list) => (list ?? []).map((v) => v.id);
  const vars = ops.flatMap((op) => op.outputs ?? []);
  return {
    operators: JSON.stringify(ops.map((op) => ({
      type: op.type,
      params: (op.params ?? []).map(param),
      inputs: ids(op.inputs),
      outputs: ids(op.outputs),
      tensors: op.tensors ?? [],
    }))),
    priorities: JSON.stringify(ops.map((op) => op.priority ?? null)),
    metadata: JSON.stringify(m.metadata ?? null),
    outputs: JSON.stringify((m.outputs ?? []).map((o) => o.id)),
    originalIds: JSON.stringify((m.outputs ?? []).map((o) => o.originalId ?? null)),
    mgeVersion: JSON.stringify(m.header.version),
    varNames: JSON.stringify(vars.map((v) => v.name ?? null)),
    varShapes: JSON.stringify(vars.map((v) => v.shape ?? null)),
    varDevices: JSON.stringify(vars.map((v) => [v.dtype ?? null, v.compNode ?? null])),
  };
}

describe('MegEngine exports against MegEngine v1.13.4', () => {
  for (const input of CASES.inputs) {
    for (const set of CASES.optionSets) {
      const gaps = new Set(CASES.gaps[`${input.name}.${set.name}`]);
      leakCheckedTest(gp, `${input.name}, ${set.name}`, () => {
        const referenceBytes = readBytes(join(FIXTURES, `${input.name}.${set.name}.mge`));
        const reference = withModel(gp, referenceBytes, { name: 'reference.mge' },
          (model) => parts(model.inspect()));
        assert.equal(reference.mgeVersion, '101304', 'written by MegEngine v1.13.4');
        const exported = withModel(gp, inputBytes(input.path), { name: `${input.name}.mge` },
          (model) => model.export(set.options).files[0].bytes);
        if (gaps.size === 0) {
          // Nothing left to differ: the very bytes MegEngine wrote.
          assert.deepEqual(exported, referenceBytes, 'byte for byte');
        }
        const ours = withModel(gp, exported, { name: 'ours.mge' }, (back) => parts(back.inspect()));
        for (const [part, text] of Object.entries(reference)) {
          if (gaps.has(part)) {
            assert.notEqual(ours[part], text, `${part} now equals MegEngine's: strike the gap off`);
          } else {
            assert.equal(ours[part], text, part);
          }
        }
      });
    }
  }
});

// Issue 32's pre-flight as a command: model.check() and `graphport check` in both CLIs run
// what the export would (freeze, optimize, unfuse) and write nothing; the report names each
// op the target cannot run. And an export of a TF.js model to a TensorFlow format says what
// TensorFlow's registry lacks (a warning line on stdout from both CLIs).
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import {
  REPO, assertGraphportError, checkNoLeaksAtEnd, corpusPath, graphport, leakCheckedTest, readBytes,
  requireNativeCli, runCli, tempDir, withModel,
} from './helpers.mjs';

const gp = await graphport();
checkNoLeaksAtEnd(gp);

const HALF_PLUS_TWO = corpusPath('tf/serving/servables/tensorflow/testdata/saved_model_half_plus_two_tf2_cpu/00000123');
const PRELU = corpusPath('tfjs/tfjs-to-tf/prelu');

function both(args) {
  requireNativeCli();
  return { native: runCli('native', args), node: runCli('node', args) };
}

leakCheckedTest(gp, 'check() of a SavedModel: frozen, it runs in TF.js; a signature with ParseExampleV2 does not', () => {
  const model = gp.loadFile(HALF_PLUS_TWO);
  try {
    const report = model.check({ target: 'tfjs' });
    assert.equal(report.target, 'tfjs');
    assert.equal(report.to, 'tfjs');
    assert.equal(report.runtime, 'TF.js 4.22');
    assert.equal(report.runs, true);
    assert.deepEqual(report.unsupportedOps, []);
    assert.equal(report.frozen.variables, 2);
    assert.deepEqual(model.check(), report, 'no options: target tfjs');
    assert.match(gp.checkText(report), /^frozen: signature serving_default, 2 variables made constants, \d+ calls inlined\nall \d+ ops \(\d+ nodes\) run in TF\.js 4\.22\n$/);

    const refused = model.check({ to: 'tfjs', signature: 'regress_x_to_y' });
    assert.equal(refused.runs, false);
    assert.equal(refused.exportFails, true);
    const parse = refused.unsupportedOps.find((o) => o.op === 'ParseExampleV2');
    assert.equal(parse.count, 1);
    assert.equal(parse.nodes.length, 1);
    // The export refuses what the check reports.
    assertGraphportError(gp, () => model.export({ to: 'tfjs', signature: 'regress_x_to_y' }), { codes: ['UNSUPPORTED'] });
    // freeze: false: the export refuses it, the check says so and names the unfrozen ops.
    const unfrozen = model.check({ freeze: false });
    assert.equal(unfrozen.runs, false);
    assert.equal(unfrozen.exportFails, true);
    assert.equal(unfrozen.exportError.code, 'INVALID_OPTION');
    const handles = unfrozen.unsupportedOps.find((o) => o.op === 'VarHandleOp');
    assert.deepEqual([handles.count, handles.nodes.length, handles.hint], [5, 5, 'freeze fixes this']);
    assertGraphportError(gp, () => model.export({ to: 'tfjs', freeze: false }), { codes: ['INVALID_OPTION'] });
    // Errors are the export's.
    assertGraphportError(gp, () => model.check({ target: 'tfjs', to: 'graph-def' }), { codes: ['INVALID_OPTION'] });
    assertGraphportError(gp, () => model.check({ target: 'onnx' }), { codes: ['INVALID_OPTION'] });
  } finally {
    model.delete();
  }
});

leakCheckedTest(gp, 'check() of a TF.js model for TensorFlow: _FusedMatMul until unfuseOps', () => {
  const model = gp.loadFile(PRELU);
  try {
    const report = model.check({ target: 'tensorflow', to: 'saved-model' });
    assert.equal(report.to, 'saved-model');
    assert.equal(report.runs, false);
    assert.equal(report.exportFails, false);
    assert.deepEqual(report.unsupportedOps.map(({ op, count, hint }) => ({ op, count, hint })),
      [{ op: '_FusedMatMul', count: 2, hint: 'unfuseOps fixes this' }]);
    const unfused = model.check({ target: 'tensorflow', unfuseOps: true });
    assert.equal(unfused.to, 'meta-graph');
    assert.equal(unfused.runs, true);
    assert.equal(unfused.unfusedOps.length, 2);
    assert.equal(model.check({ target: 'tfjs' }).runs, true);
    // The export without unfuseOps writes it and lists what TensorFlow lacks.
    const { info } = model.export({ to: 'graph-def' });
    assert.deepEqual(info.unsupportedOps, report.unsupportedOps);
    assert.equal(info.warnings.length, 1);
  } finally {
    model.delete();
  }
});

leakCheckedTest(gp, 'check() of a MegEngine model is UNSUPPORTED', () => {
  const mge = readdirSync(corpusPath('mge')).find((f) => f.endsWith('.mge'));
  withModel(gp, readBytes(corpusPath(`mge/${mge}`)), {}, (model) => {
    assertGraphportError(gp, () => model.check(), { codes: ['UNSUPPORTED'] });
  });
});

test('graphport check: the same report, text and exit status from both CLIs, and no file', (t) => {
  const cases = [
    { args: ['check', HALF_PLUS_TWO, '--target', 'tfjs'], status: 0, text: /run in TF\.js 4\.22\n$/ },
    { args: ['check', HALF_PLUS_TWO, '--signature', 'regress_x_to_y'], status: 3, text: /\n {2}ParseExampleV2 x1 \(/ },
    { args: ['check', PRELU, '--target', 'tensorflow'], status: 3, text: /^TensorFlow's op registry lacks 1 of the 5 ops \(10 nodes\):\n {2}_FusedMatMul x2 \([^)]+\): unfuseOps fixes this\nan export to: 'meta-graph' writes it with a warning: TensorFlow cannot import it\n$/ },
    { args: ['check', PRELU, '--target', 'tensorflow', '--unfuse-ops'], status: 0, text: /are in TensorFlow's op registry\n$/ },
    { args: ['check', PRELU, '--to', 'tfjs', '--json'], status: 0, json: true },
    { args: ['check', HALF_PLUS_TWO, '--no-freeze'], status: 3, text: /\n {2}VarHandleOp x5 \([^)]+\): freeze fixes this\n.*an export to: 'tfjs' fails with INVALID_OPTION: freeze: false with to: 'tfjs', but the graph holds /s },
  ];
  for (const c of cases) {
    const what = `graphport ${c.args.join(' ')}`;
    const { native, node } = both(c.args);
    assert.equal(native.status, c.status, `${what}: native exit (${native.stderr})`);
    assert.equal(node.status, c.status, `${what}: node exit (${node.stderr})`);
    assert.equal(node.stdout, native.stdout, what);
    assert.equal(native.stderr, '');
    assert.equal(node.stderr, '');
    if (c.json) assert.equal(JSON.parse(native.stdout).runs, true);
    else assert.match(native.stdout, c.text, what);
  }
  // Its errors are the export's, and usage errors name check's own.
  const errors = [
    { args: ['check', HALF_PLUS_TWO, '--target', 'onnx'], line: "graphport: error INVALID_OPTION: --target is tfjs or tensorflow, not 'onnx' (see graphport --help)\n" },
    { args: ['check', HALF_PLUS_TWO, '-o', 'x'], line: 'graphport: error INVALID_OPTION: check writes nothing: it takes no -o (see graphport --help)\n' },
    { args: ['export', HALF_PLUS_TWO, '--target', 'tfjs', '-o', 'x'], line: 'graphport: error INVALID_OPTION: --target goes with check (see graphport --help)\n' },
  ];
  for (const c of errors) {
    const { native, node } = both(c.args);
    assert.equal(native.status, 1);
    assert.equal(node.status, 1);
    assert.equal(node.stderr, native.stderr);
    if (typeof c.line === 'string') assert.equal(native.stderr, c.line);
    else assert.match(native.stderr, c.line);
  }
  assert.equal(existsSync(join(REPO, 'x')), false, 'the CLIs run in the repo: no x there');
});

test('export of a TF.js model to a TensorFlow format: a warning line on stdout from both CLIs', (t) => {
  const dir = tempDir(t);
  const { native, node } = both(['export', PRELU, '--to', 'graph-def', '-o', join(dir, 'g.pb')]);
  assert.equal(native.status, 0, native.stderr);
  assert.equal(node.status, 0, node.stderr);
  assert.equal(node.stdout, native.stdout);
  assert.match(native.stdout, /^graphport: warning: TensorFlow's op registry lacks _FusedMatMul x2 \([^)]+\): unfuseOps fixes this: TensorFlow cannot import this graph as written\n$/);
  // With --json the record holds it, and stdout stays JSON.
  const json = both(['export', PRELU, '--to', 'graph-def', '--json', '-o', join(dir, 'h.pb')]);
  assert.equal(JSON.parse(json.native.stdout).warnings.length, 1);
  assert.deepEqual(JSON.parse(json.node.stdout).warnings, JSON.parse(json.native.stdout).warnings);
  // With unfuseOps: nothing to say.
  const unfused = both(['export', PRELU, '--to', 'graph-def', '--unfuse-ops', '-o', join(dir, 'u.pb')]);
  assert.equal(unfused.native.stdout, '');
  assert.equal(unfused.node.stdout, '');
});

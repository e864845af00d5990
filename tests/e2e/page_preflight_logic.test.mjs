// The pre-flight's logic without a browser: how its checks take turns with the user's loads
// and exports in the one-request-at-a-time worker (web/preflight_requests.mjs: debounced,
// superseded, a stale result never shown, Cancel, an Export delayed by at most one check), and
// what TensorFlow's page asks the core and makes of its reports (web/tf/preflight.mjs), on
// real reports of the Node API's model.check().
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { before, test } from 'node:test';

import createGraphport from '../../bindings/js/node.mjs';
import { corpus, corpusFile, filesUnder, requireCorpus } from './page_helpers.mjs';
import { initialValues } from '../../web/export_form.mjs';
import { PreflightRequests } from '../../web/preflight_requests.mjs';
import { planExport as tfPlan } from '../../web/tf/plan.mjs';
import { preflightFindings, preflightRequest } from '../../web/tf/preflight.mjs';

// A clock the test moves: timers fire only on tick().
function fakeTimers() {
  let next = 1;
  const pending = new Map();
  return {
    setTimeout(fn) {
      pending.set(next, fn);
      return next++;
    },
    clearTimeout(id) {
      pending.delete(id);
    },
    get pending() {
      return pending.size;
    },
    tick() {
      const due = [...pending.values()];
      pending.clear();
      for (const fn of due) fn();
    },
  };
}

// A worker whose checks the test settles: calls[i] = {options, resolve, reject}.
function fakeWorker() {
  const calls = [];
  let busy = false;
  return {
    calls,
    run(options) {
      assert.equal(busy, false, 'two requests at once in a one-request worker');
      busy = true;
      return new Promise((resolve, reject) => {
        calls.push({
          options,
          resolve: (v) => { busy = false; resolve(v); },
          reject: (e) => { busy = false; reject(e); },
        });
      });
    },
    // A user's request, in the same worker.
    userRequest(log, what) {
      assert.equal(busy, false, `${what} started while a check ran`);
      busy = true;
      log.push(`${what} start`);
      return new Promise((resolve) => setTimeout(() => {
        busy = false;
        log.push(`${what} end`);
        resolve(what);
      }, 5));
    },
  };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

function setUp() {
  const timers = fakeTimers();
  const worker = fakeWorker();
  const results = [];
  const states = [];
  const requests = new PreflightRequests({
    run: (o) => worker.run(o), timers, delayMs: 200,
    onResult: (outcome) => results.push(outcome),
    onState: (s) => states.push(s),
  });
  return { timers, worker, results, states, requests };
}

test('checks are debounced: several changes in a row make one check, of the last options', async () => {
  const { timers, worker, results, requests } = setUp();
  requests.want({ to: 'tfjs', n: 1 });
  requests.want({ to: 'tfjs', n: 2 });
  requests.want({ to: 'tfjs', n: 3 });
  assert.equal(timers.pending, 1, 'one timer at a time');
  await flush();
  assert.equal(worker.calls.length, 0, 'nothing runs before the delay');
  timers.tick();
  await flush();
  assert.deepEqual(worker.calls.map((c) => c.options.n), [3]);
  worker.calls[0].resolve({ runs: true });
  await flush();
  assert.deepEqual(results, [{ options: { to: 'tfjs', n: 3 }, report: { runs: true } }]);
});

test('a newer check supersedes a running one: its result is dropped, the newer runs after it', async () => {
  const { timers, worker, results, states, requests } = setUp();
  requests.want({ n: 1 });
  timers.tick();
  await flush();
  assert.equal(requests.running, true);
  requests.want({ n: 2 });
  timers.tick();
  await flush();
  assert.equal(worker.calls.length, 1, 'the worker runs one request at a time: n=2 waits');
  worker.calls[0].resolve({ runs: false, n: 1 });
  await flush();
  assert.deepEqual(results, [], 'the stale result of n=1 is never shown');
  assert.deepEqual(worker.calls.map((c) => c.options.n), [1, 2]);
  worker.calls[1].resolve({ runs: true, n: 2 });
  await flush();
  assert.deepEqual(results.map((r) => r.report.n), [2]);
  assert.deepEqual(states, ['waiting', 'running', 'waiting', 'running', 'idle']);
  // A change that comes while the debounce of an earlier one runs: the earlier never runs.
  requests.want({ n: 3 });
  requests.want({ n: 4 });
  timers.tick();
  await flush();
  worker.calls[2].resolve({ n: 4 });
  await flush();
  assert.deepEqual(worker.calls.map((c) => c.options.n), [1, 2, 4]);
  assert.deepEqual(results.map((r) => r.report.n), [2, 4]);
});

test('errors are results too (the export would fail), but a check the worker\'s termination ended is not', async () => {
  const { timers, worker, results, requests } = setUp();
  requests.want({ n: 1 });
  timers.tick();
  await flush();
  worker.calls[0].reject({ code: 'INVALID_OPTION', message: 'no signature', option: 'signature' });
  await flush();
  assert.deepEqual(results, [{ options: { n: 1 }, error: { code: 'INVALID_OPTION', message: 'no signature', option: 'signature' } }]);
  requests.want({ n: 2 });
  timers.tick();
  await flush();
  worker.calls[1].reject({ code: 'CANCELLED', message: 'cancelled' });
  await flush();
  assert.equal(results.length, 1);
});

test('Cancel drops the waiting check and the running one\'s result', async () => {
  const { timers, worker, results, requests } = setUp();
  requests.want({ n: 1 });
  requests.cancel();
  assert.equal(timers.pending, 0, 'the debounce timer is gone');
  timers.tick();
  await flush();
  assert.equal(worker.calls.length, 0);

  requests.want({ n: 2 });
  timers.tick();
  await flush();
  requests.cancel();
  worker.calls[0].resolve({ n: 2 });
  await flush();
  assert.deepEqual(results, []);
  // The next model's check runs as usual.
  requests.want({ n: 3 });
  timers.tick();
  await flush();
  worker.calls[1].resolve({ n: 3 });
  await flush();
  assert.deepEqual(results.map((r) => r.report.n), [3]);
});

test('an Export waits for the running check only, and no check starts while it runs', async () => {
  const { timers, worker, results, requests } = setUp();
  const log = [];
  requests.want({ n: 1 });
  timers.tick();
  await flush();
  requests.want({ n: 2 }); // the options change again: n=2 waits for its turn
  timers.tick();
  await flush();
  const exported = requests.foreground(() => worker.userRequest(log, 'export'));
  await flush();
  assert.deepEqual(log, [], 'the export waits for the check that runs');
  worker.calls[0].resolve({ n: 1 });
  await flush();
  assert.deepEqual(log, ['export start'], 'after one check, the export: n=2 waits behind it');
  assert.equal(worker.calls.length, 1);
  assert.equal(await exported, 'export');
  await flush();
  assert.deepEqual(worker.calls.map((c) => c.options.n), [1, 2], 'n=2 runs once the export is done');
  worker.calls[1].resolve({ n: 2 });
  await flush();
  assert.deepEqual(results.map((r) => r.report.n), [2]);

  // A check wanted while the export runs starts after it.
  const again = requests.foreground(() => worker.userRequest(log, 'load'));
  requests.want({ n: 3 });
  timers.tick();
  await flush();
  assert.equal(worker.calls.length, 2, 'no check during the load');
  await again;
  await flush();
  assert.deepEqual(worker.calls.map((c) => c.options.n), [1, 2, 3]);

  // With no check running, an export starts at once, whatever is debounced.
  worker.calls[2].resolve({ n: 3 });
  await flush();
  requests.want({ n: 4 });
  const quick = requests.foreground(() => worker.userRequest(log, 'quick'));
  assert.equal(log.at(-1), 'quick start');
  await quick;
});

test('Cancel while an Export waits for a check: the export does not run', async () => {
  const { timers, worker, requests } = setUp();
  const log = [];
  requests.want({ n: 1 });
  timers.tick();
  await flush();
  const exported = requests.foreground(() => worker.userRequest(log, 'export'));
  requests.cancel();
  worker.calls[0].reject({ code: 'CANCELLED', message: 'cancelled' }); // the worker terminated
  await assert.rejects(exported, { code: 'CANCELLED' });
  assert.deepEqual(log, []);
});

// ---------------------------------------------------------------------------------------
// TensorFlow's pre-flight on real reports.

let gp;
let schema;
const initial = () => initialValues(schema);
const planExport = (state, summary) => tfPlan(state, summary, schema);
before(async () => {
  requireCorpus();
  gp = await createGraphport();
  schema = gp.optionSchema('tensorflow').export;
});

// The findings the page shows for `state` (the form's values) on a model.
function findingsOf(model, summary, partial) {
  const plan = planExport({ ...initial(), ...partial }, summary);
  const request = preflightRequest(plan, summary);
  if (!request) return null;
  try {
    return preflightFindings({ options: request, report: model.check(request) });
  } catch (error) {
    return preflightFindings({ options: request, error });
  }
}

test('a SavedModel with variables: freeze off names what TF.js cannot run and that freeze fixes it; on, ready', () => {
  const folder = dirname(dirname(corpusFile('savedModel')));
  const model = gp.load({ files: filesUnder(folder) }, { name: 'half_plus_two' });
  try {
    const summary = model.inspect();
    assert.equal(initial().freeze, null, 'freeze starts unset: the core decides');
    // Off is asked for, and the plan warns without blocking the export.
    const offPlan = planExport({ ...initial(), to: 'tfjs', freeze: false }, summary);
    assert.equal(offPlan.options.freeze, false);
    assert.deepEqual(offPlan.errors, []);
    assert.match(offPlan.warnings.find((w) => w.option === 'freeze').text, /the export to TF\.js is refused/);
    assert.equal(planExport({ ...initial(), to: 'tfjs' }, summary).options.freeze, undefined, 'Auto leaves it to the core');
    const off = findingsOf(model, summary, { to: 'tfjs', freeze: false });
    assert.equal(off.state, 'cannot');
    assert.equal(off.title, 'TF.js cannot run:');
    // The core checks the unfrozen graph (every signature, the savers): freezing fixes each op.
    const line = (name) => off.ops.filter((o) => o.op === name).map((o) => `${o.op} x${o.count} (${o.fix})`)[0];
    assert.equal(line('VarHandleOp'), 'VarHandleOp x5 (freeze fixes this)');
    assert.equal(line('StatefulPartitionedCall'), 'StatefulPartitionedCall x14 (freeze fixes this)');
    assert.equal(line('SaveV2'), 'SaveV2 x1 (freeze fixes this)');
    assert.deepEqual(off.ops.filter((o) => o.fix !== 'freeze fixes this'), []);
    // Each with its first nodes.
    const handles = off.ops.find((o) => o.op === 'VarHandleOp');
    assert.deepEqual([handles.nodes.length, handles.more], [5, 0]);
    assert.equal(off.refused, 'Export refuses it while Freeze is off.');
    for (const partial of [{ to: 'tfjs' }, { to: 'tfjs', freeze: true }]) {
      const ready = findingsOf(model, summary, partial);
      assert.equal(ready.state, 'ready', JSON.stringify(partial));
      assert.match(ready.title, /^Ready: all \d+ ops \(\d+ nodes\) run in TF\.js 4\.22$/);
      assert.match(ready.notes.join(), /freezes signature “serving_default”: 2 variables made constants/);
    }
    // A signature that parses tf.Example: ParseExampleV2, named with its node, no known fix.
    const parse = findingsOf(model, summary, { to: 'tfjs', signature: 'regress_x_to_y' });
    assert.equal(parse.state, 'cannot');
    const op = parse.ops.find((o) => o.op === 'ParseExampleV2');
    assert.equal(op.count, 1);
    assert.equal(op.nodes.length, 1);
    assert.match(op.fix, /^allowUnsupportedOps writes it anyway/);
    assert.match(parse.refused, /refuses it \(UNSUPPORTED\)/);
    // allowUnsupportedOps: the same ops, and the export writes them.
    const allowed = findingsOf(model, summary, { to: 'tfjs', signature: 'regress_x_to_y', allowUnsupportedOps: true });
    assert.deepEqual(allowed.ops, parse.ops);
    assert.match(allowed.refused, /^Export writes it/);
    // A signature the model lacks: the plan blocks the export, so nothing is checked.
    assert.equal(preflightRequest(planExport({ ...initial(), to: 'tfjs', signature: 'nope' }, summary), summary), null);
    // A TensorFlow format without unfuseOps: nothing to check for a TensorFlow graph.
    assert.equal(findingsOf(model, summary, { to: 'meta-graph' }), null);
  } finally {
    model.delete();
  }
});

test('a TF.js model to a SavedModel: TensorFlow\'s registry lacks _FusedMatMul until unfuseOps', () => {
  const prelu = `${corpus}tfjs/tfjs-to-tf/prelu`;
  const model = gp.load({ files: filesUnder(prelu) }, { name: 'prelu' });
  try {
    const summary = model.inspect();
    const fused = findingsOf(model, summary, { to: 'saved-model' });
    assert.equal(fused.state, 'cannot');
    assert.equal(fused.title, 'TensorFlow\'s op registry lacks:');
    assert.deepEqual(fused.ops.map((o) => `${o.op} x${o.count} (${o.fix})`), ['_FusedMatMul x2 (unfuseOps fixes this)']);
    const unfused = findingsOf(model, summary, { to: 'saved-model', unfuseOps: true });
    assert.equal(unfused.state, 'ready');
    assert.match(unfused.title, /are in TensorFlow's op registry$/);
    assert.match(unfused.notes.join(), /unfuseOps rewrites 2 fused nodes/);
  } finally {
    model.delete();
  }
});

test('a TF.js model with uint8 weights written as float16: the pre-flight says how much it grows', () => {
  const models = new URL('../../node_modules/@vladmandic/human/models/', import.meta.url);
  const files = {
    'handtrack.json': readFileSync(new URL('handtrack.json', models)),
    'handtrack.bin': readFileSync(new URL('handtrack.bin', models)),
  };
  const model = gp.load({ files }, { name: 'handtrack' });
  try {
    const summary = model.inspect();
    const grown = findingsOf(model, summary, { to: 'tfjs', quantize: 'float16' });
    const { info } = model.export({ to: 'tfjs', quantize: 'float16' });
    assert.ok(info.quantization.writtenWeightBytes > info.quantization.sourceWeightBytes, JSON.stringify(info.quantization));
    assert.deepEqual(grown.warnings, [info.quantization.note], 'the note the export gives after');
    assert.match(grown.warnings[0], /uint8/);
    assert.deepEqual(findingsOf(model, summary, { to: 'tfjs' }).warnings, []);
  } finally {
    model.delete();
  }
});

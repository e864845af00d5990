// TensorFlow's pre-flight (issue 32): before Export, what the export's target cannot run, from
// the core's model.check() (the export run into nothing, index.d.ts CheckReport). Which check
// the plan's options call for (preflightRequest), what its outcome means in words
// (preflightFindings, no DOM) and how it shows (preflightView).
import { h, plural } from '../dom.mjs';

// The check the plan's options call for, or null: every export to TF.js (its runtime lacks
// TensorFlow's variables, calls and many ops); a TensorFlow format with unfuseOps, or of a
// TF.js model (whose fused ops TensorFlow's registry lacks), against TensorFlow's registry. A
// plan with errors is not checked: the export is blocked until they are fixed.
export function preflightRequest(plan, summary) {
  if (!plan || !summary || plan.errors.length) return null;
  const options = { ...plan.options };
  if (options.to === 'tfjs') return options;
  if (options.unfuseOps || summary.family === 'tfjs') return { ...options, target: 'tensorflow' };
  return null;
}

// What fixes an op with no hint of the core's: writing it anyway, for a runtime that has it.
const WRITE_ANYWAY = {
  tfjs: 'allowUnsupportedOps writes it anyway, for a runtime that registers it with tf.registerOp',
  tensorflow: 'the export writes it with a warning: TensorFlow imports it only where it is registered',
};

function opsOf(unsupported, target) {
  return unsupported.map(({ op, count, nodes, hint }) => ({
    op, count, nodes, more: Math.max(0, count - nodes.length), fix: hint ?? WRITE_ANYWAY[target],
  }));
}

// The outcome of a check ({options, report} or {options, error}, web/preflight_requests.mjs)
// in words: {state: 'ready' | 'cannot' | 'failed', title, ops: [{op, count, nodes, more,
// fix}], notes: [text], warnings: [text], error}.
export function preflightFindings(outcome) {
  const { options, report, error } = outcome;
  const target = options.to === 'tfjs' ? 'tfjs' : 'tensorflow';
  const notes = [];
  const warnings = [];
  if (error) return { state: 'failed', title: 'The export would fail:', ops: [], notes, warnings, error };
  if (report.frozen) {
    notes.push(`freezes signature “${report.frozen.signature}”: ${plural(report.frozen.variables, 'variable')} made constants, ${plural(report.frozen.inlinedCalls, 'call')} inlined`);
  }
  if (report.unfusedOps?.length) notes.push(`unfuseOps rewrites ${plural(report.unfusedOps.length, 'fused node')}`);
  if (report.quantization?.note) warnings.push(report.quantization.note);
  if (report.runs) {
    const where = target === 'tfjs' ? `run in ${report.runtime}` : `are in ${report.runtime}`;
    return { state: 'ready', title: `Ready: all ${plural(report.ops, 'op')} (${plural(report.nodes, 'node')}) ${where}`, ops: [], notes, warnings };
  }
  let refused;
  // freeze: false on a graph that needs freezing: the export refuses it whatever the ops.
  if (report.exportError?.option === 'freeze') refused = 'Export refuses it while Freeze is off.';
  else if (report.exportError) refused = `Export fails with ${report.exportError.code}: ${report.exportError.message}`;
  else if (report.exportFails) refused = 'Export refuses it (UNSUPPORTED) unless allowUnsupportedOps is ticked.';
  else if (target === 'tfjs') refused = 'Export writes it (allowUnsupportedOps): it runs only where these ops are registered.';
  else refused = 'Export writes it with a warning: TensorFlow cannot import it as it is.';
  return {
    state: 'cannot',
    title: target === 'tfjs' ? 'TF.js cannot run:' : `${report.runtime} lacks:`,
    ops: opsOf(report.unsupportedOps, target),
    notes, warnings, refused,
  };
}

// A node name in one line, cut with an ellipsis when it does not fit; the whole in its title.
function nodeName(name) {
  return h('code.preflight-node', { title: name }, name);
}

// With more ops than this, each op's nodes are folded under a count (a freeze: false check
// lists a dozen ops of the unfrozen graph): one line per op, the nodes a click away.
const OPEN_NODES_UP_TO = 3;

// The first nodes of an op: open, or folded under their count.
function nodesView(o, open) {
  const label = o.more ? `first ${plural(o.nodes.length, 'node')}` : plural(o.nodes.length, 'node');
  const list = h('ul', o.nodes.map((n) => h('li', nodeName(n))), o.more ? h('li.muted', `and ${o.more} more`) : null);
  if (open) return h('div.preflight-nodes', h('span.muted', `${label}:`), list);
  return h('details.preflight-nodes', h('summary', label), list);
}

// states: 'waiting' | 'running' (a check to come), or the findings of the newest.
export function preflightView(findings) {
  if (!findings.state || findings.state === 'waiting' || findings.state === 'running') {
    return [h('strong', 'Pre-flight'), h('span.muted', ' checking what the target runs…')];
  }
  const { state, title, ops, notes, warnings, refused, error } = findings;
  return [
    h('div.preflight-head', h('strong', 'Pre-flight'), ' ', h(`span.preflight-title.${state}`, title)),
    ops.length ? h('ul.preflight-ops', ops.map((o) => h('li', { dataset: { op: o.op } },
      h('span.preflight-op', h('code', `${o.op} x${o.count}`), ' ', h('span.preflight-fix', `(${o.fix})`)),
      o.nodes.length ? nodesView(o, ops.length <= OPEN_NODES_UP_TO) : null))) : null,
    refused ? h('p.preflight-refused', refused) : null,
    state === 'failed' ? h('p.preflight-error', h('code.code', error.code ?? 'ERROR'), ' ', error.message) : null,
    warnings.map((w) => h('p.preflight-warning', w)),
    notes.map((n) => h('p.preflight-note.muted', n)),
  ];
}

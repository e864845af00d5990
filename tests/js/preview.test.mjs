// Issue 35's export preview: model.preview() says which nodes an export drops, changes and
// adds, option by option, and writes nothing. This test exports for real, loads the output back
// with graphport, diffs the two graphs by node name and content with its own walk, and holds
// the preview to exactly that diff, for models of each family and several options each. And
// `graphport export --dry-run` (both CLIs) prints the preview and leaves -o's path alone.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { exportDiff } from './export_diff.mjs';
import {
  REPO, checkNoLeaksAtEnd, corpusPath, graphport, leakCheckedTest, requireNativeCli, runCli, tempDir,
} from './helpers.mjs';

const gp = await graphport();
checkNoLeaksAtEnd(gp);

const HALF_PLUS_TWO_META = corpusPath('tf/serving/session_bundle/testdata/half_plus_two/00000123/export.meta');
const GPU_SAVED_MODEL = corpusPath('tf/serving/servables/tensorflow/testdata/saved_model_half_plus_two_gpu/00000123');
const TF2_SAVED_MODEL = corpusPath('tf/serving/servables/tensorflow/testdata/saved_model_half_plus_two_tf2_cpu/00000123');
const PRELU = corpusPath('tfjs/tfjs-to-tf/prelu/model.json');
const MOVENET = join(REPO, 'node_modules', '@vladmandic', 'human', 'models', 'movenet-lightning.json');
const MGE_MODEL = corpusPath('mge/mgeconvert_e4a1261_test_test_model.mge');
const MGE_BACKWARD_FILTER = corpusPath('mge/mgeconvert_HEAD_test_mge_convolution-backward-filter.mge');

const sorted = (set) => [...set].sort();

function assertPreviewIsTheExport(model, options, rename) {
  const preview = model.preview(options);
  const real = exportDiff(gp, model, options, rename);
  assert.deepEqual(sorted(preview.dropped.names), sorted(real.dropped), `dropped, ${JSON.stringify(options)}`);
  assert.deepEqual(sorted(preview.changed.nodes.map((c) => c.name)), sorted(real.changed), `changed, ${JSON.stringify(options)}`);
  assert.deepEqual(sorted(preview.added.names), sorted(real.added), `added, ${JSON.stringify(options)}`);
  assert.equal(preview.nodes.after, real.after);
  const perOption = (list) => preview.options.reduce((n, o) => n + o[list].count, 0);
  assert.equal(perOption('dropped'), real.dropped.size, 'each dropped node belongs to one option');
  assert.equal(perOption('added'), real.added.size, 'each added node belongs to one option');
  return preview;
}

const entry = (preview, option) => preview.options.find((o) => o.option === option);

leakCheckedTest(gp, 'TensorFlow MetaGraphDef: exportScope, stripDefaultAttrs, clearExtraneousSavers', () => {
  const model = gp.loadFile(HALF_PLUS_TWO_META);
  try {
    const strip = (name) => (name.startsWith('save/') ? name.slice(5) : '');
    const scoped = assertPreviewIsTheExport(model, { exportScope: 'save' }, strip);
    const scope = entry(scoped, 'exportScope');
    assert.equal(scope.label, "exportScope 'save'");
    assert.ok(scope.kept > 0 && scope.dropped.count > 0);
    assert.match(scope.text, /^exportScope 'save': \d+ nodes kept, \d+ dropped, \d+ changed/);
    assert.ok(scope.changed.kinds.renamed > 0);
    const stripped = assertPreviewIsTheExport(model, { stripDefaultAttrs: true, clearExtraneousSavers: true });
    assert.ok(entry(stripped, 'stripDefaultAttrs').changed.kinds['attrs removed'] > 0);
  } finally {
    model.delete();
  }
});

leakCheckedTest(gp, 'TensorFlow SavedModel: clearDevices, freeze, to tfjs', () => {
  const gpu = gp.loadFile(GPU_SAVED_MODEL);
  try {
    const cleared = assertPreviewIsTheExport(gpu, { clearDevices: true });
    const clear = entry(cleared, 'clearDevices');
    assert.equal(clear.text, `clearDevices: ${clear.changed.count} nodes changed`);
    assert.equal(clear.changed.kinds['device cleared'], clear.changed.count);
    assert.ok(clear.changed.count > 0);
  } finally {
    gpu.delete();
  }
  const tf2 = gp.loadFile(TF2_SAVED_MODEL);
  try {
    const frozen = assertPreviewIsTheExport(tf2, { freeze: true, to: 'graph-def' });
    assert.equal(entry(frozen, 'freeze').facts.signature, 'serving_default');
    assertPreviewIsTheExport(tf2, { to: 'tfjs' });
  } finally {
    tf2.delete();
  }
});

leakCheckedTest(gp, 'TF.js: quantize, unfuseOps, to a GraphDef', () => {
  const movenet = gp.loadFile(MOVENET);
  try {
    const quantized = assertPreviewIsTheExport(movenet, { to: 'tfjs', quantize: 'uint8' });
    const quantize = entry(quantized, 'quantize');
    assert.ok(quantize.changed.kinds['value changed'] > 0);
    assert.equal(quantize.text, `quantize uint8: ${quantize.changed.count} nodes changed`);
    assertPreviewIsTheExport(movenet, { to: 'tfjs', unfuseOps: true, allowUnsupportedOps: true });
  } finally {
    movenet.delete();
  }
  const prelu = gp.loadFile(PRELU);
  try {
    assertPreviewIsTheExport(prelu, { to: 'graph-def', allowUnsupportedOps: true });
  } finally {
    prelu.delete();
  }
});

// Neither corpus file is changed by a pass; the first's nameless ConvolutionV2 operators are
// written as Convolution (so named again): the writer's change, under 'export'.
leakCheckedTest(gp, 'MegEngine: optimized and as loaded, the writer\'s changes its own', () => {
  for (const file of [MGE_MODEL, MGE_BACKWARD_FILTER]) {
    const model = gp.loadFile(file);
    try {
      for (const options of [{ keepOprName: true }, { keepOprName: true, asLoaded: true }]) {
        const preview = assertPreviewIsTheExport(model, options);
        assert.equal(entry(preview, 'optimizeForInference'), undefined, 'no pass changed the graph');
        assert.deepEqual(preview.options.map((o) => o.option), preview.dropped.count + preview.changed.count + preview.added.count ? ['export'] : []);
      }
    } finally {
      model.delete();
    }
  }
});

test('graphport export --dry-run prints the preview and writes nothing, in both CLIs', (t) => {
  requireNativeCli();
  const dir = tempDir(t);
  for (const which of ['native', 'node']) {
    const out = join(dir, `${which}.meta`);
    const text = runCli(which, ['export', HALF_PLUS_TWO_META, '-o', out, '--dry-run', '--clear-devices', '--export-scope', 'save']);
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /^export preview: \d+ nodes -> \d+ \(\d+ dropped, \d+ changed, \d+ added\); nothing written\n/);
    assert.match(text.stdout, /\n {2}exportScope 'save': \d+ nodes kept, \d+ dropped/);
    assert.equal(existsSync(out), false, `${which}: -o's file was not written`);
    const json = runCli(which, ['export', TF2_SAVED_MODEL, '-o', join(dir, `${which}-folder`), '--dry-run', '--json', '--to', 'tfjs']);
    assert.equal(json.status, 0, json.stderr);
    const preview = JSON.parse(json.stdout);
    assert.ok(preview.options.some((o) => o.option === 'freeze'));
    assert.equal(existsSync(join(dir, `${which}-folder`)), false, `${which}: no output folder was made`);
    const misuse = runCli(which, ['inspect', HALF_PLUS_TWO_META, '--dry-run']);
    assert.equal(misuse.status, 1);
    assert.match(misuse.stderr, /--dry-run goes with export/);
  }
  const native = runCli('native', ['export', HALF_PLUS_TWO_META, '--dry-run', '--strip-default-attrs']);
  const node = runCli('node', ['export', HALF_PLUS_TWO_META, '--dry-run', '--strip-default-attrs']);
  assert.equal(native.stdout, node.stdout, 'both CLIs print the same preview');
});

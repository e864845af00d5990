// export_meta_graph's options through the WebAssembly build: the same bytes as the native
// CLI with the same options, message options accepted in every encoding, and the debug-info
// file beside the main output.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import {
  GRAPHS, assertSameBytes, checkNoLeaksAtEnd, corpusPath, graphport, leakCheckedTest,
  requireNativeCli, runNative, tempDir, withModel,
} from './helpers.mjs';

const gp = await graphport();
checkNoLeaksAtEnd(gp);
requireNativeCli();

const OPS_PBTXT = corpusPath('tf/ops.pbtxt');
const META_GRAPHS = GRAPHS.filter((g) => g.kind !== 'graph-def');

// Each case: JS options, and the native CLI flags that mean the same.
const CASES = [
  [{ clearDevices: true }, ['--clear-devices']],
  [{ exportScope: 'save', asText: true }, ['--export-scope', 'save', '--as-text']],
  [{ clearExtraneousSavers: true, saveDebugInfo: true }, ['--clear-extraneous-savers', '--save-debug-info']],
  [{ stripDefaultAttrs: true }, ['--strip-default-attrs']],
  [{ stripDefaultAttrs: true, opRegistry: new Uint8Array(readFileSync(OPS_PBTXT)) },
    ['--strip-default-attrs', '--op-registry', OPS_PBTXT]],
  [{ collectionList: [] }, ['--collection-list', '']],
  [{ to: 'saved-model', clearDevices: true, stripDefaultAttrs: true }, ['--to', 'saved-model', '--clear-devices', '--strip-default-attrs']],
];

for (const graph of META_GRAPHS) {
  for (const [options, flags] of CASES) {
    leakCheckedTest(gp, `${graph.name} ${flags.join(' ')}: wasm bytes equal native bytes`, (t) => {
      const dir = tempDir(t);
      const out = join(dir, 'out.meta');
      // A scope that matches nothing is an error on both sides; only compare where it exports.
      let native;
      // A SavedModel is a folder: -o names it.
      const savedModel = options.to === 'saved-model';
      try {
        runNative(['export', graph.path, '-o', out, ...flags]);
        native = readFileSync(savedModel ? join(out, 'saved_model.pb') : out);
      } catch (e) {
        assert.match(String(e.stderr), /graphport: error NOT_FOUND: exportScope/);
        withModel(gp, readFileSync(graph.path), {}, (model) => {
          assert.throws(() => model.export(options), (err) => err.code === 'NOT_FOUND');
        });
        return;
      }
      withModel(gp, readFileSync(graph.path), {}, (model) => {
        const result = model.export(savedModel ? options : { ...options, filename: 'out.meta' });
        assertSameBytes(result.files[0].bytes, native, 'main output');
        if (options.saveDebugInfo) {
          assert.deepEqual(result.files.map((f) => f.name), ['out.meta', 'out_debug.meta']);
          assertSameBytes(result.files[1].bytes, readFileSync(join(dir, 'out_debug.meta')), 'debug info');
        } else {
          assert.equal(result.files.length, 1);
        }
      });
    });
  }
}

leakCheckedTest(gp, 'a message option gives the same export as JSON, text bytes and binary bytes', (t) => {
  const dir = tempDir(t);
  const graph = GRAPHS.find((g) => g.rel.endsWith('half_plus_two/00000123/export.meta'));
  const saverJson = { filenameTensorName: 'save/Const:0', saveTensorName: 'save/control_dependency:0',
    restoreOpName: 'save/restore_all', maxToKeep: 3, version: 'V2' };
  const saverText = 'filename_tensor_name: "save/Const:0" save_tensor_name: "save/control_dependency:0" ' +
    'restore_op_name: "save/restore_all" max_to_keep: 3 version: V2';
  // The binary form comes from the native CLI reading the text form: an independent encoder.
  writeFileSync(join(dir, 'saver.pbtxt'), saverText);
  const outs = withModel(gp, readFileSync(graph.path), {}, (model) => [
    model.export({ saverDef: saverJson }).files[0].bytes,
    model.export({ saverDef: new TextEncoder().encode(saverText) }).files[0].bytes,
  ]);
  assertSameBytes(outs[1], outs[0], 'text bytes vs JSON');
  runNative(['export', graph.path, '-o', join(dir, 'native.meta'), '--saver-def', join(dir, 'saver.pbtxt')]);
  assertSameBytes(outs[0], readFileSync(join(dir, 'native.meta')), 'JSON vs the native CLI with a text file');
  withModel(gp, outs[0], {}, (model) => {
    const binary = model.export({ to: 'meta-graph' }).files[0].bytes;
    assertSameBytes(binary, outs[0], 're-export');
  });
});

leakCheckedTest(gp, 'a malformed message option names the option and the field', () => {
  const graph = META_GRAPHS[0];
  withModel(gp, readFileSync(graph.path), {}, (model) => {
    assert.throws(() => model.export({ saverDef: { saveTensorName: 5 } }),
      (e) => e.code === 'INVALID_OPTION' && /saverDef/.test(e.message) && /save_tensor_name|saveTensorName/.test(e.message));
    assert.throws(() => model.export({ metaInfoDef: { noSuchField: 1 } }),
      (e) => e.code === 'INVALID_OPTION' && /metaInfoDef/.test(e.message) && /noSuchField/.test(e.message));
    assert.throws(() => model.export({ metaInfoDef: { tensorflowVersion: 'mylib-0.1' } }),
      (e) => e.code === 'INVALID_OPTION' && /tensorflow_version/.test(e.message));
    assert.throws(() => model.export({ collectionList: ['no_such_collection'] }),
      (e) => e.code === 'NOT_FOUND' && /no_such_collection/.test(e.message));
    assert.throws(() => model.export({ opRegistry: new Uint8Array([0x0a, 0xff]) }),
      (e) => e.code === 'INVALID_OPTION' && /opRegistry/.test(e.message));
  });
});

// MegEngine on the WebAssembly build: both corpus dumps load from bytes and from a path, read
// as the native CLI reads them, and re-dump in every format with the same bytes the native CLI
// writes; the 8.14 re-dump kept as loaded reproduces the original file; bad input is a
// GraphportError.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe } from 'node:test';

import {
  assertGraphportError, assertSameBytes, checkNoLeaksAtEnd, CORPUS, graphport, leakCheckedTest,
  readBytes, requireNativeCli, runNative, tempDir, withModel,
} from './helpers.mjs';

const gp = await graphport();
checkNoLeaksAtEnd(gp);
requireNativeCli();

const MGE_DIR = join(CORPUS, 'mge');
const FILES = readdirSync(MGE_DIR).filter((f) => f.endsWith('.mge')).sort();
// Both real dumps of the corpus (research megengine.md): a test that found none proves nothing.
assert.equal(FILES.length, 2, `expected the two MegEngine corpus files in ${MGE_DIR}`);

// The three ways to write a dump, as JS options and as the native CLI's flags.
const FORMATS = [
  { label: 'FBS_V2 (default)', options: {}, args: [] },
  { label: 'FBS', options: { dumpFormat: 'FBS' }, args: ['--dump-format', 'FBS'] },
  {
    label: 'FBS + compat 8.14',
    options: { dumpFormat: 'FBS', compatOlderVersion: '8.14' },
    args: ['--dump-format', 'FBS', '--compat-older-version', '8.14'],
  },
];

// Runs the native CLI's export into a fresh folder; returns {name: bytes} of what it wrote.
function nativeExport(t, input, args, outName = 'model.mge') {
  const dir = tempDir(t, 'graphport-mge-');
  runNative(['export', input, '-o', join(dir, outName), ...args]);
  const out = {};
  for (const name of readdirSync(dir)) out[name] = readBytes(join(dir, name));
  return out;
}

function wasmExport(model, options) {
  const out = model.export(options);
  const files = {};
  for (const f of out.files) files[f.name] = f.bytes;
  return { files, info: out.info };
}

// The operator classes in order: what "an equal graph" means when formats store different ids.
const operatorClasses = (summary) => summary.megengine.operators.map((op) => op.class);

for (const file of FILES) {
  const path = join(MGE_DIR, file);
  const original = readBytes(path);

  describe(`mge ${file}`, () => {
    const nativeSummary = JSON.parse(runNative(['inspect', path, '--json']).toString('utf8'));

    leakCheckedTest(gp, 'loads from bytes and from a path; inspect() equals the native CLI', async () => {
      withModel(gp, original, { name: file }, (model) => {
        assert.equal(model.family, 'megengine');
        assert.deepEqual(model.inspect(), nativeSummary);
      });
      const fromFile = await gp.loadFile(path);
      try {
        assert.deepEqual(fromFile.inspect(), nativeSummary);
      } finally {
        fromFile.delete();
      }
      assert.ok(nativeSummary.megengine.operators.length > 0, 'the summary lists no operator');
    });

    for (const format of FORMATS) {
      leakCheckedTest(gp, `${format.label}: bytes equal the native CLI's and load back`, (t) => {
        const native = nativeExport(t, path, format.args);
        withModel(gp, original, { name: file }, (model) => {
          const { files, info } = wasmExport(model, format.options);
          assert.deepEqual(Object.keys(files), ['model.mge']);
          assertSameBytes(files['model.mge'], native['model.mge'], `${file} ${format.label}`);
          assert.equal(info.nr_opr, nativeSummary.megengine.operators.length);
          withModel(gp, files['model.mge'], { name: 'model.mge' }, (back) => {
            const summary = back.inspect();
            assert.equal(summary.family, 'megengine');
            assert.deepEqual(operatorClasses(summary), operatorClasses(nativeSummary));
            assert.deepEqual(summary.megengine.dumpInfo.outputs, nativeSummary.megengine.dumpInfo.outputs);
          });
        });
      });
    }

    leakCheckedTest(gp, 'the 8.14 re-dump kept as loaded is byte-identical to the original file', () => {
      withModel(gp, original, { name: file }, (model) => {
        const { files } = wasmExport(model, { ...FORMATS[2].options, asLoaded: true });
        assertSameBytes(files['model.mge'], original, `${file} re-dumped for 8.14`);
      });
    });

    // Each option's effect, checked as equality with the native CLI's bytes (the native tests
    // check the effects themselves) plus one visible trace of it in the wasm output.
    const OPTION_CASES = [
      {
        label: 'stripInfoFile writes the strip info as a second output',
        options: { stripInfoFile: 'strip.json' },
        args: ['--strip-info-file', 'strip.json'],
        check: (files) => {
          const strip = JSON.parse(new TextDecoder().decode(files['strip.json']));
          assert.ok(Array.isArray(strip.opr_types) && strip.opr_types.length > 0, 'no opr_types');
          assert.ok(typeof strip.hash === 'string' || typeof strip.hash === 'number', 'no hash');
        },
      },
      {
        label: 'userInfo is pickled into the metadata',
        options: { userInfo: 'graphport user info' },
        args: ['--user-info', 'graphport user info'],
        check: (files) => {
          withModel(gp, files['model.mge'], { name: 'model.mge' }, (back) => {
            const text = JSON.stringify(back.inspect().megengine.metadata);
            assert.ok(text.includes('graphport user info'), `user info not read back: ${text}`);
          });
        },
      },
      {
        label: 'keepVarName: 2 keeps every var name',
        options: { keepVarName: 2 },
        args: ['--keep-var-name', '2'],
        check: (files) => {
          withModel(gp, files['model.mge'], { name: 'model.mge' }, (back) => {
            const vars = back.inspect().megengine.operators.flatMap((op) => op.outputs);
            assert.ok(vars.length > 0 && vars.every((v) => typeof v.name === 'string' && v.name !== ''),
              'a var has no name with keepVarName 2');
          });
        },
      },
      {
        label: 'keepVarName: 0 keeps no var name',
        options: { keepVarName: 0 },
        args: ['--keep-var-name', '0'],
        check: (files) => {
          withModel(gp, files['model.mge'], { name: 'model.mge' }, (back) => {
            const vars = back.inspect().megengine.operators.flatMap((op) => op.outputs);
            assert.ok(vars.every((v) => v.name === null), 'a var kept its name with keepVarName 0');
          });
        },
      },
    ];
    for (const c of OPTION_CASES) {
      leakCheckedTest(gp, `${c.label}, as the native CLI writes it`, (t) => {
        const native = nativeExport(t, path, c.args);
        withModel(gp, original, { name: file }, (model) => {
          const { files } = wasmExport(model, c.options);
          assert.deepEqual(Object.keys(files).sort(), Object.keys(native).sort());
          for (const name of Object.keys(native)) assertSameBytes(files[name], native[name], `${file} ${name}`);
          c.check(files);
        });
      });
    }

    leakCheckedTest(gp, 'truncated at 100 offsets: a GraphportError, never INTERNAL', () => {
      const offsets = new Set([0, 1, 3, 4, 7, 8, 12, 16, original.length - 1]);
      for (let i = 0; i < 91; i += 1) offsets.add(Math.floor((i * original.length) / 91));
      for (const n of [...offsets].sort((a, b) => a - b)) {
        const cut = original.slice(0, n);
        const error = assertGraphportError(gp, () => gp.load(cut, { name: file }));
        assert.notEqual(error.code, 'INTERNAL', `truncated at ${n}: ${error.message}`);
      }
      // The instance is still sound: the whole file loads after all those failures.
      withModel(gp, original, { name: file }, (model) => assert.equal(model.family, 'megengine'));
    });
  });
}

describe('mge: files named .mge that are not dumps', () => {
  // A protocol-4 pickle of {'w': 1}: what megengine.save writes for a state dict.
  const pickle = new Uint8Array([
    0x80, 0x04, 0x95, 0x0b, 0, 0, 0, 0, 0, 0, 0, 0x7d, 0x94, 0x8c, 0x01, 0x77, 0x94, 0x4b, 0x01,
    0x73, 0x2e,
  ]);
  const lfs = new TextEncoder().encode(
    'version https://git-lfs.github.com/spec/v1\n' +
      `oid sha256:${'0123456789abcdef'.repeat(4)}\nsize 1324\n`,
  );

  leakCheckedTest(gp, 'a pickled state dict says so', () => {
    const error = assertGraphportError(gp, () => gp.load(pickle, { name: 'state.mge' }),
      { codes: 'UNSUPPORTED', name: 'state.mge' });
    assert.match(error.message, /pickled state dict/);
  });

  leakCheckedTest(gp, 'a git-LFS pointer named .mge is UNSUPPORTED, saying what it is, detected or forced', () => {
    // Its "version ..." line would parse as a TensorFlow text field: the pointer's magic and
    // the .mge name together make it MegEngine's to refuse.
    const error = assertGraphportError(gp, () => gp.load(lfs, { name: 'model.mge' }),
      { codes: 'UNSUPPORTED', name: 'model.mge' });
    assert.match(error.message, /git-LFS pointer/);
    const asked = assertGraphportError(gp, () => gp.load(lfs, { name: 'model.mge', format: 'mge-fbs' }),
      { name: 'model.mge' });
    assert.match(asked.message, /git-LFS pointer/);
  });

  leakCheckedTest(gp, 'after the failures the instance still loads a good dump', () => {
    withModel(gp, readFileSync(join(MGE_DIR, FILES[0])), { name: FILES[0] }, (model) => {
      assert.equal(model.family, 'megengine');
    });
  });
});

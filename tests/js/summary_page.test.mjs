// model.summaryPage(): inspect() of a MegEngine model lists its first 100 operators and counts
// them all; the rest are read a page at a time, filtered in the core by type, class or name.
// Pages put together give every operator in graph order, as the operators' own fields say.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';

import {
  CORPUS, assertGraphportError, checkNoLeaksAtEnd, graphport, readBytes, withModel,
} from './helpers.mjs';
import { immutableTensorRegistration, longMgeModel } from './mge_test_models.mjs';

const gp = await graphport();
checkNoLeaksAtEnd(gp);

const COUNT = 250;
const MODEL = longMgeModel(immutableTensorRegistration(gp, readBytes, CORPUS), COUNT);

test('inspect() lists the first 100 operators and counts all of them', () => {
  withModel(gp, MODEL, { name: 'long.mge' }, (model) => {
    const mge = model.inspect().megengine;
    assert.equal(mge.operatorCount, COUNT);
    assert.equal(mge.operators.length, 100);
    assert.deepEqual(mge.operators.map((o) => o.index), [...Array(100).keys()]);
    assert.equal(mge.dumpInfo.nr_opr, COUNT);
    assert.match(gp.summaryText(model.inspect()), /operators: +250 \(1 types\)/);
  });
});

test('pages of 37 put together are every operator, in order, named as the file names them', () => {
  withModel(gp, MODEL, { name: 'long.mge' }, (model) => {
    const first = model.inspect().megengine.operators;
    const all = [];
    for (let offset = 0; ; offset += 37) {
      const page = model.summaryPage('operators', { offset, limit: 37 });
      assert.equal(page.list, 'operators');
      assert.equal(page.offset, offset);
      assert.equal(page.total, COUNT);
      assert.equal(page.matched, COUNT);
      all.push(...page.items);
      if (page.items.length < 37) break;
    }
    assert.equal(all.length, COUNT);
    assert.deepEqual(all.map((o) => o.index), [...Array(COUNT).keys()]);
    assert.deepEqual(all.map((o) => o.name), all.map((_, i) => `holder${i}`));
    assert.deepEqual(all.slice(0, 100), first);
    assert.deepEqual(model.summaryPage('operators').items, first, 'the default page is the first 100');
  });
});

test('the filter keeps the operators whose name, type or class holds it, any case', () => {
  withModel(gp, MODEL, { name: 'long.mge' }, (model) => {
    // holder1, holder10-19, holder100-199.
    const page = model.summaryPage('operators', { filter: 'HOLDER1', limit: 500 });
    assert.equal(page.matched, 111);
    assert.deepEqual(page.items.map((o) => o.name),
      ['holder1', ...Array.from({ length: 10 }, (_, i) => `holder1${i}`),
        ...Array.from({ length: 100 }, (_, i) => `holder${100 + i}`)]);
    const second = model.summaryPage('operators', { filter: 'holder1', offset: 11, limit: 2 });
    assert.deepEqual(second.items.map((o) => o.name), ['holder100', 'holder101']);
    assert.equal(model.summaryPage('operators', { filter: 'immutable' }).matched, COUNT);
    assert.equal(model.summaryPage('operators', { filter: 'conv' }).matched, 0);
  });
});

test('bad requests are INVALID_OPTION errors that name the option', () => {
  withModel(gp, MODEL, { name: 'long.mge' }, (model) => {
    assertGraphportError(gp, () => model.summaryPage('vars'), { codes: 'INVALID_OPTION' });
    assertGraphportError(gp, () => model.summaryPage(7), { codes: 'INVALID_OPTION' });
    assertGraphportError(gp, () => model.summaryPage('operators', { offset: -1 }), { codes: 'INVALID_OPTION' });
    assertGraphportError(gp, () => model.summaryPage('operators', { limit: 0 }), { codes: 'INVALID_OPTION' });
  });
  const graphDef = readBytes(join(CORPUS, 'tf/serving/servables/tensorflow/testdata/saved_model_half_plus_two_cpu/00000123/saved_model.pb'));
  withModel(gp, graphDef, { name: 'saved_model.pb' }, (model) => {
    assertGraphportError(gp, () => model.summaryPage('operators'), { codes: 'INVALID_OPTION' });
  });
});

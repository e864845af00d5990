// Issue 32: batch-norm folding, checked in the TF.js runtime. Graphs built here (a convolution
// with a FusedBatchNormV3 after it, with or without a BiasAdd between them, then Relu or
// Relu6) are frozen to TF.js twice: optimize: true folds the batch norm into the convolution's
// weights and fuses the rest, optimize: false writes the graph as it is. Both run in the TF.js
// runtime (the devDependency, cpu backend) on the same seeded input and give the same outputs
// within 1e-5 of the output's largest magnitude; the folded weights equal, bit for bit, the
// converter's arithmetic written out below (research savedmodel_freeze.md §4.4).
import assert from 'node:assert/strict';
import { describe } from 'node:test';

import { checkNoLeaksAtEnd, graphport, leakCheckedTest, prng, withModel } from './helpers.mjs';
import { decodedWeights, disposeAll, filesOf, loadGraphModel, modelJson, run, tf } from './tfjs/runtime.mjs';

const gp = await graphport();
checkNoLeaksAtEnd(gp);

const EPSILON = 0.001;

// float32 values in [lo, hi).
function values(next, count, lo, hi) {
  return Float32Array.from({ length: count }, () => Math.fround(lo + (hi - lo) * next()));
}

// --- The graph, as a text MetaGraphDef with a serving_default signature ------------------

const shapeText = (dims) => `shape { ${dims.map((d) => `dim { size: ${d} }`).join(' ')} }`;
const typeAttr = (key) => `attr { key: "${key}" value { type: DT_FLOAT } }`;

function constNode(name, dims, data) {
  // A float32 printed by JS's shortest form parses back to the same float32.
  const vals = Array.from(data, (v) => `float_val: ${v}`).join(' ');
  return `node { name: "${name}" op: "Const" ${typeAttr('dtype')} attr { key: "value" value { tensor { ` +
    `dtype: DT_FLOAT tensor_${shapeText(dims)} ${vals} } } } }`;
}

function opNode(name, op, inputs, attrs = '') {
  return `node { name: "${name}" op: "${op}" ${inputs.map((i) => `input: "${i}"`).join(' ')} ${typeAttr('T')} ${attrs} }`;
}

// The case's graph and every Const's values. Conv2D filters are [3, 3, in, out]; depthwise
// filters [3, 3, in, multiplier], whose channel is in·multiplier + m.
function buildCase({ conv, bias, activation, seed }) {
  const next = prng(seed);
  const input = [1, 6, 6, 3];
  const filterDims = conv === 'Conv2D' ? [3, 3, 3, 4] : [3, 3, 3, 2];
  const channels = conv === 'Conv2D' ? 4 : 6;
  const consts = {
    filter: values(next, filterDims.reduce((a, b) => a * b), -1, 1),
    gamma: values(next, channels, 0.5, 1.5),
    beta: values(next, channels, -0.5, 0.5),
    mean: values(next, channels, -0.3, 0.3),
    variance: values(next, channels, 0.2, 2),
  };
  if (bias) consts.bias = values(next, channels, -0.2, 0.2);
  const convAttrs = 'attr { key: "strides" value { list { i: 1 i: 1 i: 1 i: 1 } } } ' +
    'attr { key: "padding" value { s: "SAME" } } attr { key: "data_format" value { s: "NHWC" } }';
  const nodes = [
    `node { name: "x" op: "Placeholder" ${typeAttr('dtype')} attr { key: "shape" value { ${shapeText(input)} } } }`,
    constNode('block/filter', filterDims, consts.filter),
    opNode('block/conv', conv, ['x', 'block/filter'], convAttrs),
  ];
  let last = 'block/conv';
  if (bias) {
    nodes.push(constNode('block/bias', [channels], consts.bias));
    nodes.push(opNode('block/bias_add', 'BiasAdd', [last, 'block/bias'], 'attr { key: "data_format" value { s: "NHWC" } }'));
    last = 'block/bias_add';
  }
  for (const key of ['gamma', 'beta', 'mean', 'variance']) nodes.push(constNode(`block/bn/${key}`, [channels], consts[key]));
  nodes.push(opNode('block/bn', 'FusedBatchNormV3',
    [last, 'block/bn/gamma', 'block/bn/beta', 'block/bn/mean', 'block/bn/variance'],
    `${typeAttr('U')} attr { key: "epsilon" value { f: ${EPSILON} } } attr { key: "is_training" value { b: false } } ` +
      'attr { key: "data_format" value { s: "NHWC" } }'));
  nodes.push(opNode('block/act', activation, ['block/bn']));
  nodes.push(opNode('y', 'Identity', ['block/act']));
  const output = [1, 6, 6, channels];
  const tensorInfo = (name, dims) => `{ name: "${name}" dtype: DT_FLOAT tensor_${shapeText(dims)} }`;
  const text = `graph_def { ${nodes.join('\n')} }\n` +
    `signature_def { key: "serving_default" value { inputs { key: "x" value ${tensorInfo('x:0', input)} } ` +
    `outputs { key: "y" value ${tensorInfo('y:0', output)} } method_name: "tensorflow/serving/predict" } }\n`;
  return { text, consts, channels, input };
}

// --- The converter's folding arithmetic, written out --------------------------------------
// var + eps in float32; 1/sqrt in float64, times gamma; offset = beta − (mean − bias)·scale in
// float64 (mean − bias in float32), stored as float32; each filter element times its
// channel's scale, stored as float32.
function expectedFold({ consts, channels }) {
  const eps = Math.fround(EPSILON);
  const scale = Array.from({ length: channels }, (_, c) =>
    (1 / Math.sqrt(Math.fround(consts.variance[c] + eps))) * consts.gamma[c]);
  const offset = Float32Array.from({ length: channels }, (_, c) => {
    const centred = consts.bias ? Math.fround(consts.mean[c] - consts.bias[c]) : consts.mean[c];
    return consts.beta[c] - centred * scale[c];
  });
  const weights = Float32Array.from(consts.filter, (w, i) => w * scale[i % channels]);
  return { weights, offset };
}

function exportTfjs(text, optimize) {
  const input = { files: { 'model.pbtxt': new TextEncoder().encode(text) }, primary: 'model.pbtxt' };
  return withModel(gp, input, {}, (m) => filesOf(m.export({ to: 'tfjs', freeze: true, optimize })));
}

async function runOn(files, x) {
  const model = await loadGraphModel(files);
  try {
    const feeds = { 'x:0': tf.tensor(x, [1, 6, 6, x.length / 36], 'float32') };
    try {
      return (await run(model, feeds, ['y:0']))['y:0'].values;
    } finally {
      disposeAll(feeds);
    }
  } finally {
    model.dispose();
  }
}

const opsOf = (files) => modelJson(files).modelTopology.node.map((n) => n.op);
const bitsOf = (a) => Array.from(new Uint32Array(Float32Array.from(a).buffer));

const CASES = [
  { conv: 'Conv2D', bias: false, activation: 'Relu', seed: 11 },
  { conv: 'Conv2D', bias: true, activation: 'Relu6', seed: 12 },
  { conv: 'DepthwiseConv2dNative', bias: false, activation: 'Relu6', seed: 13 },
  { conv: 'DepthwiseConv2dNative', bias: true, activation: 'Relu', seed: 14 },
];

describe('batch-norm folding in the TF.js runtime', () => {
  for (const c of CASES) {
    const title = `${c.conv}${c.bias ? ' + BiasAdd' : ''} + FusedBatchNormV3 + ${c.activation}`;
    leakCheckedTest(gp, title, async () => {
      const built = buildCase(c);
      const optimized = exportTfjs(built.text, true);
      const plain = exportTfjs(built.text, false);

      // optimize: false keeps the graph as built; optimize: true leaves no batch norm, no
      // separate bias add or activation: one fused convolution.
      const plainOps = opsOf(plain);
      assert.ok(plainOps.includes('FusedBatchNormV3') && plainOps.includes(c.conv), plainOps.join(','));
      const optimizedOps = opsOf(optimized).filter((op) => op !== 'Const' && op !== 'Placeholder');
      assert.ok(!optimizedOps.includes('FusedBatchNormV3'), optimizedOps.join(','));
      assert.ok(!optimizedOps.includes('BiasAdd') && !optimizedOps.includes(c.activation), optimizedOps.join(','));
      assert.equal(optimizedOps.filter((op) => op !== 'Identity').length, 1, optimizedOps.join(','));

      // The folded weights and offset: the converter's arithmetic, bit for bit.
      const expected = expectedFold(built);
      const weights = decodedWeights(optimized);
      assert.deepEqual(bitsOf(weights['block/conv_weights'].values), bitsOf(expected.weights));
      assert.deepEqual(bitsOf(weights['block/conv_bn_offset'].values), bitsOf(expected.offset));

      // Both models compute the same thing on the same input.
      const x = values(prng(c.seed + 100), 36 * built.input[3], -2, 2);
      const a = await runOn(optimized, x);
      const b = await runOn(plain, x);
      assert.equal(a.length, b.length);
      const largest = b.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
      assert.ok(largest > 0.1, `the outputs are all near zero (${largest}): the case checks nothing`);
      let worst = 0;
      for (let i = 0; i < a.length; ++i) worst = Math.max(worst, Math.abs(a[i] - b[i]) / largest);
      assert.ok(worst <= 1e-5, `optimized and plain differ by ${worst} of the largest output`);
    });
  }
});

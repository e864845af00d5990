// TensorFlow.js's part of the summary: a TF.js graph model is a TensorFlow graph plus its
// manifest, so TensorFlow's part comes first, then the manifest's: where the model came from
// (format, generatedBy, convertedBy), its weights (dtype, shape, quantization, where they
// sit in the shards), the shard files and the user-defined metadata.
import { fact, formatBytes, formatCount, h, plural } from '../dom.mjs';
import { pagedList } from '../paged_list.mjs';
import { tfSummaryView } from '../tf/summary.mjs';

function shapeText(shape) {
  if (!shape?.length) return 'scalar';
  return `[${shape.map((d) => (d < 0 ? '?' : formatCount(d))).join(', ')}]`;
}

// {dtype: 'uint8', scale: 0.01, min: -1} -> "uint8 (scale 0.01, min -1)"
export function quantizationText(q) {
  if (!q) return null;
  const more = ['scale', 'min', 'original_dtype'].filter((k) => q[k] !== undefined).map((k) => `${k} ${q[k]}`);
  return more.length ? `${q.dtype} (${more.join(', ')})` : q.dtype;
}

function weightTable(weights) {
  return pagedList({
    items: weights,
    label: 'weights',
    pageSize: 12,
    tag: 'table.grid.tfjs-weights',
    header: h('tr', h('th', 'name'), h('th', 'dtype'), h('th', 'shape'), h('th', 'stored as'), h('th.num', 'bytes'), h('th', 'shard')),
    matches: (w, q) => w.name.toLowerCase().includes(q) || w.dtype.toLowerCase().includes(q),
    renderRow: (w) => h('tr',
      h('td', h('code', w.name)),
      h('td', w.dtype),
      h('td', shapeText(w.shape)),
      h('td', w.quantization ? quantizationText(w.quantization) : h('span.muted', w.dtype)),
      h('td.num', formatCount(w.bytes)),
      h('td', w.shards.map((s, i) => [i ? ', ' : '', h('code', s)]), h('span.muted', ` @${formatCount(w.offset)}`))),
  });
}

function shardList(shards) {
  return h('ul.folder-files', shards.map((s) => h('li', h('code', s.path),
    s.input !== s.path ? h('span.muted', `read from ${s.input}`) : null,
    h('span.muted', formatBytes(s.bytes)))));
}

function quantizationFact(tfjs) {
  const quantized = tfjs.weights.filter((w) => w.quantization);
  if (!quantized.length) return 'none: every weight is stored as its dtype';
  const kinds = [...new Set(quantized.map((w) => w.quantization.dtype))];
  return `${plural(quantized.length, 'weight')} stored as ${kinds.join(', ')}${tfjs.dequantized ? ', dequantized when read' : ''}`;
}

export function tfjsManifestView(tfjs) {
  const dtypes = {};
  for (const w of tfjs.weights) dtypes[w.dtype] = (dtypes[w.dtype] ?? 0) + 1;
  const weightBytes = tfjs.weights.reduce((sum, w) => sum + w.bytes, 0);
  const metadata = tfjs.userDefinedMetadata;
  return h('section.tfjs-summary', { id: 'tfjs-summary' },
    h('h3', 'TensorFlow.js manifest'),
    h('div.facts',
      fact('Format', tfjs.format, 'tfjs-format'),
      tfjs.generatedBy ? fact('TensorFlow', tfjs.generatedBy, 'generated-by') : null,
      tfjs.convertedBy ? fact('Converter', tfjs.convertedBy, 'converted-by') : null,
      fact('Weights', `${plural(tfjs.weights.length, 'weight')}, ${formatBytes(weightBytes)}: ${Object.entries(dtypes).map(([d, n]) => `${n} ${d}`).join(', ') || 'none'}`, 'tfjs-weights'),
      fact('Quantization', quantizationFact(tfjs), 'quantization'),
      fact('Shards', [plural(tfjs.shards.length, 'file'), shardList(tfjs.shards)], 'tfjs-shards'),
      tfjs.signatureSource ? fact('Signature', ['from ', h('code', tfjs.signatureSource)], 'signature-source') : null,
      tfjs.modelInitializer ? fact('Initializer', 'a model initializer graph (hash tables and the like)', 'initializer') : null,
      tfjs.unusedWeights?.length ? fact('Unused weights', tfjs.unusedWeights.map((n, i) => [i ? ', ' : '', h('code', n)]), 'unused-weights') : null,
      metadata && Object.keys(metadata).length
        ? fact('Metadata', h('code.wrap', JSON.stringify(metadata)), 'user-metadata')
        : null),
    tfjs.weights.length ? weightTable(tfjs.weights) : h('p.empty', 'The manifest lists no weights.'));
}

// TensorFlow's part (the graph), then the manifest's.
export function tfjsSummaryView(summary, hooks) {
  return h('div', tfSummaryView(summary, hooks), tfjsManifestView(summary.tfjs));
}

// The names TensorFlow's people use for the formats the core calls graph-def, meta-graph and
// saved-model, and TensorFlow.js's.
export const FORMAT_TITLES = {
  'meta-graph': 'MetaGraphDef',
  'graph-def': 'GraphDef',
  'saved-model': 'SavedModel',
  tfjs: 'TensorFlow.js',
  'tfjs-graph-model': 'TensorFlow.js graph model',
};

// 'saved-model-text' -> 'SavedModel, text'; unknown formats as the core names them.
export function formatTitle(format) {
  const [, kind, encoding] = /^(.*?)(?:-(text|binary))?$/.exec(format ?? '');
  const title = FORMAT_TITLES[kind] ?? format;
  return encoding ? `${title}, ${encoding}` : title;
}

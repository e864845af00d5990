// What to try when the TensorFlow reader turned a file down, from what the core's message
// says about it: an OpList (its first field is `op`), text that is no model, bytes that are no
// protobuf at all (every candidate message fails on its structure), or a protobuf that holds
// no graph.

// The parts of an UNKNOWN_FORMAT message that are TensorFlow's: "not a SavedModel: … at byte 0".
function candidateOffsets(message) {
  return [...message.matchAll(/not an? (?:SavedModel|MetaGraphDef|GraphDef): [^;]*? at byte (\d+)/g)]
    .map((m) => Number(m[1]));
}

function notFoundTips(phase, labelOf) {
  if (phase === 'load') {
    return { tips: ['Under “Read options”, set “SavedModel tags” to one of the tag sets the message lists, then open the file again.'] };
  }
  return {
    tips: [
      `${labelOf('exportScope')}: use a name prefix of the graph’s nodes (a node named “save/Const” is in scope “save”); ` +
        'the summary’s Scopes tab lists them.',
      `${labelOf('collectionList')}: pick them from the list of the model’s collections.`,
    ],
  };
}

// error: {code, message}; phase: 'load' or 'export'; labelOf(option): the export form's label
// of an option. Returns {title, tips} to show instead of the generic ones, or null.
export function tfErrorTips(error, { phase, labelOf }) {
  if (error?.code === 'NOT_FOUND') return notFoundTips(phase, labelOf);
  if (error?.code !== 'UNKNOWN_FORMAT') return null;
  const message = error.message ?? '';
  if (/first field 'op'/.test(message)) {
    return {
      title: 'This is an OpList (op definitions), not a model',
      tips: [
        `An OpList such as TensorFlow’s ops.pbtxt is not a graph: open the model first, then give this file ` +
          `to the export option “${labelOf('opRegistry')}”, which looks up op definitions and attr defaults in it.`,
      ],
    };
  }
  if (/the input is text with no protobuf field/.test(message)) {
    return {
      title: 'This text is not a model',
      tips: [
        'graphport reads text as protobuf text format (a .pbtxt GraphDef, MetaGraphDef or SavedModel) or as a ' +
          'TensorFlow.js model.json; the details say where each reader stopped.',
      ],
    };
  }
  // Bytes that parse as some protobuf leave fields the TensorFlow messages do not know;
  // random bytes fail all three candidates within their first fields instead.
  const offsets = candidateOffsets(message);
  if (offsets.length === 3 && !/of its fields are unknown/.test(message)) {
    return {
      title: 'This is not a protobuf',
      tips: [
        'Its first bytes are not a protobuf field, as a GraphDef, MetaGraphDef or SavedModel would begin: ' +
          'the file is something else (an archive, a checkpoint shard, an image, another tool’s format).',
        'A SavedModel is the folder: drop the whole folder, or open its saved_model.pb.',
      ],
    };
  }
  return {
    title: 'This protobuf holds no TensorFlow graph',
    tips: [
      'Files such as keras_metadata.pb, fingerprint.pb, checkpoints and variables/ hold no graph: ' +
        'open the saved_model.pb next to them instead, or drop the whole SavedModel folder.',
      'If you know what the file is, choose its format under Read options › “Read as” and open it again: ' +
        'the error then says exactly where the bytes stop making sense.',
    ],
  };
}

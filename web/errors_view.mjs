// Errors as a person wants them: what failed (the GraphportError code in words), where (the
// file, byte offset or line the message names) and what to try.
import { h } from './dom.mjs';

const CODES = {
  EMPTY_INPUT: {
    title: 'The file is empty',
    tips: [
      'Check that the file was copied or downloaded completely: it has zero bytes.',
      'In a SavedModel folder, open saved_model.pb (the variables/ files hold weights, not the graph).',
    ],
  },
  UNKNOWN_FORMAT: {
    title: 'This is not a graph format graphport reads',
    tips: [
      'graphport reads TensorFlow GraphDef (.pb, .pbtxt), MetaGraphDef (.meta) and SavedModel ' +
        '(saved_model.pb, saved_model.pbtxt), in binary or text format.',
      'Files such as keras_metadata.pb, fingerprint.pb, checkpoints and variables/ hold no graph: ' +
        'open the saved_model.pb next to them instead.',
      'If you know what the file is, choose its format under Read options › “Read as” and open it again: ' +
        'the error then says exactly where the bytes stop making sense.',
    ],
  },
  PARSE_ERROR: {
    title: 'The file is damaged or not what it seems',
    tips: [
      'A truncated download or copy is the usual cause: fetch the file again.',
      'If the format was forced under Read options › “Read as”, go back to “Detect automatically”.',
    ],
    textTips: [
      'The text is not valid protobuf text format at the line and column above: look there in an ' +
        'editor (a misspelt field name, a missing brace or quote).',
      'If the format was forced under Read options › “Read as”, go back to “Detect automatically”.',
    ],
  },
  TOO_LARGE: {
    title: 'The model is too large',
    tips: [
      'A protobuf message must be under 2 GiB, and the page’s WebAssembly memory is capped at 4 GiB.',
      'Close other tabs and try again, or use the native command-line tool (build/native/graphport).',
    ],
  },
  INVALID_OPTION: {
    title: 'An option is not valid',
    tips: [
      'Check the option the message names in the export form; its help text says what it takes.',
      'Message options (MetaInfoDef, SaverDef, GraphDef, op registry) take binary, text or JSON protobuf files.',
    ],
  },
  NOT_FOUND: {
    title: 'Something the options ask for is not in the model',
    tips: [
      'Export scope: use a name prefix of the graph’s nodes (a node named “save/Const” is in scope “save”).',
      'Collections: pick them from the list of the model’s collections.',
    ],
    loadTips: [
      'Under “Read options”, set “SavedModel tags” to one of the tag sets the message lists, then ' +
        'open the file again.',
    ],
  },
  UNSUPPORTED: {
    title: 'This input is valid but not supported yet',
    tips: ['Please report it with the file if you can share it.'],
  },
  IO_ERROR: {
    title: 'The file could not be read',
    tips: [
      'The browser lost access to the file (it was moved, changed or deleted after it was chosen). ' +
        'Open it again.',
    ],
  },
  INTERNAL: {
    title: 'graphport hit a bug',
    tips: ['Please report it, with the file and the options if you can share them.'],
  },
  WORKER: {
    title: 'The converter stopped unexpectedly',
    tips: [
      'The tab may have run out of memory. Close other tabs, reload the page and try again.',
      'If the WebAssembly build is missing, run `npm start` (or `bash scripts/build.sh wasm`).',
    ],
  },
};

export function describeCode(code) {
  return CODES[code] ?? CODES.INTERNAL;
}

// The place a message names: "at byte 1234", "line 3 column 7". When the message rules out
// several candidate formats, each has its own place.
export function locationOf(message) {
  const candidates = [...message.matchAll(/not an? (\w+): [^;]*?(?:at byte (\d+)|line (\d+) column (\d+))/g)];
  if (candidates.length > 1) {
    return candidates.map((m) => `as ${m[1]}: ${m[2] !== undefined ? `byte ${Number(m[2]).toLocaleString('en-US')}` : `line ${m[3]}, column ${m[4]}`}`).join(' · ');
  }
  const line = /line (\d+) column (\d+)/.exec(message);
  if (line) return `line ${line[1]}, column ${line[2]}`;
  const byte = /at byte (\d+)/.exec(message);
  if (byte) return `byte offset ${Number(byte[1]).toLocaleString('en-US')}`;
  return '';
}

// error: {code, message}; action: what was being done ("Opening x.pb"); file: the input;
// phase: 'load' or 'export', for the tips that depend on it.
export function errorView(error, { action, file, phase } = {}) {
  const info = describeCode(error.code);
  const text = /line \d+ column \d+/.test(error.message ?? '');
  const tips = (phase === 'load' && info.loadTips) || (text && info.textTips) || info.tips;
  const where = locationOf(error.message ?? '');
  return h('div.error', { role: 'alert' },
    action ? h('div.error-action', `${action} failed`) : null,
    h('div.error-head', h('strong', info.title), h('code.code', error.code ?? 'ERROR')),
    h('dl.error-body',
      file ? [h('dt', 'File'), h('dd', file)] : null,
      where ? [h('dt', 'Where'), h('dd', where)] : null,
      h('dt', 'Details'), h('dd.message', error.message ?? String(error))),
    h('div.tips', h('strong', 'What to try'),
      h('ul', tips.map((t) => h('li', t)))));
}

// A notice for inputs the core does not read yet (TensorFlow.js, MegEngine).
export function unsupportedView({ title, body, files }) {
  return h('div.notice', { role: 'status' },
    h('div.error-head', h('strong', title), h('code.code', 'NOT YET SUPPORTED')),
    h('p', body),
    files?.length ? h('p.muted', `Given: ${files.join(', ')}`) : null);
}

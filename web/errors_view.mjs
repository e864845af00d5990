// Errors as a person wants them: what failed (the GraphportError code in words, keyed by the
// core's codes), where (the
// error's file, offset, line and column, node, operator and option fields) and what to try.
import { formatCount, h } from './dom.mjs';

const CODES = {
  EMPTY_INPUT: {
    title: 'The file is empty',
    tips: [
      'Check that the file was copied or downloaded completely: it has zero bytes.',
      'In a SavedModel folder, open saved_model.pb (the variables/ files hold weights, not the graph).',
    ],
  },
  UNKNOWN_FORMAT: {
    title: 'This is not a model graphport reads',
    tips: [
      'The details say, for each kind of model graphport knows, why the input is not one of them.',
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
      'Options read from a file take protobuf in binary, text or JSON format.',
    ],
  },
  NOT_FOUND: {
    title: 'Something the options ask for is not in the model',
    tips: ['Check the option the message names in the export form against the model’s summary.'],
    loadTips: [
      'Under “Read options”, change the option the message names to one of the values it lists, then ' +
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

// The codes the page has its own words for: every code of the core (gp.errorCodes(); a test
// holds the two lists together) and WORKER, the page's own (its Worker stopped).
export function describedCodes() {
  return Object.keys(CODES);
}

export function describeCode(code) {
  return CODES[code] ?? CODES.INTERNAL;
}

// The error's location fields as rows: [[label, text], ...].
export function whereRows(error) {
  const rows = [];
  if (error.file) rows.push(['File', error.file]);
  if (error.line) {
    rows.push(['Where', error.column ? `line ${error.line}, column ${error.column}` : `line ${error.line}`]);
  } else if (Number.isInteger(error.offset) && error.offset >= 0) {
    rows.push(['Where', `byte offset ${formatCount(error.offset)}`]);
  }
  if (error.node) rows.push(['Node', error.node]);
  if (error.operator) rows.push(['Operator', error.operator]);
  if (error.option) rows.push(['Option', error.option]);
  return rows;
}

// error: {code, message, file, offset, ...}; action: what was being done ("Opening x.pb");
// file: the input, when the error names none; phase: 'load' or 'export', for the tips that
// depend on it; familyTips: {title, tips} from the family's page (web/families.mjs), or null.
export function errorView(error, { action, file, phase, familyTips } = {}) {
  const info = describeCode(error.code);
  const text = Boolean(error.line);
  const tips = familyTips?.tips ?? ((phase === 'load' && info.loadTips) || (text && info.textTips) || info.tips);
  const rows = whereRows({ ...error, file: error.file ?? file });
  return h('div.error', { role: 'alert' },
    action ? h('div.error-action', `${action} failed`) : null,
    h('div.error-head', h('strong', familyTips?.title ?? info.title), h('code.code', error.code ?? 'ERROR')),
    h('dl.error-body',
      rows.map(([label, value]) => [h('dt', label), h('dd', { dataset: { where: label.toLowerCase() } }, value)]),
      h('dt', 'Details'), h('dd.message', error.message ?? String(error))),
    h('div.tips', h('strong', 'What to try'),
      h('ul', tips.map((t) => h('li', t)))));
}

// The core's UNSUPPORTED answer for an input of a family it reads, but not of this kind (a
// Keras layers model, a legacy MegBrain file): titled with the family its message names,
// with the message as it is.
export function unsupportedView(error, { familyTitle, files }) {
  const title = familyTitle ? `This ${familyTitle} input is not supported` : describeCode('UNSUPPORTED').title;
  return h('div.notice.unsupported', { role: 'status', id: 'unsupported' },
    h('div.error-head', h('strong', title), h('code.code', error.code)),
    h('p.message', error.message),
    h('p.muted', familyTitle
      ? `graphport reads ${familyTitle} models, but not this kind: the message above says why.`
      : 'Please report it with the file if you can share it.'),
    files?.length ? h('p.muted.given', `Given: ${files.join(', ')}`) : null);
}

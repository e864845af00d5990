// The page: open a model (drop, file picker, folder, sample), show its summary, export it
// with the options of its family's schema. All model work happens in web/worker.mjs, and the
// core decides what the given files are; this thread only handles the page, so it stays
// responsive with big models. Nothing here knows a family's options: they come from the
// schemas, and a family's own parts from web/families.mjs.
import { clear, formatBytes, formatCount, formatSeconds, h, plural } from './dom.mjs';
import { errorView, unsupportedView } from './errors_view.mjs';
import { exportForm } from './export_form.mjs';
import { previewFindings, previewMarks, previewView } from './export_preview.mjs';
import { familyPage } from './families.mjs';
import { inputCause } from './input_causes.mjs';
import { graphView } from './graph_view.mjs';
import { graphChoices, inputName, namedFamily, namedSet } from './input_files.mjs';
import { loadForm } from './load_form.mjs';
import { PreflightRequests } from './preflight_requests.mjs';
import { summaryView } from './summary_view.mjs';
import { WorkerClient } from './worker_client.mjs';

const $ = (id) => document.getElementById(id);
const ui = {
  engine: $('engine'),
  activity: $('activity'),
  activityLabel: $('activity-label'),
  activityDetail: $('activity-detail'),
  progress: $('progress'),
  cancel: $('cancel'),
  dropzone: $('dropzone'),
  fileInput: $('file-input'),
  folderInput: $('folder-input'),
  sample: $('sample'),
  readForm: $('read-form'),
  reload: $('reload'),
  openMessage: $('open-message'),
  summaryPanel: $('summary-panel'),
  intro: $('intro'),
  resultPanel: $('result-panel'),
  exportApi: $('export-api'),
};

const app = {
  current: null, // {entries: [{file, path}], note} of the model shown (or being opened)
  summary: null,
  schemas: [], // gp.optionSchema(): every family's, from the worker
  load: null, // the read options' form, once the schemas are known
  busy: null, // null | 'load' | 'export'
  urls: [], // object URLs of the current downloads
  settled: 0, // opens finished (loaded, failed, refused or cancelled): tests wait on it
  exported: 0, // exports finished, the same way
  checked: 0, // pre-flight outcomes shown, the same way
  previewed: 0, // export previews shown, the same way
  preview: null, // the export preview shown (index.d.ts ExportPreview), or null
};

// ---------------------------------------------------------------------------------------
// The pre-flight and the export preview: model.check() of the plan's options (when the
// family's page calls for one) and model.preview() (always), run one after the other as one
// request whenever the model or the options change (web/preflight_requests.mjs says how it
// takes turns with loads and exports). The family's page says which check its plan calls for
// and how it reads; the preview shows its counts per option and marks the Graph tab.

// Focusable: on a narrow screen it scrolls within the sticky footer, by keyboard too.
const preflightBox = h('section.preflight', { id: 'preflight', 'aria-live': 'polite', 'aria-label': 'Pre-flight', tabindex: '0', hidden: true });
const previewBox = h('section.preflight.export-preview', { id: 'export-preview', 'aria-live': 'polite', 'aria-label': 'Export preview', tabindex: '0', hidden: true });
$('export-footer').prepend(preflightBox, previewBox);
let preflightKey = null; // the request shown or coming, as JSON: the same again is no change (a new model clears it)
let graph = null; // the Graph tab's view of the model shown

// One outcome of a worker request, never a rejection: the check's failure must not hide the
// preview's result, nor the other way round.
const settle = (promise) => promise.then((report) => ({ report }), (error) => ({ error }));

const preflight = new PreflightRequests({
  run: async ({ check, preview }) => ({
    check: check ? await settle(worker.request({ type: 'check', options: check })) : null,
    preview: preview ? await settle(worker.request({ type: 'preview', options: preview })) : null,
  }),
  onState: (state) => {
    if (state === 'idle') return;
    const page = familyPage(app.summary?.family).preflight;
    // The outcome shown no longer holds: it goes, and screen readers hear the next one whole.
    if (!preflightBox.hidden && page) {
      preflightBox.dataset.state = state;
      preflightBox.setAttribute('aria-busy', 'true');
      clear(preflightBox, page.view({ state }));
    }
    if (!previewBox.hidden) {
      previewBox.dataset.state = state;
      previewBox.setAttribute('aria-busy', 'true');
      clear(previewBox, previewView({ state }));
    }
  },
  onResult: ({ options, report, error }) => {
    const page = familyPage(app.summary?.family).preflight;
    const outcomes = report ?? { check: options.check ? { error } : null, preview: options.preview ? { error } : null };
    if (outcomes.check && page) {
      const findings = page.findings({ options: options.check, ...outcomes.check });
      preflightBox.dataset.state = findings.state;
      preflightBox.removeAttribute('aria-busy');
      clear(preflightBox, page.view(findings));
      app.checked += 1;
    }
    if (outcomes.preview) {
      const findings = previewFindings(outcomes.preview);
      previewBox.dataset.state = findings.state;
      previewBox.removeAttribute('aria-busy');
      clear(previewBox, previewView(findings));
      app.preview = outcomes.preview.report ?? null;
      graph?.setMarks(app.preview ? previewMarks(app.preview) : null);
      app.previewed += 1;
    }
  },
});

function onPlan(plan) {
  const page = familyPage(app.summary?.family).preflight;
  const check = plan && page ? page.request(plan, app.summary) : null;
  const preview = plan && !plan.errors.length ? { ...plan.options } : null;
  const request = check || preview ? { check, preview } : null;
  const key = request ? JSON.stringify(request) : null;
  if (key === preflightKey) return;
  preflightKey = key;
  preflightBox.hidden = !check;
  previewBox.hidden = !preview;
  if (!check) {
    preflightBox.removeAttribute('aria-busy');
    clear(preflightBox);
  }
  if (!preview) {
    previewBox.removeAttribute('aria-busy');
    clear(previewBox);
    app.preview = null;
    graph?.setMarks(null);
  }
  if (!request) {
    preflight.cancel();
    return;
  }
  preflight.want(request);
}

const form = exportForm({
  onExport: runExport,
  onPlan,
  // Files already exported no longer match the options once they change.
  onChange: () => {
    if (ui.resultPanel.hidden || ui.resultPanel.classList.contains('stale')) return;
    ui.resultPanel.classList.add('stale');
    ui.resultPanel.prepend(h('p.stale-note', 'The options changed since this export: export again to apply them.'));
  },
});
$('export-form').append(form.element);
$('export-actions').append(form.actions);

function familySchema(family) {
  return app.schemas.find((f) => f.family === family) ?? null;
}

// The export form of a family: its schema, its page parts, the seed's API in the heading.
function showFamilyForm(family) {
  const schema = familySchema(family);
  if (!schema) return;
  form.setSchema(schema.export, familyPage(family));
  clear(ui.exportApi, schema.export.api ? ['with the options of ', h('code', schema.export.api)] : `${schema.title} export`);
}

// The schemas arrive once, with the first 'ready'; the form starts as the first family's
// that has export options, until a model of another family is opened.
function onSchemas(schemas) {
  if (!schemas || app.schemas.length) return;
  app.schemas = schemas;
  app.load = loadForm(schemas, familyPage);
  clear(ui.readForm, app.load.element);
  const first = schemas.find((f) => f.export.options.length) ?? schemas[0];
  if (first) showFamilyForm(first.family);
}

const worker = new WorkerClient(new URL('./worker.mjs', import.meta.url), ({ state, message, schemas }) => {
  if (state === 'ready') onSchemas(schemas);
  ui.engine.dataset.state = state;
  ui.engine.textContent = { starting: 'converter starting…', ready: 'converter ready', failed: 'converter failed' }[state];
  if (state === 'failed') {
    clear(ui.openMessage, errorView({ code: 'WORKER', message }, { action: 'Starting the converter' }));
  }
});

// ---------------------------------------------------------------------------------------
// Activity: a progress bar and Cancel for whatever the worker is doing.

function setBusy(kind, label) {
  app.busy = kind;
  const busy = kind !== null;
  ui.activity.hidden = !busy;
  for (const el of [ui.fileInput, ui.folderInput, ui.sample, ui.reload]) el.disabled = busy || (el === ui.reload && !app.current);
  ui.dropzone.classList.toggle('disabled', busy);
  document.body.classList.toggle('busy', busy);
  form.setBusy(busy);
  if (busy) {
    ui.activityLabel.textContent = label;
    ui.activityDetail.textContent = '';
    ui.progress.removeAttribute('value');
  }
}

function onProgress({ phase, done, total, file }) {
  const verb = { read: 'Reading', write: 'Writing', zip: 'Zipping' }[phase];
  ui.activityLabel.textContent = phase === 'zip' ? 'Zipping the outputs' : `${verb} ${file}`;
  if (total) {
    ui.progress.max = total;
    ui.progress.value = done;
    ui.activityDetail.textContent = `${formatBytes(done)} of ${formatBytes(total)}`;
  } else {
    ui.progress.removeAttribute('value');
    ui.activityDetail.textContent = done ? `${formatBytes(done)} written` : '';
  }
}

ui.cancel.addEventListener('click', () => {
  if (!app.busy) return;
  const was = app.busy;
  preflight.cancel();
  worker.cancel();
  setBusy(null);
  showUnloaded();
  const again = app.current
    ? h('button.small', { type: 'button', onclick: () => openSet(app.current.entries, app.current.note) }, `Open ${inputName(app.current.entries)} again`)
    : null;
  const text = was === 'load'
    ? 'Opening was cancelled; nothing is loaded.'
    : 'The export was cancelled. Stopping it also unloaded the model.';
  clear(ui.openMessage, h('div.notice.cancelled', { role: 'status', id: 'cancelled' }, h('span', text), again));
});

// ---------------------------------------------------------------------------------------
// Opening a model.

function showUnloaded() {
  app.summary = null;
  ui.summaryPanel.hidden = true;
  ui.intro.hidden = false;
  clear(ui.summaryPanel);
  clearResults();
  form.setModel(null);
}

function clearResults() {
  for (const url of app.urls) URL.revokeObjectURL(url);
  app.urls = [];
  ui.resultPanel.hidden = true;
  ui.resultPanel.classList.remove('stale');
  clear(ui.resultPanel);
}

// The family parts' tips for an error: those of the loaded family, or (for a load) the first
// family's that has some.
function familyTips(error, phase) {
  const families = phase === 'export' && app.summary ? [app.summary.family] : app.schemas.map((f) => f.family);
  for (const family of families) {
    const tips = familyPage(family).errorTips?.(error, { phase, labelOf: form.labelOf });
    if (tips) return tips;
  }
  return null;
}

// Why these files were read, when several were given.
function readNote(entries, summary) {
  if (entries.length < 2) return '';
  const read = summary.inputs?.length ? summary.inputs : [];
  const main = read[0] ?? 'one file';
  const more = read.length > 1 ? ` and ${plural(read.length - 1, 'more file')} of the model` : '';
  return `Read ${main}${more}, of the ${plural(entries.length, 'file')} given.`;
}

function showChoice(entries, error) {
  const choices = graphChoices(entries, error);
  clear(ui.openMessage, h('div.notice.choose', { id: 'choose' },
    h('p', `${plural(entries.length, 'file')} were given and graphport cannot tell which one holds the model: pick it.`),
    h('ul.choose-list', choices.map((entry) => h('li',
      h('button.small', { type: 'button', onclick: () => openSet([entry]) }, 'Open'),
      h('code', entry.path), h('span.muted', formatBytes(entry.file.size))))),
    h('details.core-detail', h('summary', 'What graphport said'), h('p', error.message))));
}

// entries: the set as load() got it; name: the set's name.
function showLoadError(name, entries, error) {
  const cause = inputCause(error);
  if (cause) {
    clear(ui.openMessage, errorView(error, { action: `Opening ${name}`, file: entries.length === 1 ? name : null,
      phase: 'load', familyTips: cause }));
  } else if (error?.code === 'UNSUPPORTED') {
    const family = namedFamily(error.message, app.schemas);
    clear(ui.openMessage, unsupportedView(error, { familyTitle: family?.title, files: app.current.entries.map((e) => e.path) }));
  } else if (graphChoices(entries, error).length > 1) {
    showChoice(entries, error);
  } else {
    clear(ui.openMessage, errorView(error, { action: `Opening ${name}`, file: entries.length === 1 ? name : null,
      phase: 'load', familyTips: familyTips(error, 'load') }));
    if (error?.code === 'NOT_FOUND') document.getElementById('read-options').open = true;
  }
}

// Hands every given file to the worker; the core decides what they are and which to read.
async function openSet(entries, note = '') {
  if (app.busy) return;
  if (!entries.length) {
    clear(ui.openMessage, h('p.notice', 'No file was given.'));
    app.settled += 1;
    return;
  }
  app.current = { entries, note };
  showUnloaded();
  const { name, entries: inSet } = namedSet(entries);
  const bytes = entries.reduce((sum, e) => sum + e.file.size, 0);
  clear(ui.openMessage, h('p.opening', { id: 'opening' },
    h('span.spinner', { 'aria-hidden': 'true' }),
    `Opening ${name} (${formatBytes(bytes)})…`,
    bytes > 20e6 ? h('span.muted', ' Progress and Cancel are at the top of the page.') : null));
  setBusy('load', `Reading ${name}`);
  const options = { ...(app.load?.values() ?? {}), name };
  try {
    const files = inSet.map(({ path, file }) => ({ path, file }));
    const { summary, seconds } = await preflight.foreground(() => worker.request({ type: 'load', files, options }, { onProgress }));
    app.summary = summary;
    const page = familyPage(summary.family);
    clear(ui.openMessage);
    ui.summaryPanel.hidden = false;
    ui.intro.hidden = true;
    showFamilyForm(summary.family);
    clear(ui.summaryPanel, summaryView(summary, {
      file: { name, size: bytes },
      note: note || readNote(entries, summary),
      seconds,
      page,
      hooks: {
        onSetLoadOption: (option, value) => {
          app.load?.set(option, value);
          openSet(entries, note);
        },
        onSetExportOption: (option, value) => form.setOption(option, value),
        summaryPage: (request) => worker.query({ type: 'summaryPage', ...request }),
      },
    }));
    graph = graphView({ request: (message) => worker.query(message) });
    ui.summaryPanel.append(graph);
    form.setModel(summary);
    document.title = `${name} (${(page.formatTitle ?? String)(summary.format)}) · graphport`;
  } catch (error) {
    if (error?.code === 'CANCELLED') return;
    showLoadError(name, inSet, error);
    document.title = 'graphport';
  } finally {
    if (app.busy === 'load') setBusy(null);
    app.settled += 1;
  }
}

function fromFileList(files) {
  return [...files].map((file) => ({ file, path: file.webkitRelativePath || file.name }));
}

ui.fileInput.addEventListener('change', () => {
  openSet(fromFileList(ui.fileInput.files));
  ui.fileInput.value = '';
});
ui.folderInput.addEventListener('change', () => {
  openSet(fromFileList(ui.folderInput.files));
  ui.folderInput.value = '';
});

ui.sample.addEventListener('click', async () => {
  const url = new URL('./samples/half_plus_two.pbtxt', import.meta.url);
  try {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const file = new File([await response.blob()], 'half_plus_two.pbtxt', { type: 'text/plain' });
    openSet([{ file, path: file.name }], 'The sample: y = 0.5 · x + 2, a MetaGraphDef written by hand in text format.');
  } catch (e) {
    clear(ui.openMessage, errorView({ code: 'IO_ERROR', message: `the sample could not be fetched from ${url}: ${e.message}` }, { action: 'Opening the sample' }));
  }
});

ui.reload.addEventListener('click', () => {
  if (app.current) openSet(app.current.entries, app.current.note);
});

// Drag and drop, anywhere on the page; folders are walked (a SavedModel directory).
async function entriesFromDrop(dataTransfer) {
  const items = [...(dataTransfer.items ?? [])];
  const roots = items.map((item) => item.webkitGetAsEntry?.()).filter(Boolean);
  if (!roots.length) return fromFileList(dataTransfer.files);
  const out = [];
  async function walk(entry, prefix) {
    if (entry.isFile) {
      const file = await new Promise((resolve, reject) => entry.file(resolve, reject));
      out.push({ file, path: prefix + file.name });
    } else if (entry.isDirectory) {
      const reader = entry.createReader();
      for (;;) {
        const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
        if (!batch.length) break;
        for (const child of batch) await walk(child, `${prefix}${entry.name}/`);
      }
    }
  }
  for (const root of roots) await walk(root, '');
  return out;
}

let dragDepth = 0;
document.addEventListener('dragenter', (e) => {
  e.preventDefault();
  dragDepth += 1;
  ui.dropzone.classList.add('dragging');
});
document.addEventListener('dragleave', () => {
  dragDepth = Math.max(0, dragDepth - 1);
  if (!dragDepth) ui.dropzone.classList.remove('dragging');
});
document.addEventListener('dragover', (e) => {
  e.preventDefault();
  if (e.dataTransfer) e.dataTransfer.dropEffect = app.busy ? 'none' : 'copy';
});
document.addEventListener('drop', async (e) => {
  e.preventDefault();
  dragDepth = 0;
  ui.dropzone.classList.remove('dragging');
  if (app.busy || !e.dataTransfer) return;
  openSet(await entriesFromDrop(e.dataTransfer));
});

// ---------------------------------------------------------------------------------------
// Exporting.

function download(name, blob, label, id) {
  const url = URL.createObjectURL(blob);
  app.urls.push(url);
  return h('a.button', { href: url, download: name, dataset: { download: name }, id }, label);
}

// The files of an export, each with its size and a download; a name may hold folders
// (variables/variables.index): it breaks at the slashes, never inside a word unless it must.
// A table whose rows the style sheet lays out as grids, so narrow screens stack them.
function outputRows(files) {
  return h('table.outputs', { id: 'outputs' }, h('tbody', files.map((f, i) => h('tr',
    h('td.name', h('code', f.name.split('/').map((part, j, all) => [part, j < all.length - 1 ? ['/', h('wbr')] : null]))),
    h('td.num.muted', f.size === 0 && i > 0 ? 'empty' : formatBytes(f.size)),
    h('td.action', download(f.name, f.blob, 'Download', `download-${i}`))))));
}

// "MetaGraphDef, binary · 12 nodes · 4 ms": each family's info says what it has (a TF.js
// model no node count, a MegEngine dump its nr_opr and no encoding).
function resultLine(info, formatTitle, seconds) {
  const what = [info.encoding ? `${formatTitle(info.format)}, ${info.encoding}` : formatTitle(info.format)];
  if (info.nodeCount !== undefined) what.push(plural(info.nodeCount, 'node'));
  else if (info.nr_opr !== undefined) what.push(plural(info.nr_opr, 'operator'));
  else if (info.weights !== undefined) what.push(plural(info.weights, 'weight'));
  what.push(formatSeconds(seconds));
  return what.join(' · ');
}

// The output read back (the worker loads the written files again): its counts beside the
// input's, so the user sees what a reader of the output finds.
function readBackView(back) {
  if (!back) return null;
  if (back.error) {
    return h('p.read-back', { id: 'read-back' }, h('strong', 'Read back: '), `the output does not load: ${back.error.code}: ${back.error.message}`);
  }
  const before = new Map(app.summary?.counts ?? []);
  const opsBefore = Object.keys(app.summary?.ops ?? {}).length;
  const rows = [...back.counts.filter(([label]) => before.has(label)).map(([label, n]) => [label, before.get(label), n]),
    ['op types', opsBefore, back.ops]];
  return h('table.read-back', { id: 'read-back' },
    h('caption', 'Read back: the output loaded again'),
    h('thead', h('tr', h('th', { scope: 'col' }, ''), h('th', { scope: 'col' }, 'Input'), h('th', { scope: 'col' }, 'Output'))),
    h('tbody', rows.map(([label, a, b]) => h('tr', { dataset: { field: label.replace(/\s+/g, '-') } },
      h('th', { scope: 'row' }, label), h('td', formatCount(a)), h('td', formatCount(b))))));
}

function showResult(result) {
  const { files, zip, info, seconds } = result;
  const page = familyPage(app.summary?.family);
  const formatTitle = page.formatTitle ?? String;
  ui.resultPanel.hidden = false;
  clear(ui.resultPanel,
    h('div.result-head', h('strong', '✓ Exported'),
      h('span.muted', resultLine(info, formatTitle, seconds))),
    info.notes?.length ? h('ul.export-notes', { id: 'export-notes' }, info.notes.map((n) => h('li', n))) : null,
    zip ? h('div.zip', download(zip.name, zip.blob, zip.folder ? `Download the folder as ${zip.name}` : `Download all as ${zip.name}`, 'download-zip'),
      h('span.muted', `${formatBytes(zip.size)}, ${plural(files.length, 'file')}`)) : null,
    readBackView(result.readBack),
    outputRows(files),
    page.exportInfoView
      ? h('details.export-info', { ontoggle: (e) => e.target.open && e.target.scrollIntoView({ block: 'nearest' }) },
        h('summary', 'What was exported'), page.exportInfoView(info, { labelOf: form.labelOf }))
      : null);
  ui.resultPanel.scrollIntoView({ block: 'nearest' });
}

async function runExport(plan) {
  if (app.busy || !app.summary) return;
  clearResults();
  // A check that runs is finished first (the worker runs one request at a time); the export's
  // progress then takes the label over.
  setBusy('export', preflight.running ? 'Finishing the pre-flight check, then exporting' : 'Exporting');
  try {
    showResult(await preflight.foreground(() => worker.request({ type: 'export', options: plan.options }, { onProgress })));
  } catch (error) {
    if (error?.code === 'CANCELLED') return;
    ui.resultPanel.hidden = false;
    clear(ui.resultPanel, errorView(error, { action: 'Export', phase: 'export', familyTips: familyTips(error, 'export') }));
    ui.resultPanel.scrollIntoView({ block: 'nearest' });
  } finally {
    if (app.busy === 'export') setBusy(null);
    app.exported += 1;
  }
}

// For the end-to-end tests and the curious: the state of the page.
window.graphportPage = {
  get ready() { return worker.ready; },
  get busy() { return app.busy; },
  get summary() { return app.summary; },
  get settled() { return app.settled; },
  get exported() { return app.exported; },
  get checked() { return app.checked; },
  get previewed() { return app.previewed; },
  get preview() { return app.preview; },
  get schemas() { return app.schemas; },
};
setBusy(null);

// The page: open a model (drop, file picker, folder, sample), show its summary, export it
// with the options of tf.train.export_meta_graph. All graph work happens in web/worker.mjs;
// this thread only handles the page, so it stays responsive with big models.
import { clear, formatBytes, formatCount, formatSeconds, h, plural } from './dom.mjs';
import { errorView, unsupportedView } from './errors_view.mjs';
import { exportForm } from './export_form.mjs';
import { UNSUPPORTED, chooseInput, sniffUnsupported } from './input_files.mjs';
import { formatName, summaryView } from './summary_view.mjs';
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
  readKind: $('read-kind'),
  readEncoding: $('read-encoding'),
  readTags: $('read-tags'),
  reload: $('reload'),
  openMessage: $('open-message'),
  summaryPanel: $('summary-panel'),
  intro: $('intro'),
  resultPanel: $('result-panel'),
};

const app = {
  current: null, // {entry: {file, path}, note} of the model shown (or being opened)
  summary: null,
  busy: null, // null | 'load' | 'export'
  urls: [], // object URLs of the current downloads
  settled: 0, // opens finished (loaded, failed, refused or cancelled): tests wait on it
  exported: 0, // exports finished, the same way
};

const form = exportForm({
  onExport: runExport,
  // Files already exported no longer match the options once they change.
  onChange: () => {
    if (ui.resultPanel.hidden || ui.resultPanel.classList.contains('stale')) return;
    ui.resultPanel.classList.add('stale');
    ui.resultPanel.prepend(h('p.stale-note', 'The options changed since this export: export again to apply them.'));
  },
});
$('export-form').append(form.element);
$('export-actions').append(form.actions);

const worker = new WorkerClient(new URL('./worker.mjs', import.meta.url), ({ state, message }) => {
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
  worker.cancel();
  setBusy(null);
  showUnloaded();
  const again = app.current
    ? h('button.small', { type: 'button', onclick: () => openEntry(app.current.entry, app.current.note) }, `Open ${app.current.entry.path} again`)
    : null;
  const text = was === 'load'
    ? 'Opening was cancelled; nothing is loaded.'
    : 'The export was cancelled. Stopping it also unloaded the model.';
  clear(ui.openMessage, h('div.notice.cancelled', { role: 'status', id: 'cancelled' }, h('span', text), again));
});

// ---------------------------------------------------------------------------------------
// Opening a model.

function loadOptions() {
  const options = {};
  const kind = ui.readKind.value;
  if (kind !== 'auto') options.format = ui.readEncoding.value ? `${kind}-${ui.readEncoding.value}` : kind;
  const tags = ui.readTags.value.split(',').map((t) => t.trim()).filter(Boolean);
  if (tags.length && !(tags.length === 1 && tags[0] === 'serve')) options.tags = tags;
  return options;
}

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

async function openEntry(entry, note = '') {
  if (app.busy) return;
  app.current = { entry, note };
  showUnloaded();
  clear(ui.openMessage, h('p.opening', { id: 'opening' },
    h('span.spinner', { 'aria-hidden': 'true' }),
    `Opening ${entry.path} (${formatBytes(entry.file.size)})…`,
    entry.file.size > 20e6 ? h('span.muted', ' Progress and Cancel are at the top of the page.') : null));
  setBusy('load', `Reading ${entry.path}`);
  const options = { ...loadOptions(), name: entry.path };
  try {
    const { summary, seconds } = await worker.request({ type: 'load', file: entry.file, options }, { onProgress });
    app.summary = summary;
    clear(ui.openMessage);
    ui.summaryPanel.hidden = false;
    ui.intro.hidden = true;
    clear(ui.summaryPanel, summaryView(summary, {
      file: { name: entry.path, size: entry.file.size },
      note,
      seconds,
      onSelectTags: (tags) => {
        ui.readTags.value = tags.join(', ');
        openEntry(entry, note);
      },
      onPickScope: (name) => form.setScope(name),
    }));
    form.setModel(summary);
    document.title = `${entry.path} (${formatName(summary.format)}) · graphport`;
  } catch (error) {
    if (error?.code === 'CANCELLED') return;
    const which = error?.code === 'UNKNOWN_FORMAT' ? await sniffUnsupported(entry.file).catch(() => null) : null;
    if (which) {
      clear(ui.openMessage, unsupportedView({ ...UNSUPPORTED[which], files: [entry.path] }),
        h('details.core-detail', h('summary', 'What the TensorFlow reader said'), h('p', error.message)));
    } else {
      clear(ui.openMessage, errorView(error, { action: `Opening ${entry.path}`, file: entry.path, phase: 'load' }));
      if (error?.code === 'NOT_FOUND') document.getElementById('read-options').open = true;
    }
    document.title = 'graphport';
  } finally {
    if (app.busy === 'load') setBusy(null);
    app.settled += 1;
  }
}

function openEntries(entries) {
  if (app.busy) return;
  const decision = chooseInput(entries);
  if (decision.kind !== 'load') app.settled += 1;
  switch (decision.kind) {
    case 'none':
      clear(ui.openMessage, h('p.notice', 'No file was given.'));
      return;
    case 'load':
      openEntry(decision.entry, decision.note);
      return;
    case 'unsupported':
      showUnloaded();
      app.current = null;
      ui.reload.disabled = true;
      clear(ui.openMessage, unsupportedView({ ...UNSUPPORTED[decision.which], files: decision.paths }));
      return;
    case 'choose':
      showUnloaded();
      clear(ui.openMessage, h('div.notice.choose', { id: 'choose' },
        h('p', decision.note),
        h('ul.choose-list', decision.entries.map((entry) => h('li',
          h('button.small', { type: 'button', onclick: () => openEntry(entry) }, 'Open'),
          h('code', entry.path), h('span.muted', formatBytes(entry.file.size)))))));
      return;
    default:
  }
}

function fromFileList(files) {
  return [...files].map((file) => ({ file, path: file.webkitRelativePath || file.name }));
}

ui.fileInput.addEventListener('change', () => {
  openEntries(fromFileList(ui.fileInput.files));
  ui.fileInput.value = '';
});
ui.folderInput.addEventListener('change', () => {
  openEntries(fromFileList(ui.folderInput.files));
  ui.folderInput.value = '';
});

ui.sample.addEventListener('click', async () => {
  const url = new URL('./samples/half_plus_two.pbtxt', import.meta.url);
  try {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const file = new File([await response.blob()], 'half_plus_two.pbtxt', { type: 'text/plain' });
    openEntry({ file, path: file.name }, 'The sample: y = 0.5 · x + 2, a MetaGraphDef written by hand in text format.');
  } catch (e) {
    clear(ui.openMessage, errorView({ code: 'IO_ERROR', message: `the sample could not be fetched from ${url}: ${e.message}` }, { action: 'Opening the sample' }));
  }
});

ui.readKind.addEventListener('change', () => {
  ui.readEncoding.disabled = ui.readKind.value === 'auto';
});
ui.reload.addEventListener('click', () => {
  if (app.current) openEntry(app.current.entry, app.current.note);
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
  openEntries(await entriesFromDrop(e.dataTransfer));
});

// ---------------------------------------------------------------------------------------
// Exporting.

function download(name, blob, label, id) {
  const url = URL.createObjectURL(blob);
  app.urls.push(url);
  return h('a.button', { href: url, download: name, dataset: { download: name }, id }, label);
}

function infoList(info) {
  const rows = [];
  const row = (label, value) => rows.push(h('dt', label), h('dd', value));
  const names = (list) => list.length ? list.map((n) => h('code', n)).reduce((acc, el) => [...acc, acc.length ? ', ' : '', el], []) : h('span.muted', 'none');
  row('Nodes', formatCount(info.nodeCount));
  if (info.format !== 'graph-def') {
    row('Ops in stripped_op_list', info.strippedOpList?.length ? formatCount(info.strippedOpList.length) : h('span.muted', 'none'));
    if (info.unregisteredOps?.length) row('Ops with no definition', [names(info.unregisteredOps), h('div.muted', 'left out of stripped_op_list: no op registry defines them (add one under Graph › Op registry)')]);
  }
  if (info.format !== 'graph-def') row('Collections', names(info.collections ?? []));
  if (info.unboundInputs?.length) row('Unbound inputs', names(info.unboundInputs));
  if (info.excludedNodes?.length) row('Removed saver nodes', names(info.excludedNodes));
  if (info.strippedDefaultAttrs !== undefined) row('Default attrs stripped', formatCount(info.strippedDefaultAttrs));
  if (info.unknownDefaultOps?.length) row('Ops with unknown defaults', [names(info.unknownDefaultOps), h('div.muted', 'their attrs were kept')]);
  if (info.debugInfoNodes !== undefined) row('Nodes with debug info', formatCount(info.debugInfoNodes));
  return h('dl.info', rows);
}

function showResult(result) {
  const { files, zip, info, seconds } = result;
  ui.resultPanel.hidden = false;
  clear(ui.resultPanel,
    h('div.result-head', h('strong', '✓ Exported'),
      h('span.muted', `${formatName(info.format)}, ${info.encoding} · ${plural(info.nodeCount, 'node')} · ${formatSeconds(seconds)}`)),
    h('table.outputs', { id: 'outputs' }, files.map((f, i) => h('tr',
      h('td', h('code', f.name)),
      h('td.num.muted', f.size === 0 && i > 0 ? 'empty: the input holds no stack traces' : formatBytes(f.size)),
      h('td.action', download(f.name, f.blob, 'Download', `download-${i}`))))),
    zip ? h('div.zip', download(zip.name, zip.blob, `Download both as ${zip.name}`, 'download-zip'),
      h('span.muted', formatBytes(zip.size))) : null,
    h('details.export-info', h('summary', 'What was exported'), infoList(info)));
}

async function runExport(plan) {
  if (app.busy || !app.summary) return;
  clearResults();
  setBusy('export', 'Exporting');
  try {
    showResult(await worker.request({ type: 'export', options: plan.options }, { onProgress }));
  } catch (error) {
    if (error?.code === 'CANCELLED') return;
    ui.resultPanel.hidden = false;
    clear(ui.resultPanel, errorView(error, { action: 'Export', file: app.current?.entry.path, phase: 'export' }));
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
};
setBusy(null);

// The page's Web Worker (a module worker): loads, inspects and exports with the WebAssembly
// core, so the page stays responsive, and reports progress as bytes move. Cancelling
// terminates this worker; the page then starts a fresh one.
//
// Messages in:  {id, type: 'load', files: [{path, file: File}], options}
//               {id, type: 'export', options}   {id, type: 'unload'}
//               {id, type: 'check', options}: model.check(), the pre-flight (a CheckReport)
//               {id, type: 'preview', options}: model.preview(), the export preview
//               {id, type: 'graph', group, reveal}: a level of the graph and its layout
//               (reveal: a node's name; the level that shows it); {id, type: 'node', name};
//               {id, type: 'search', query}
//               {id, type: 'summaryPage', list, offset, limit, filter}: model.summaryPage()
// Messages out: {type: 'ready', schemas} | {type: 'fatal', message}
//               {id, type: 'progress', phase: 'read' | 'write' | 'zip', done, total, file}
//               {id, type: 'done', result}  (an export's files are {name, size, blob}, and
//               readBack: the output loaded again, {family, format, counts} or {error})
//               {id, type: 'error', error: {code, message, file, offset, line, ...}}
import { createApi } from '../bindings/js/api.mjs';
import { instantiateUrl, startLoader } from '../bindings/js/instantiate.mjs';
import factory from '../bindings/js/wasm/graphport_web.mjs';
import { graphRequest } from './graph_worker.mjs';
import { Zip, ZipDeflate, ZipPassThrough } from '../node_modules/fflate/esm/browser.js';

const PROGRESS_EVERY_MS = 40;
// Outputs bigger than this are stored in the zip uncompressed: weights barely compress, and
// deflating hundreds of megabytes would keep the user waiting for little.
const ZIP_STORE_ABOVE = 8 << 20;
// The zip reads its files back from their Blobs this many bytes at a time.
const ZIP_READ_BYTES = 8 << 20;
const OCTETS = { type: 'application/octet-stream' };

let model = null;
let gpInstance = null; // the API once ready

const wasmUrl = new URL('../bindings/js/wasm/graphport_web.wasm', import.meta.url).href;
const ready = startLoader(factory, (imports) => instantiateUrl(wasmUrl, imports), wasmUrl).then(createApi).then((gp) => {
  gpInstance = gp;
  return gp;
});

ready.then(
  (gp) => postMessage({ type: 'ready', schemas: gp.optionSchema() }),
  (e) => postMessage({ type: 'fatal', message: `the WebAssembly module did not start: ${e?.message ?? e}` }),
);

// Posts progress at most every PROGRESS_EVERY_MS, and always the last value.
function progressReporter(id, phase) {
  let last = 0;
  return (done, total, file, force = false) => {
    const now = performance.now();
    if (!force && now - last < PROGRESS_EVERY_MS) return;
    last = now;
    postMessage({ id, type: 'progress', phase, done, total, file });
  };
}

// The graph view's requests in flight: a level's layout awaits, and a pre-flight or preview
// that arrived meanwhile would otherwise run in that gap and hold the drawing back by its
// whole length (3 s for a 200k-node graph). Those background requests wait for them instead.
const queriesInFlight = new Set();

async function afterQueries() {
  while (queriesInFlight.size) await Promise.allSettled([...queriesInFlight]);
}

function dropModel() {
  if (model) model.delete();
  model = null;
}

// The core decides what the files are (which family, which file to read): one file goes as
// itself, several as a set named by their paths in the dropped folder or the selection. The
// paths travel beside the Files because a dropped folder's Files have no webkitRelativePath.
function load(id, files, options) {
  dropModel();
  const report = progressReporter(id, 'read');
  const onProgress = ({ done, total, file }) => report(done, total, file, done === total);
  const input = files.length === 1
    ? files[0].file
    : { files: Object.fromEntries(files.map(({ path, file }) => [path, file])) };
  const start = performance.now();
  return ready.then((gp) => {
    model = gp.load(input, { ...options, onProgress });
    const summary = model.inspect();
    return { summary, seconds: (performance.now() - start) / 1000 };
  });
}

// The sink of an export: each chunk goes straight from the WebAssembly heap into a Blob of its
// own (the Blob constructor copies it, and the chunk is only valid during write()), and a file
// is the Blob of its chunks. The worker never holds an output as one Uint8Array, and a Blob
// crosses to the page as a handle, so the page's thread never touches the bytes.
function blobSink() {
  const files = [];
  return {
    files,
    open(name) {
      const parts = [];
      let size = 0;
      return {
        write(chunk) {
          parts.push(new Blob([chunk]));
          size += chunk.length;
        },
        close() {
          files.push({ name, size, blob: new Blob(parts, OCTETS) });
        },
      };
    },
  };
}

// A zip of the exported files, streamed: each file is read back from its Blob in slices and
// the archive is built as a Blob of chunks. Big files are stored, small ones deflated.
function zipOf(files) {
  const parts = [];
  let failure = null;
  const zip = new Zip((error, chunk) => {
    if (error) failure ??= error;
    else parts.push(new Blob([chunk]));
  });
  const reader = new FileReaderSync();
  for (const f of files) {
    const entry = f.size > ZIP_STORE_ABOVE ? new ZipPassThrough(f.name) : new ZipDeflate(f.name, { level: 6 });
    zip.add(entry);
    let offset = 0;
    do {
      const end = Math.min(f.size, offset + ZIP_READ_BYTES);
      entry.push(new Uint8Array(reader.readAsArrayBuffer(f.blob.slice(offset, end))), end === f.size);
      offset = end;
    } while (offset < f.size);
  }
  zip.end();
  if (failure) throw failure;
  return new Blob(parts, OCTETS);
}

function exportModel(id, options) {
  if (!model) {
    throw Object.assign(new Error('no model is loaded: open one first'), { code: 'INVALID_OPTION' });
  }
  const report = progressReporter(id, 'write');
  const onProgress = ({ file, done, total }) => report(done, total, file, done === 0 || done === total);
  const start = performance.now();
  const sink = blobSink();
  const out = model.exportTo({ ...options, onProgress }, sink);
  const seconds = (performance.now() - start) / 1000;
  let zip = null;
  if (sink.files.length > 1) {
    const zipReport = progressReporter(id, 'zip');
    zipReport(0, null, 'zip', true);
    // Named after the main file (a TF.js model's is its model.json, whatever order the
    // shards come in); `folder` when it is one: a SavedModel's variables/, a TF.js model.
    const tfjs = out.info?.format === 'tfjs';
    const main = (tfjs && sink.files.find((f) => f.name.endsWith('.json'))) || sink.files[0];
    const dot = main.name.lastIndexOf('.');
    const stem = dot > 0 ? main.name.slice(0, dot) : main.name;
    const folder = tfjs || sink.files.some((f) => f.name.includes('/'));
    const blob = zipOf(sink.files);
    zip = { name: `${stem}.zip`, size: blob.size, folder, blob };
  }
  return { result: { files: sink.files, zip, info: out.info, seconds, readBack: readBack(sink.files) } };
}

// The written files loaded again, as any input is, for the counts shown beside the input's: a
// user sees what a reader of the output will find. Its error, when the output does not load,
// is shown, not thrown: the export itself succeeded.
function readBack(files) {
  let back = null;
  try {
    back = gpInstance.load({ files: Object.fromEntries(files.map((f) => [f.name, f.blob])) });
    const summary = back.inspect();
    return { family: summary.family, format: summary.format, counts: summary.counts, ops: Object.keys(summary.ops ?? {}).length };
  } catch (e) {
    return { error: errorRecord(e) };
  } finally {
    back?.delete();
  }
}

// A GraphportError crosses as a plain object with its location fields (structured clone
// keeps own fields but not the class).
function errorRecord(e) {
  if (e && typeof e.code === 'string') {
    const record = { code: e.code, message: e.message };
    for (const key of ['file', 'offset', 'line', 'column', 'node', 'operator', 'option']) {
      if (e[key] !== undefined) record[key] = e[key];
    }
    return record;
  }
  if (e instanceof RangeError) {
    return { code: 'TOO_LARGE', message: `out of memory in the browser: ${e.message}` };
  }
  return { code: 'INTERNAL', message: String(e?.stack ?? e?.message ?? e) };
}

self.onmessage = async ({ data }) => {
  const { id, type } = data;
  try {
    if (type === 'load') {
      const result = await load(id, data.files, data.options);
      postMessage({ id, type: 'done', result });
    } else if (type === 'export') {
      await ready;
      const { result } = exportModel(id, data.options);
      postMessage({ id, type: 'done', result });
    } else if (type === 'check') {
      await ready;
      await afterQueries();
      if (!model) throw Object.assign(new Error('no model is loaded: open one first'), { code: 'INVALID_OPTION' });
      postMessage({ id, type: 'done', result: model.check(data.options) });
    } else if (type === 'preview') {
      await ready;
      await afterQueries();
      if (!model) throw Object.assign(new Error('no model is loaded: open one first'), { code: 'INVALID_OPTION' });
      postMessage({ id, type: 'done', result: model.preview(data.options) });
    } else if (type === 'graph' || type === 'node' || type === 'search') {
      await ready;
      const query = graphRequest(model, data);
      queriesInFlight.add(query);
      try {
        postMessage({ id, type: 'done', result: await query });
      } finally {
        queriesInFlight.delete(query);
      }
    } else if (type === 'summaryPage') {
      await ready;
      if (!model) throw Object.assign(new Error('no model is loaded: open one first'), { code: 'INVALID_OPTION' });
      const { list, offset, limit, filter } = data;
      postMessage({ id, type: 'done', result: model.summaryPage(list, { offset, limit, filter }) });
    } else if (type === 'unload') {
      dropModel();
      postMessage({ id, type: 'done', result: null });
    } else {
      throw new Error(`unknown request ${type}`);
    }
  } catch (e) {
    if (type === 'load') dropModel();
    postMessage({ id, type: 'error', error: errorRecord(e) });
  }
};

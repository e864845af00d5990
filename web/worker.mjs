// The page's Web Worker (a module worker): loads, inspects and exports with the WebAssembly
// core, so the page stays responsive, and reports progress as bytes move. Cancelling
// terminates this worker; the page then starts a fresh one.
//
// Messages in:  {id, type: 'load', file: File, options}   {id, type: 'export', options}
//               {id, type: 'unload'}
// Messages out: {type: 'ready'} | {type: 'fatal', message}
//               {id, type: 'progress', phase: 'read' | 'write' | 'zip', done, total, file}
//               {id, type: 'done', result}  (an export's files are {name, size, blob})
//               {id, type: 'error', error: {code, message}}
import { createApi } from '../bindings/js/api.mjs';
import { blobSource } from '../bindings/js/sources.mjs';
import factory from '../bindings/js/wasm/graphport_web.mjs';
import { zipSync } from '../node_modules/fflate/esm/browser.js';

const PROGRESS_EVERY_MS = 40;
// Outputs bigger than this are stored in the zip uncompressed: weights barely compress, and
// deflating hundreds of megabytes would keep the user waiting for little.
const ZIP_STORE_ABOVE = 8 << 20;

let model = null;

const ready = factory({
  locateFile: (path) => new URL(`../bindings/js/wasm/${path}`, import.meta.url).href,
}).then(createApi);

ready.then(
  () => postMessage({ type: 'ready' }),
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

function dropModel() {
  if (model) model.delete();
  model = null;
}

function load(id, file, options) {
  dropModel();
  const report = progressReporter(id, 'read');
  const onProgress = ({ done, total }) => report(done, total, file.name, done === total);
  const start = performance.now();
  return ready.then((gp) => {
    model = gp.load(blobSource(file), { ...options, onProgress });
    const summary = model.inspect();
    return { summary, seconds: (performance.now() - start) / 1000 };
  });
}

function exportModel(id, options) {
  if (!model) {
    throw Object.assign(new Error('no model is loaded: open one first'), { code: 'INVALID_OPTION' });
  }
  const report = progressReporter(id, 'write');
  const onProgress = ({ file, done, total }) => report(done, total, file, done === 0 || done === total);
  const start = performance.now();
  const out = model.export({ ...options, onProgress });
  const seconds = (performance.now() - start) / 1000;
  let zip = null;
  if (out.files.length > 1) {
    const zipReport = progressReporter(id, 'zip');
    zipReport(0, null, 'zip', true);
    const entries = {};
    for (const f of out.files) {
      entries[f.name] = [f.bytes, { level: f.bytes.length > ZIP_STORE_ABOVE ? 0 : 6 }];
    }
    const dot = out.files[0].name.lastIndexOf('.');
    const stem = dot > 0 ? out.files[0].name.slice(0, dot) : out.files[0].name;
    zip = { name: `${stem}.zip`, bytes: zipSync(entries) };
  }
  // Blobs are made here, not on the page: wrapping hundreds of megabytes copies them, and a
  // Blob crosses to the page as a handle, so the page's thread never touches the bytes.
  const asBlob = ({ name, bytes }) => ({
    name, size: bytes.length, blob: new Blob([bytes], { type: 'application/octet-stream' }),
  });
  const files = out.files.map(asBlob);
  return { result: { files, zip: zip && asBlob(zip), info: out.info, seconds } };
}

function errorRecord(e) {
  if (e && typeof e.code === 'string') return { code: e.code, message: e.message };
  if (e instanceof RangeError) {
    return { code: 'TOO_LARGE', message: `out of memory in the browser: ${e.message}` };
  }
  return { code: 'INTERNAL', message: String(e?.stack ?? e?.message ?? e) };
}

self.onmessage = async ({ data }) => {
  const { id, type } = data;
  try {
    if (type === 'load') {
      const result = await load(id, data.file, data.options);
      postMessage({ id, type: 'done', result });
    } else if (type === 'export') {
      await ready;
      const { result } = exportModel(id, data.options);
      postMessage({ id, type: 'done', result });
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

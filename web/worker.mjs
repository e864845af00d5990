// The page's Web Worker (a module worker): loads, inspects and exports with the WebAssembly
// core, so the page stays responsive, and reports progress as bytes move. Cancelling
// terminates this worker; the page then starts a fresh one.
//
// Messages in:  {id, type: 'load', file: File, options}   {id, type: 'export', options}
//               {id, type: 'unload'}
// Messages out: {type: 'ready'} | {type: 'fatal', message}
//               {id, type: 'progress', phase: 'read' | 'write' | 'zip', done, total, file}
//               {id, type: 'done', result}  (an export's files: {name, size, blob})  |  {id, type: 'error', error: {code, message}}
import { createApi } from '../bindings/js/api.mjs';
import { blobSource } from '../bindings/js/sources.mjs';
import factory from '../bindings/js/wasm/graphport_web.mjs';
import { zipSync } from '../node_modules/fflate/esm/browser.js';

const PROGRESS_EVERY_MS = 40;
// Outputs bigger than this are stored in the zip uncompressed: weights barely compress, and
// deflating hundreds of megabytes would keep the user waiting for little.
const ZIP_STORE_ABOVE = 8 << 20;

let model = null;
let exportObserver = null; // set while an export runs: receives the writer's calls

// Export progress: the JS API collects outputs itself, so the worker observes the output set
// the core writes to, on the way in (the model handle's export(json, outputs)).
function observeExports(wasm) {
  const proto = wasm.LoadedModel?.prototype;
  if (!proto || typeof proto.export !== 'function') return;
  const original = proto.export;
  proto.export = function exportObserved(json, outputs) {
    const observer = exportObserver;
    if (!observer) return original.call(this, json, outputs);
    return original.call(this, json, {
      open(name) {
        observer.open(name);
        outputs.open(name);
      },
      sizeHint(total) {
        observer.sizeHint(total);
        outputs.sizeHint(total);
      },
      write(view) {
        outputs.write(view);
        observer.write(view.length);
      },
      close() {
        outputs.close();
      },
    });
  };
}

const ready = factory({
  locateFile: (path) => new URL(`../bindings/js/wasm/${path}`, import.meta.url).href,
}).then((wasm) => {
  observeExports(wasm);
  return createApi(wasm);
});

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
  const source = blobSource(file);
  const report = progressReporter(id, 'read');
  let done = 0;
  report(0, file.size, file.name, true);
  const watched = {
    size: source.size,
    read(max) {
      const chunk = source.read(max);
      if (chunk) {
        done += chunk.length;
        report(done, file.size, file.name);
      }
      return chunk;
    },
    rewind() {
      done = 0;
      return source.rewind();
    },
  };
  const start = performance.now();
  return ready.then((gp) => {
    model = gp.load(watched, options);
    report(file.size, file.size, file.name, true);
    const summary = model.inspect();
    return { summary, seconds: (performance.now() - start) / 1000 };
  });
}

function exportModel(id, options) {
  if (!model) {
    throw Object.assign(new Error('no model is loaded: open one first'), { code: 'INVALID_OPTION' });
  }
  const report = progressReporter(id, 'write');
  let total = null;
  let done = 0;
  let name = '';
  exportObserver = {
    open(fileName) {
      name = fileName;
      total = null;
      done = 0;
      report(0, null, name, true);
    },
    sizeHint(bytes) {
      total = bytes;
    },
    write(bytes) {
      done += bytes;
      report(done, total, name);
    },
  };
  const start = performance.now();
  let out;
  try {
    out = model.export(options);
  } finally {
    exportObserver = null;
  }
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

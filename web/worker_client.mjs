// The page's side of web/worker.mjs: one request at a time, progress callbacks, and a
// cancel that terminates the worker (the only way to stop WebAssembly mid-call) and starts
// a fresh one.

export class CancelledError extends Error {
  constructor() {
    super('cancelled');
    this.name = 'CancelledError';
    this.code = 'CANCELLED';
  }
}

export class WorkerClient {
  #url;
  #worker = null;
  #pending = null; // {id, resolve, reject, onProgress}
  #queries = new Map(); // id -> {resolve, reject}: the graph view's requests
  #nextId = 1;
  #failed = false;
  #onStatus;

  // onStatus({state: 'starting' | 'ready' | 'failed', message, schemas}); schemas (every
  // family's option schemas, gp.optionSchema()) come with 'ready'.
  constructor(url, onStatus) {
    this.#url = url;
    this.#onStatus = onStatus;
    this.#start();
  }

  #start() {
    this.ready = false;
    this.#failed = false;
    this.#onStatus({ state: 'starting' });
    const worker = new Worker(this.#url, { type: 'module' });
    this.#worker = worker;
    worker.onmessage = ({ data }) => {
      if (worker !== this.#worker) return;
      if (data.type === 'ready') {
        this.ready = true;
        this.#onStatus({ state: 'ready', schemas: data.schemas });
        return;
      }
      if (data.type === 'fatal') {
        this.#fail(data.message);
        return;
      }
      const query = this.#queries.get(data.id);
      if (query) {
        this.#queries.delete(data.id);
        if (data.type === 'done') query.resolve(data.result);
        else query.reject(data.error);
        return;
      }
      const pending = this.#pending;
      if (!pending || data.id !== pending.id) return;
      if (data.type === 'progress') {
        pending.onProgress?.(data);
      } else {
        this.#pending = null;
        if (data.type === 'done') pending.resolve(data.result);
        else pending.reject(data.error);
      }
    };
    worker.onerror = (event) => {
      if (worker !== this.#worker) return;
      event.preventDefault?.();
      this.#fail(event.message ||
        'the worker script or the WebAssembly build (bindings/js/wasm/) could not be loaded');
    };
  }

  #fail(message) {
    this.ready = false;
    this.#failed = true;
    this.#onStatus({ state: 'failed', message });
    const pending = this.#pending;
    this.#pending = null;
    pending?.reject({ code: 'WORKER', message });
    this.#dropQueries({ code: 'WORKER', message });
  }

  #dropQueries(error) {
    for (const query of this.#queries.values()) query.reject(error);
    this.#queries.clear();
  }

  // A request beside the one pending (the graph view's levels, nodes, searches): the worker
  // answers in the order it was asked, so one sent during an export waits for it.
  query(message) {
    if (this.#failed) return Promise.reject({ code: 'WORKER', message: 'the converter is not running' });
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#queries.set(id, { resolve, reject });
      this.#worker.postMessage({ ...message, id });
    });
  }

  get busy() {
    return this.#pending !== null;
  }

  // Sends a request; resolves with its result, rejects with {code, message}.
  request(message, { onProgress, transfer = [] } = {}) {
    if (this.#pending) return Promise.reject({ code: 'INTERNAL', message: 'the worker is busy' });
    if (this.#failed) {
      // Try once more with a fresh worker: if it fails again, the request fails with it.
      this.#worker.terminate();
      this.#start();
    }
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending = { id, resolve, reject, onProgress };
      this.#worker.postMessage({ ...message, id }, transfer);
    });
  }

  // Stops whatever runs (and with it the loaded model) and starts a fresh worker.
  cancel() {
    const pending = this.#pending;
    this.#pending = null;
    this.#worker.terminate();
    this.#start();
    pending?.reject(new CancelledError());
    this.#dropQueries(new CancelledError());
  }
}

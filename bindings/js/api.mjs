// The JS API over a WebAssembly instance, the same in Node and in browsers (no Node-only API
// here; the Node entry adds file helpers on top).
import { GraphportError, unwrap } from './errors.mjs';
import { toInputSet } from './inputs.mjs';
import { memorySink, sinkOutputs } from './outputs.mjs';
import { writableStreamSink } from './web_streams.mjs';

export { GraphportError };

// Options as the core reads them: [JSON text, blobs]. A bytes value (a message or bytes
// option) is {"$blob": i} in the text and blobs[i] beside it, a view the core copies once
// into its heap (bindings/wasm/js_options.h); onProgress stays in JS.
function optionsForCore(options) {
  const out = {};
  const blobs = [];
  for (const [key, value] of Object.entries(options)) {
    if (key === 'onProgress') continue;
    if (value instanceof ArrayBuffer) {
      out[key] = { $blob: blobs.push(new Uint8Array(value)) - 1 };
    } else if (ArrayBuffer.isView(value)) {
      out[key] = { $blob: blobs.push(new Uint8Array(value.buffer, value.byteOffset, value.byteLength)) - 1 };
    } else {
      out[key] = value;
    }
  }
  return [JSON.stringify(out), blobs];
}

// The Node CLI's parsed options with their blobs put back as Uint8Arrays.
function withBlobs(options, blobs) {
  if (!options || typeof options !== 'object') return options;
  const out = {};
  for (const [key, value] of Object.entries(options)) {
    const blob = value && typeof value === 'object' && Number.isInteger(value.$blob) && Object.keys(value).length === 1;
    out[key] = blob ? blobs[value.$blob] : value;
  }
  return out;
}

function checkOptions(options, what) {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw new GraphportError('INVALID_OPTION', `${what} options must be an object`);
  }
  if (options.onProgress !== undefined && typeof options.onProgress !== 'function') {
    throw new GraphportError('INVALID_OPTION', `${what} option 'onProgress' must be a function`);
  }
  return options;
}

// The error a load or export stopped for, when JS code it called failed: an exception from
// the caller's onProgress is thrown as it is (throwing is how a caller stops the work); any
// other failure becomes the GraphportError that `wrap` makes of it.
function callbackFailure(failure, wrap) {
  return failure.fromCaller ? failure.error : wrap(failure);
}

// Calls the caller's onProgress; marks what it throws as the caller's own.
function progressCaller(onProgress) {
  if (!onProgress) return undefined;
  return (event) => {
    try {
      onProgress(event);
    } catch (error) {
      throw { fromCaller: true, error };
    }
  };
}

// Stands between a chunk source and the WebAssembly reader. An exception thrown by the
// source's read() or rewind() must not unwind through the WebAssembly stack (C++ destructors
// would not run: the partial model and its buffers would leak, and libprotobuf is built
// without exception support). The error is kept, the reader sees the end of the input, and
// load() throws IO_ERROR once the reader is back. It also reports the bytes read to onProgress.
function guardSource(source, name, onProgress, state) {
  const total = typeof source.size === 'number' ? source.size : null;
  let done = 0;
  const guarded = {
    size: source.size,
    get failure() {
      return state.failure;
    },
    set failure(e) {
      state.failure ??= e;
    },
    read(max) {
      if (state.failure) return null;
      try {
        if (done === 0) onProgress?.({ phase: 'read', file: name, done, total });
        const chunk = source.read(max);
        if (chunk === null || chunk === undefined) return chunk;
        if (!(chunk instanceof Uint8Array)) throw new TypeError('read() must return a Uint8Array or null');
        done += chunk.length;
        onProgress?.({ phase: 'read', file: name, done, total });
        return chunk;
      } catch (e) {
        guarded.failure = e;
        return null;
      }
    },
    rewind() {
      if (state.failure) return false;
      try {
        done = 0;
        return source.rewind() === true;
      } catch (e) {
        guarded.failure = e;
        return false;
      }
    },
  };
  return guarded;
}

export function createApi(wasm) {
  // Read when the instance is made, so a Symbol.dispose polyfill loaded after this module counts.
  const DISPOSE = Symbol.dispose ?? Symbol.for('Symbol.dispose');
  let live = 0;
  // A live model's handle, for the helpers below that are not the model's own API.
  let handleOf;

  class Model {
    #handle;
    #summary = null;

    static {
      handleOf = (model) => model.#live();
    }

    constructor(handle) {
      this.#handle = handle;
      live += 1;
    }

    #live() {
      if (!this.#handle) throw new GraphportError('INVALID_OPTION', 'this model was deleted');
      return this.#handle;
    }

    // A plain object: family, format, encoding, producer, nodeCount, ops, constants,
    // collections, signatures, functions, tags, metaGraphs.
    inspect() {
      if (!this.#summary) this.#summary = unwrap(this.#live().inspect()).json;
      return JSON.parse(this.#summary);
    }

    // The family that read the model: 'tensorflow', 'megengine', 'tfjs'.
    get family() {
      return this.#live().family();
    }

    // {files: [{name, bytes: Uint8Array}], info}. The model is left unchanged.
    export(options) {
      const opts = checkOptions(options, 'export');
      const sink = memorySink();
      // The memory sink only allocates and copies: a RangeError there is JS running out of memory.
      const { info } = this.#exportThrough(opts, sink, ({ error }) => (error instanceof RangeError
        ? new GraphportError('TOO_LARGE', `export: out of JavaScript memory for the output: ${error.message}`)
        : new GraphportError('IO_ERROR', `export: the output could not be written: ${error.message}`)),
      { wantsSizeFirst: true });
      return { files: sink.files, info };
    }

    // Hands each chunk of each output file to `sink` as the core writes it (index.d.ts,
    // ExportSink): {files: [{name, size}], info} once every file is written and closed. If the
    // sink throws, the export stops with IO_ERROR; on any failure sink.abort(error) is called
    // and no file counts as complete. The model is left unchanged.
    exportTo(options, sink) {
      const opts = checkOptions(options, 'export');
      if (sink === null || typeof sink !== 'object' || typeof sink.open !== 'function') {
        throw new GraphportError('INVALID_OPTION', 'exportTo: the sink must be an object with open(name)');
      }
      if (sink.abort !== undefined && typeof sink.abort !== 'function') {
        throw new GraphportError('INVALID_OPTION', "exportTo: the sink's abort must be a function");
      }
      return this.#exportThrough(opts, sink, ({ error, file, step }) => {
        const failed = new GraphportError('IO_ERROR',
          `${file}: the sink's ${step}() failed: ${error?.message ?? error}`, { file });
        failed.cause = error;
        return failed;
      });
    }

    // exportTo() into one WritableStream per file, `openStream(name)` returning it (or a
    // promise of it). Streams are closed only once the whole export succeeded, and aborted if
    // anything fails, so a File System Access file is committed whole or not at all.
    async exportToStreams(options, openStream) {
      if (typeof openStream !== 'function') {
        throw new GraphportError('INVALID_OPTION', 'exportToStreams: openStream must be a function');
      }
      const streams = writableStreamSink(openStream);
      let result;
      try {
        result = this.exportTo(options, streams.sink);
      } catch (error) {
        await streams.aborted();
        throw error;
      }
      await streams.commit((error, file) => {
        const failed = new GraphportError('IO_ERROR',
          `${file}: the stream failed: ${error?.message ?? error}`, { file });
        failed.cause = error;
        return failed;
      });
      return result;
    }

    // The export itself, into sinkOutputs over `sink`. What the caller's onProgress throws
    // is thrown as it is; a failure of the sink becomes `sinkError({error, file, step})`; an
    // error of the core is its GraphportError. Whatever failed, sink.abort(error) is called
    // first (what abort itself throws is ignored: the export's error is the one to report).
    // `wantsSizeFirst`: the sink gathers each file whole (outputs.mjs).
    #exportThrough(opts, sink, sinkError, { wantsSizeFirst = false } = {}) {
      const handle = this.#live();
      const outputs = sinkOutputs(sink, progressCaller(opts.onProgress), { wantsSizeFirst });
      const record = handle.export(...optionsForCore(opts), outputs);
      let error = null;
      if (outputs.failure) {
        const { error: raised } = outputs.failure;
        error = raised?.fromCaller ? raised.error : sinkError(outputs.failure);
      } else if (record.error) {
        error = new GraphportError(record.error.code, record.error.message, record.error);
      }
      if (error) {
        try {
          sink.abort?.(error);
        } catch {
          // The export's own error is the one the caller needs.
        }
        throw error;
      }
      return { files: outputs.files, info: JSON.parse(record.json) };
    }

    // What an export with these options would run (freeze, optimize, unfuse, the writer),
    // checked against the runtime it writes for, with nothing kept: {target, to, runtime,
    // runs, ops, nodes, unsupportedOps, exportFails, frozen?, unfusedOps?, quantization?}
    // (index.d.ts, CheckReport). `target`: 'tfjs' or 'tensorflow' (any TensorFlow format).
    check(options) {
      const opts = checkOptions(options, 'check');
      return JSON.parse(unwrap(this.#live().check(...optionsForCore(opts))).json);
    }

    // The export preview: what export() with these options would drop, change and add, node
    // by node and option by option, with the node counts before and after; nothing is
    // written (index.d.ts, ExportPreview).
    preview(options) {
      const opts = checkOptions(options, 'export');
      return JSON.parse(unwrap(this.#live().preview(...optionsForCore(opts))).json);
    }

    // One level of the graph for drawing: `group` '' (the top) or a group's name ('a/b' of
    // a TensorFlow name scope, 'backbone.layer1' of MegEngine operator names); its direct
    // children (nodes, and groups with their node counts) and the edges between them, an
    // edge from or to outside the group ending at -1 (index.d.ts, GraphLevel). At most
    // `limit` children (2000 unless given).
    graph({ group = '', limit } = {}) {
      if (typeof group !== 'string') throw new GraphportError('INVALID_OPTION', 'graph option group must be a string');
      const opts = limit === undefined ? { group } : { group, limit };
      return JSON.parse(unwrap(this.#live().graph(JSON.stringify(opts))).json);
    }

    // The node named `name` for a details panel: op, attrs (TensorFlow, TF.js) or params
    // (MegEngine), inputs and outputs with dtypes and shapes where known, device, weight
    // bytes, consumers (index.d.ts, GraphNode).
    node(name) {
      if (typeof name !== 'string') throw new GraphportError('INVALID_OPTION', 'node() takes a node name');
      return JSON.parse(unwrap(this.#live().node(name)).json);
    }

    // The nodes whose name or op holds `query` (any case), in graph order: {query, total,
    // matches: [{name, op}]}, the first `limit` (50 unless given) listed.
    searchGraph(query, { limit } = {}) {
      if (typeof query !== 'string') throw new GraphportError('INVALID_OPTION', 'searchGraph() takes a string');
      const opts = limit === undefined ? { query } : { query, limit };
      return JSON.parse(unwrap(this.#live().searchGraph(JSON.stringify(opts))).json);
    }

    // A page of a long summary list that inspect() holds only the start of (MegEngine's
    // `operators`: the first 100): the items whose type, class or name holds `filter` (any
    // case), from `offset` on, at most `limit` (100 unless given): {list, offset, total,
    // matched, items} (index.d.ts, SummaryPage).
    summaryPage(list, { offset, limit, filter } = {}) {
      if (typeof list !== 'string') throw new GraphportError('INVALID_OPTION', "summaryPage() takes a list's name: 'operators'");
      const opts = { list };
      if (offset !== undefined) opts.offset = offset;
      if (limit !== undefined) opts.limit = limit;
      if (filter !== undefined) opts.filter = filter;
      return JSON.parse(unwrap(this.#live().summaryPage(JSON.stringify(opts))).json);
    }

    // True when an export with these options writes a folder (a SavedModel with its
    // variables): its files' names then hold folders ("variables/variables.index").
    writesFolder(options) {
      return unwrap(this.#live().writesFolder(...optionsForCore(checkOptions(options, 'export')))).folder;
    }

    // Frees the WebAssembly memory of this model. Idempotent.
    delete() {
      if (!this.#handle) return;
      this.#handle.delete();
      this.#handle = null;
      live -= 1;
    }

    // `using model = gp.load(...)`. Where the runtime has no Symbol.dispose yet (Node 20), the
    // key is the one that esbuild's and Babel's lowering of `using` fall back to.
    [DISPOSE]() {
      this.delete();
    }

    get deleted() {
      return this.#handle === null;
    }
  }

  // `input`: bytes, a Blob/File (in a Worker), a chunk source, {files: {name: any of those}},
  // or an array of Files (a dropped folder). The core checks the option names.
  function load(input, options) {
    const opts = checkOptions(options, 'load');
    const name = typeof opts.name === 'string' ? opts.name : 'input';
    const state = { failure: null, failedName: name };
    const onProgress = progressCaller(opts.onProgress);
    const inputs = toInputSet(input, name, (source, file) => guardSource(source, file, onProgress, state));
    // The core calls open() from inside WebAssembly: it must not throw there.
    const guardedInputs = {
      label: inputs.label,
      names: inputs.names,
      preferred: inputs.preferred,
      size: (file) => {
        try {
          return inputs.size(file);
        } catch {
          return undefined;
        }
      },
      open: (file) => {
        if (state.failure) return null;
        try {
          return inputs.open(file);
        } catch (e) {
          state.failure = e;
          state.failedName = file;
          return null;
        }
      },
    };
    const { onProgress: _, ...coreOptions } = opts;
    const record = wasm.load(guardedInputs, ...optionsForCore(coreOptions));
    if (state.failure) {
      if (record.model) record.model.delete();
      throw callbackFailure(state.failure,
        (e) => new GraphportError('IO_ERROR', `${state.failedName}: read failed: ${e.message}`,
          { file: state.failedName }));
    }
    return new Model(unwrap(record).model);
  }

  let schemas = null;
  function allSchemas() {
    schemas ??= JSON.parse(wasm.schemas());
    return schemas;
  }

  return {
    load,
    Model,
    GraphportError,
    // The option schemas of one family ({family, title, formats, load, export}), or of every
    // family as an array: what the page's form, the CLIs and the TypeScript types are made of.
    optionSchema(family) {
      const all = allSchemas();
      if (family === undefined) return structuredClone(all);
      const found = all.find((f) => f.family === family);
      // The core words the error for an unknown family, for both CLIs.
      return found ? structuredClone(found) : JSON.parse(unwrap(wasm.familySchema(String(family))).json);
    },
    // Every GraphportError code with its meaning, [{code, meaning}]: the core's one list.
    errorCodes() {
      return JSON.parse(wasm.errorCodes());
    },
    // The CLI grammar (the core's, shared with the native CLI). `readFile(flag, path)` returns a
    // Uint8Array, or null when the file cannot be read.
    parseArgs(argv, readFile) {
      const reader = (flag, path) => {
        try {
          return readFile(flag, path);
        } catch {
          return null;
        }
      };
      const record = unwrap(wasm.parseArgs(argv, reader));
      const args = JSON.parse(record.json);
      for (const key of ['load', 'export', 'checkOptions']) args[key] = withBlobs(args[key], record.blobs);
      return args;
    },
    // The CLI's readable summary of inspect()'s object.
    summaryText(summary) {
      return unwrap(wasm.summaryText(JSON.stringify(summary))).text;
    },
    usage() {
      return wasm.usage();
    },
    // The CLI's readable form of check()'s report.
    checkText(report) {
      return unwrap(wasm.checkText(JSON.stringify(report))).text;
    },
    // The CLI's readable form of preview()'s result (`graphport export --dry-run`).
    previewText(preview) {
      return unwrap(wasm.previewText(JSON.stringify(preview))).text;
    },
    // The CLI's lines after an export (not --json): export().info's warnings and notes.
    exportText(info) {
      return unwrap(wasm.exportText(JSON.stringify(info))).text;
    },
    // The `filename` option of an export written to `path` (the CLI's -o, exportToFile's
    // path): its base name when the export is one file and the family names it, else ''.
    outputFilename(model, options, path) {
      const opts = checkOptions(options, 'export');
      return unwrap(handleOf(model).outputFilename(...optionsForCore(opts), path)).filename;
    },
    // The exit status of `graphport check` when the target cannot run the model (the core's).
    checkFailsExitCode: wasm.checkFailsExitCode,
    // Models loaded and not yet deleted: tests use it to prove no handle leaks.
    liveModels() {
      return live;
    },
    // Bytes of WebAssembly memory the instance holds now. The heap grows and never shrinks,
    // so this is also its peak: benchmarks and memory tests compare it with the model size.
    heapBytes() {
      return wasm.HEAP8.buffer.byteLength;
    },
  };
}

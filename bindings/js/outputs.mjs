// Between the core's output calls and a caller's sink. The core streams each file it writes
// as open(name), sizeHint(bytes)?, write(view)..., close(); `sinkOutputs` forwards those to
// the caller's sink ({open(name) -> {write(chunk), sizeHint?(bytes), close()}, abort?(error)}),
// counts the bytes and reports progress. `memorySink` is the sink behind export(): it gathers
// each file into one Uint8Array, and so asks the core for each file's size first
// (`wantsSizeFirst`): a text file, whose size is only known once printed, is then printed twice,
// counted and then written, which costs less than holding it twice.
//
// The core calls these from inside WebAssembly. None of them may throw there: a JS exception
// would unwind the C++ stack past the export's cleanup. So each one catches, keeps the first
// failure in `failure` ({error, file, step}), and answers false; the core then stops with
// IO_ERROR and the API throws its own error for `failure` once the core is back.
export function sinkOutputs(sink, onProgress, { wantsSizeFirst = false } = {}) {
  const files = [];
  let current = null;
  const outputs = {
    // Every file the sink closed, {name, size}, in order.
    files,
    failure: null,
    wantsSizeFirst,
    open(name) {
      return guard('open', name, () => {
        const file = sink.open(name);
        if (file === null || typeof file !== 'object' || typeof file.write !== 'function'
            || typeof file.close !== 'function') {
          throw new TypeError('open() must return an object with write() and close()');
        }
        current = { name, file, size: 0, total: null, announced: false };
      });
    },
    sizeHint(total) {
      return guard('sizeHint', current.name, () => {
        if (current.size !== 0) return;
        current.total = total;
        current.file.sizeHint?.(total);
      });
    },
    write(view) {
      return guard('write', current.name, () => {
        announce();
        // `view` points into the WebAssembly heap and is only valid during this call.
        current.file.write(view);
        current.size += view.length;
        onProgress?.({ phase: 'write', file: current.name, done: current.size, total: current.total });
      });
    },
    close() {
      return guard('close', current.name, () => {
        announce();
        current.file.close();
        files.push({ name: current.name, size: current.size });
        current = null;
      });
    },
  };

  // The file's first event, {done: 0}, waits for the first write so that it carries the size
  // hint, which the writer gives after open().
  function announce() {
    if (current.announced) return;
    current.announced = true;
    onProgress?.({ phase: 'write', file: current.name, done: 0, total: current.total });
  }

  function guard(step, file, fn) {
    if (outputs.failure) return false;
    try {
      fn();
      return true;
    } catch (error) {
      outputs.failure = { error, file, step };
      return false;
    }
  }
  return outputs;
}

// Gathers each file into one Uint8Array: `files` holds {name, bytes} once a file is closed.
// The writer gives the file's size first (a text writer counts it with a dry run): one
// buffer, each chunk copied once into it, no join. Without the hint, or if the buffer cannot
// be had, chunks are copied out and joined at close().
export function memorySink() {
  const files = [];
  return {
    files,
    open(name) {
      let whole = null;
      let chunks = [];
      let size = 0;
      return {
        sizeHint(total) {
          try {
            whole = new Uint8Array(total);
          } catch {
            whole = null;
          }
        },
        write(view) {
          if (whole && size + view.length <= whole.length) {
            whole.set(view, size);
          } else {
            if (whole) chunks.push(whole.subarray(0, size));
            whole = null;
            chunks.push(view.slice());
          }
          size += view.length;
        },
        close() {
          files.push({ name, bytes: joined(whole, chunks, size) });
          whole = null;
          chunks = [];
        },
      };
    },
  };
}

function joined(whole, chunks, size) {
  if (whole && size === whole.length) return whole;
  if (whole) chunks.push(whole.subarray(0, size));
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

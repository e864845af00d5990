// Collects the files an export streams out. Nothing is handed back unless the whole export
// succeeded: a failure half way leaves only garbage for the collector.
//
// The core calls open/sizeHint/write/close from inside WebAssembly. None of them may throw
// there: a JS exception would unwind the C++ stack past the export's cleanup. So each one
// catches, keeps the first failure in `failure`, and answers false; the core then stops with
// IO_ERROR and the API throws `failure` instead.
export function collectOutputs(onProgress) {
  const files = [];
  let current = null;
  const collector = {
    files,
    failure: null,
    open(name) {
      return guard(() => {
        current = { name, chunks: [], size: 0, whole: null, total: null, announced: false };
      });
    },
    // The writer knows the file's size: one buffer, each chunk copied once into it, no join.
    // Without the hint (text output), or if the buffer cannot be had, chunks are kept and
    // joined at close().
    sizeHint(total) {
      return guard(() => {
        if (current.size !== 0) return;
        current.total = total;
        try {
          current.whole = new Uint8Array(total);
        } catch {
          current.whole = null;
        }
      });
    },
    write(view) {
      return guard(() => {
        announce();
        // `view` points into the WebAssembly heap and is only valid during this call.
        if (current.whole && current.size + view.length <= current.whole.length) {
          current.whole.set(view, current.size);
        } else {
          if (current.whole) current.chunks.push(current.whole.subarray(0, current.size));
          current.whole = null;
          current.chunks.push(view.slice());
        }
        current.size += view.length;
        onProgress?.({ phase: 'write', file: current.name, done: current.size, total: current.total });
      });
    },
    close() {
      return guard(() => {
        announce();
        files.push({ name: current.name, bytes: joined(current) });
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

  function guard(step) {
    if (collector.failure) return false;
    try {
      step();
      return true;
    } catch (e) {
      collector.failure = e;
      return false;
    }
  }
  return collector;
}

function joined(file) {
  if (file.whole && file.size === file.whole.length) return file.whole;
  if (file.whole) file.chunks.push(file.whole.subarray(0, file.size));
  const bytes = new Uint8Array(file.size);
  let offset = 0;
  for (const chunk of file.chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

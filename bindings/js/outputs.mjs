// Collects the files an export streams out. Nothing is handed back unless the whole export
// succeeded: a failure half way leaves only garbage for the collector.
export function collectOutputs() {
  const files = [];
  let current = null;
  return {
    files,
    open(name) {
      current = { name, chunks: [], size: 0, whole: null };
    },
    // The writer knows the file's size: one buffer, each chunk copied once into it, no join.
    // Without the hint (text output), or if the buffer cannot be had, chunks are kept and
    // joined at close().
    sizeHint(total) {
      if (current.size !== 0) return;
      try {
        current.whole = new Uint8Array(total);
      } catch {
        current.whole = null;
      }
    },
    write(view) {
      // `view` points into the WebAssembly heap and is only valid during this call.
      if (current.whole && current.size + view.length <= current.whole.length) {
        current.whole.set(view, current.size);
      } else {
        if (current.whole) current.chunks.push(current.whole.subarray(0, current.size));
        current.whole = null;
        current.chunks.push(view.slice());
      }
      current.size += view.length;
    },
    close() {
      if (current.whole && current.size === current.whole.length) {
        files.push({ name: current.name, bytes: current.whole });
        current = null;
        return;
      }
      if (current.whole) current.chunks.push(current.whole.subarray(0, current.size));
      const bytes = new Uint8Array(current.size);
      let offset = 0;
      for (const chunk of current.chunks) {
        bytes.set(chunk, offset);
        offset += chunk.length;
      }
      files.push({ name: current.name, bytes });
      current = null;
    },
  };
}

// Collects the files an export streams out. Nothing is handed back unless the whole export
// succeeded: a failure half way leaves only garbage for the collector.
export function collectOutputs() {
  const files = [];
  let current = null;
  return {
    files,
    open(name) {
      current = { name, chunks: [], size: 0 };
    },
    write(view) {
      // `view` points into the WebAssembly heap and is only valid during this call.
      current.chunks.push(view.slice());
      current.size += view.length;
    },
    close() {
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

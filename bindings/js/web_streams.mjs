// An export sink over Web Streams: one WritableStream per output file, as the File System
// Access API's FileSystemFileHandle.createWritable() gives (in a page or a Worker).
//
// The core's export is synchronous and a stream's writes are not: a chunk cannot wait for the
// stream to take it, so each one is copied out of the WebAssembly heap and queued on the
// stream's writer (the stream's own queue is what holds them until they are written). Streams
// are closed only by commit(), once the whole export has succeeded; any failure aborts every
// stream, and createWritable()'s file then keeps its old content (it writes to a swap file that
// close() moves into place).
export function writableStreamSink(openStream) {
  const files = [];
  let failure = null;
  const fail = (error, file) => {
    failure ??= { error, file };
  };

  const sink = {
    open(name) {
      // A promise of a stream counts too (createWritable() returns one): writes wait for it.
      const file = { name, writer: null, queue: null };
      file.queue = Promise.resolve(openStream(name)).then((stream) => {
        if (!stream || typeof stream.getWriter !== 'function') {
          throw new TypeError(`openStream('${name}') did not give a WritableStream`);
        }
        file.writer = stream.getWriter();
      });
      file.queue.catch((error) => fail(error, name));
      files.push(file);
      return {
        write(chunk) {
          const copy = chunk.slice();
          file.queue = file.queue.then(() => file.writer.write(copy));
          file.queue.catch((error) => fail(error, name));
        },
        close() {},
      };
    },
    abort(error) {
      for (const file of files) {
        file.queue = file.queue.then(
          () => file.writer.abort(error),
          () => file.writer?.abort(error),
        ).catch(() => {});
      }
    },
  };

  return {
    sink,
    // Resolves once every stream has seen its abort (after a failed export).
    async aborted() {
      await Promise.all(files.map((f) => f.queue.catch(() => {})));
    },
    // Waits for every queued write, then closes every stream. If a write or a close failed,
    // aborts the streams not yet closed with makeError(error, file), and throws it.
    async commit(makeError) {
      await Promise.all(files.map((f) => f.queue.catch(() => {})));
      if (!failure) {
        for (const file of files) {
          try {
            await file.writer.close();
            file.closed = true;
          } catch (error) {
            fail(error, file.name);
            break;
          }
        }
      }
      if (!failure) return;
      const error = makeError(failure.error, failure.file);
      await Promise.all(files.filter((f) => !f.closed && f.writer)
        .map((f) => f.writer.abort(error).catch(() => {})));
      throw error;
    },
  };
}

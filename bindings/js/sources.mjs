// Synchronous chunk sources handed to the WebAssembly reader. Each is
// {read(maxBytes) -> Uint8Array | null, rewind() -> boolean, size}. The reader copies each
// chunk into its heap, so the heap never holds the whole input twice.
import { GraphportError } from './errors.mjs';

export function bytesSource(bytes) {
  let offset = 0;
  return {
    size: bytes.length,
    read(max) {
      if (offset >= bytes.length) return null;
      const chunk = bytes.subarray(offset, offset + max);
      offset += chunk.length;
      return chunk;
    },
    rewind() {
      offset = 0;
      return true;
    },
  };
}

// A File or Blob read synchronously in slices: only possible inside a Web Worker, where
// FileReaderSync exists. On the main thread pass `new Uint8Array(await file.arrayBuffer())`.
export function blobSource(blob) {
  if (typeof FileReaderSync === 'undefined') {
    throw new GraphportError('INVALID_OPTION',
      'a File or Blob can only be streamed inside a Web Worker; on the main thread pass ' +
      'new Uint8Array(await file.arrayBuffer())');
  }
  const reader = new FileReaderSync();
  let offset = 0;
  return {
    size: blob.size,
    read(max) {
      if (offset >= blob.size) return null;
      const end = Math.min(blob.size, offset + max);
      const chunk = new Uint8Array(reader.readAsArrayBuffer(blob.slice(offset, end)));
      offset = end;
      return chunk;
    },
    rewind() {
      offset = 0;
      return true;
    },
  };
}

// Whatever the caller passed to load(), as a source.
export function toSource(input) {
  if (input instanceof Uint8Array) return bytesSource(input);
  if (input instanceof ArrayBuffer) return bytesSource(new Uint8Array(input));
  if (ArrayBuffer.isView(input)) {
    return bytesSource(new Uint8Array(input.buffer, input.byteOffset, input.byteLength));
  }
  if (typeof Blob !== 'undefined' && input instanceof Blob) return blobSource(input);
  if (input && typeof input.read === 'function' && typeof input.rewind === 'function') return input;
  throw new GraphportError('INVALID_OPTION',
    'load() takes a Uint8Array, an ArrayBuffer, a Blob/File (in a Worker) or a chunk source');
}

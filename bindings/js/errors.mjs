// The one error type the package throws. `code` is stable (see the README's table); the
// message names the file, node or byte offset where the input went wrong.
export class GraphportError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'GraphportError';
    this.code = code;
  }
}

// Unwraps a record returned by the WebAssembly side: {error: {code, message}} or the value.
export function unwrap(record) {
  if (record.error) throw new GraphportError(record.error.code, record.error.message);
  return record;
}

// The one error type the package throws. `code` is stable (see the README's table); the
// message names the file, node or byte offset where the input went wrong, and the same
// places are fields: file, offset, line, column, node, operator, option (each only when known).
const LOCATION_FIELDS = ['file', 'offset', 'line', 'column', 'node', 'operator', 'option'];

export class GraphportError extends Error {
  constructor(code, message, where = {}) {
    super(message);
    this.name = 'GraphportError';
    this.code = code;
    for (const key of LOCATION_FIELDS) {
      if (where[key] !== undefined && where[key] !== null) this[key] = where[key];
    }
  }
}

// Unwraps a record returned by the WebAssembly side: {error: {code, message, ...}} or the value.
export function unwrap(record) {
  if (record.error) throw new GraphportError(record.error.code, record.error.message, record.error);
  return record;
}

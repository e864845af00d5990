// A message or bytes option read from a file the user picked, as the core takes it:
// protobuf JSON becomes an object, binary or text format travels as bytes and the core tells
// which. A bytes option (`asBytes`) always travels as bytes. {value, error, encoding}.
export function parseMessageFile(name, bytes, { asBytes = false } = {}) {
  if (bytes.length === 0) return { value: null, error: `${name} is empty`, encoding: null };
  if (asBytes) return { value: bytes, error: null, encoding: 'bytes' };
  let i = 0;
  while (i < bytes.length && i < 4096 && (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)) i += 1;
  if (bytes[i] === 0x7b /* { */ || /\.json$/i.test(name)) {
    try {
      const value = JSON.parse(new TextDecoder().decode(bytes));
      if (!value || typeof value !== 'object' || Array.isArray(value)) {
        return { value: null, error: `${name}: protobuf JSON must be an object`, encoding: 'json' };
      }
      return { value, error: null, encoding: 'json' };
    } catch (e) {
      return { value: null, error: `${name} is not valid JSON: ${e.message}`, encoding: 'json' };
    }
  }
  return { value: bytes, error: null, encoding: 'protobuf' };
}

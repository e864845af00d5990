// What load() takes, as the input set the core reads: {label, names, size(name), open(name)}.
// One buffer, File or chunk source is a set of one; {files: {name: bytes | Blob | source}} or
// an array of Files (a dropped folder, in a Worker) is a set of several, each opened only when
// the reader asks for it.
import { GraphportError } from './errors.mjs';
import { toSource } from './sources.mjs';

// Relative, '/'-separated, no empty, '.' or '..' segment: the core reads nothing outside the set.
export function isSafeName(name) {
  if (typeof name !== 'string' || name === '' || name.startsWith('/') || name.includes('\\') ||
      name.includes('\0')) return false;
  return name.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}

function baseName(path) {
  return path.slice(path.lastIndexOf('/') + 1);
}

function isFileList(input) {
  return Array.isArray(input) && input.length > 0 &&
    input.every((f) => typeof Blob !== 'undefined' && f instanceof Blob && typeof f.name === 'string');
}

// A set over named entries, each turned into a source when opened. `wrap(source, name)` lets
// the API count progress and catch failures per input.
function setOf(label, entries, wrap, single = false, preferred = undefined) {
  const names = [...entries.keys()].sort();
  const opened = new Set();
  return {
    label,
    names,
    preferred,
    size(name) {
      const value = entries.get(name);
      if (value instanceof Uint8Array) return value.length;
      if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) return value.byteLength;
      if (typeof Blob !== 'undefined' && value instanceof Blob) return value.size;
      return typeof value?.size === 'number' ? value.size : undefined;
    },
    open(name) {
      const value = entries.get(name);
      const source = toSource(value);
      // Bytes and Blobs get a fresh source each time; a caller's chunk source is the same
      // object, so opening it again means starting it again.
      if (source === value && opened.has(name) && source.rewind() !== true) return null;
      opened.add(name);
      // Progress and errors name one input given alone as the caller did (its path).
      return wrap(source, single ? label : name);
    },
  };
}

export function toInputSet(input, label, wrap) {
  const entries = new Map();
  if (input && typeof input === 'object' && !ArrayBuffer.isView(input) &&
      !(input instanceof ArrayBuffer) && !(typeof Blob !== 'undefined' && input instanceof Blob) &&
      typeof input.read !== 'function' && !Array.isArray(input)) {
    if (!input.files || typeof input.files !== 'object') {
      throw new GraphportError('INVALID_OPTION',
        'load() takes bytes, a Blob/File, a chunk source, an array of Files or {files: {name: bytes}}');
    }
    for (const [name, value] of Object.entries(input.files)) entries.set(name, value);
    if (entries.size === 0) throw new GraphportError('EMPTY_INPUT', `${label}: no input was given`);
    if (input.primary !== undefined && !entries.has(input.primary)) {
      throw new GraphportError('INVALID_OPTION', `primary '${String(input.primary).slice(0, 200)}' is not one of the files`,
        { option: 'primary' });
    }
  } else if (isFileList(input)) {
    for (const file of input) entries.set(file.webkitRelativePath || file.name, file);
  } else {
    // One input: checked now, so a wrong type fails before anything is read.
    toSource(input);
    const name = baseName(label) || 'input';
    entries.set(name, input);
    return setOf(label, entries, wrap, true);
  }
  for (const name of entries.keys()) {
    if (!isSafeName(name)) {
      throw new GraphportError('INVALID_OPTION',
        `input name '${String(name).slice(0, 200)}' is not a relative path inside the model`,
        { option: 'files' });
    }
  }
  return setOf(label, entries, wrap, false, input.primary);
}

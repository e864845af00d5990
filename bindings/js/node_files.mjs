// Node: an export streamed to disk. Each chunk goes from the WebAssembly heap straight to the
// file descriptor (no copy in JS), into a temporary name beside the final one; the files are
// renamed into place only once the whole export has succeeded, and removed if it fails.
import {
  closeSync, existsSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';

import { GraphportError } from './errors.mjs';

const PARTIAL = '.graphport-partial';

// The core names its outputs ("saved_model.pb", "variables/variables.index"); a name that
// would leave the output folder is refused, whoever made it.
function checkInside(name) {
  const parts = name.split('/');
  if (name.includes('\\') || parts.some((p) => p === '' || p === '.' || p === '..')) {
    throw new Error(`'${name}' is not a file name inside the output folder`);
  }
  return parts;
}

// The sink for exportTo(): files under `dir` (which exists). Folders inside it are made as
// needed. commit() renames every file into place and returns their paths; if a rename fails,
// it removes every file of the export (those already in place too) and throws IO_ERROR.
export function folderSink(dir) {
  const closed = [];
  const madeFolders = [];
  let current = null;
  return {
    open(name) {
      const final = join(dir, ...checkInside(name));
      const made = mkdirSync(dirname(final), { recursive: true });
      if (made !== undefined) madeFolders.push(made);
      const file = { temp: `${final}${PARTIAL}`, final, fd: null };
      file.fd = openSync(file.temp, 'w');
      current = file;
      return {
        write(chunk) {
          // The chunk is a view of the heap, valid only during this call: written out now.
          for (let done = 0; done < chunk.length;) {
            done += writeSync(file.fd, chunk, done, chunk.length - done);
          }
        },
        close() {
          current = null;
          closed.push(file);
          const { fd } = file;
          file.fd = null;
          closeSync(fd);
        },
      };
    },
    abort() {
      if (current?.fd !== null && current?.fd !== undefined) {
        try {
          closeSync(current.fd);
        } catch {
          // Already unusable; the file is removed below either way.
        }
      }
      for (const file of [...closed, ...(current ? [current] : [])]) rmSync(file.temp, { force: true });
      // Folders this export made hold nothing else than its own files.
      for (const folder of madeFolders.reverse()) rmSync(folder, { recursive: true, force: true });
      current = null;
    },
    commit() {
      const paths = [];
      for (let i = 0; i < closed.length; i += 1) {
        try {
          renameSync(closed[i].temp, closed[i].final);
        } catch (e) {
          // The export failed after all: what it already put in place goes too.
          for (const path of paths) rmSync(path, { force: true });
          for (const file of closed.slice(i)) rmSync(file.temp, { force: true });
          for (const folder of madeFolders.reverse()) rmSync(folder, { recursive: true, force: true });
          throw new GraphportError('IO_ERROR', `${closed[i].final}: cannot rename into place: ${e.message}`,
            { file: closed[i].final });
        }
        paths.push(closed[i].final);
      }
      return paths;
    },
  };
}

// gp.exportToFile(model, options, path): `path` means what the CLI's -o means. For an export
// that is a folder (a SavedModel with its variables, a TF.js model) it is that folder, made if
// missing. Otherwise it is the output file: its base name is the `filename` option where the
// family has one (so it is also the name written inside a MetaGraphDef), and any companion
// file (model_debug.meta, strip_info.json) goes beside it. Returns {files: [{name, size,
// path}], info}.
export function exportToFile(gp, model, options, path) {
  if (typeof path !== 'string' || path === '') {
    throw new GraphportError('INVALID_OPTION', 'exportToFile: the path must be a non-empty string');
  }
  const opts = { ...(options ?? {}) };
  let dir;
  let madeDir;
  if (model.writesFolder(opts)) {
    dir = path;
    try {
      madeDir = mkdirSync(dir, { recursive: true });
    } catch (e) {
      throw new GraphportError('IO_ERROR', `${dir}: cannot create the output folder: ${e.message}`, { file: dir });
    }
    if (!statSync(dir).isDirectory()) {
      throw new GraphportError('IO_ERROR', `${dir}: cannot create the output folder: a file is in the way`, { file: dir });
    }
  } else {
    const filename = gp.outputFilename(model, opts, path);
    if (filename) opts.filename = filename;
    dir = dirname(path);
    if (!existsSync(dir)) {
      throw new GraphportError('IO_ERROR', `${path}: cannot create: no such folder ${dir}`, { file: path });
    }
  }
  const sink = folderSink(dir);
  let result;
  try {
    result = model.exportTo(opts, sink);
  } catch (e) {
    // An output folder made for this export goes with it.
    if (madeDir !== undefined) rmSync(madeDir, { recursive: true, force: true });
    throw e;
  }
  const paths = sink.commit();
  return { files: result.files.map((f, i) => ({ ...f, path: paths[i] })), info: result.info };
}

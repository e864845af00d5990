#!/usr/bin/env node
// `npx graphport`: the native CLI's commands, options, output and exit codes, on the
// WebAssembly build. The grammar and --help are the core's (gp.parseArgs, gp.usage), so the
// two CLIs cannot drift apart; this file only reads and writes files.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

import createGraphport, { GraphportError } from './node.mjs';

function readOptionFile(flag, path) {
  return new Uint8Array(readFileSync(path));
}

// Writes every output under a temporary name, and renames them into place only once all are
// written: a failed export leaves no half-written file behind.
function writeOutputs(files, dir) {
  const written = [];
  try {
    for (const file of files) {
      const path = join(dir, ...file.name.split('/'));
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(`${path}.graphport-partial`, file.bytes);
      written.push(path);
    }
  } catch (e) {
    for (const path of written) rmSync(`${path}.graphport-partial`, { force: true });
    throw new GraphportError('IO_ERROR', e.message);
  }
  for (const path of written) {
    renameSync(`${path}.graphport-partial`, path);
    process.stderr.write(`wrote ${path}\n`);
  }
}

function usageError(message) {
  return new GraphportError('INVALID_OPTION', `${message} (see graphport --help)`);
}

async function run(argv) {
  const gp = await createGraphport();
  const args = gp.parseArgs(argv, readOptionFile);
  if (args.help || args.command === 'help' || !args.command) {
    process.stdout.write(gp.usage());
    return args.command || args.help ? 0 : 2;
  }
  if (args.command === 'schema') {
    const schema = args.input ? gp.optionSchema(args.input) : gp.optionSchema();
    process.stdout.write(`${JSON.stringify(schema, null, 2)}\n`);
    return 0;
  }
  if (args.command !== 'inspect' && args.command !== 'export') {
    throw usageError(`unknown command '${args.command}'`);
  }
  if (!args.input) throw usageError(`${args.command} needs an INPUT file or folder`);
  const model = gp.loadFile(args.input, args.load);
  try {
    if (args.command === 'inspect') {
      const summary = model.inspect();
      process.stdout.write(args.json ? `${JSON.stringify(summary, null, 2)}\n` : gp.summaryText(summary));
      return 0;
    }
    if (!args.output) throw usageError('export needs -o OUT');
    const options = { ...args.export };
    let dir;
    if (model.writesFolder(options)) {
      // The output is a folder (a SavedModel with its variables): -o names it.
      dir = args.output;
      try {
        mkdirSync(dir, { recursive: true });
      } catch (e) {
        throw new GraphportError('IO_ERROR', `${dir}: cannot create the output folder: ${e.message}`);
      }
      if (!statSync(dir).isDirectory()) {
        throw new GraphportError('IO_ERROR', `${dir}: cannot create the output folder: a file is in the way`);
      }
    } else {
      if (gp.optionSchema(model.family).export.options.some((o) => o.name === 'filename')) {
        options.filename = basename(args.output);
      }
      dir = dirname(args.output);
      if (!existsSync(dir)) {
        throw new GraphportError('IO_ERROR', `${args.output}: cannot create: no such folder ${dir}`);
      }
    }
    const result = model.export(options);
    writeOutputs(result.files, dir);
    if (args.json) process.stdout.write(`${JSON.stringify(result.info, null, 2)}\n`);
    return 0;
  } finally {
    model.delete();
  }
}

run(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (e) => {
    const code = e instanceof GraphportError ? e.code : 'INTERNAL';
    process.stderr.write(`graphport: error ${code}: ${e.message}\n`);
    process.exitCode = 1;
  },
);

#!/usr/bin/env node
// `npx graphport`: the same commands, options, output and exit codes as the native CLI, on
// the WebAssembly build.
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

import createGraphport, { GraphportError } from './node.mjs';

function usageError(message) {
  return new GraphportError('INVALID_OPTION', `${message} (see graphport --help)`);
}

// A message option from a file: protobuf JSON if it reads as a JSON object, otherwise the
// bytes (binary or text format) for the core to detect, exactly as the native CLI does.
function messageFileOption(flag, path) {
  let bytes;
  try {
    bytes = readFileSync(path);
  } catch {
    throw usageError(`${flag}: cannot open ${path}`);
  }
  const text = bytes.toString('utf8').trimStart();
  if (text.startsWith('{')) {
    try {
      const object = JSON.parse(text);
      if (object && typeof object === 'object' && !Array.isArray(object)) return object;
    } catch {
      // not JSON after all: the core detects text or binary
    }
  }
  return new Uint8Array(bytes);
}

const BOOLEAN_FLAGS = {
  '--as-text': 'asText',
  '--clear-devices': 'clearDevices',
  '--clear-extraneous-savers': 'clearExtraneousSavers',
  '--strip-default-attrs': 'stripDefaultAttrs',
  '--save-debug-info': 'saveDebugInfo',
};
const MESSAGE_FLAGS = {
  '--op-registry': 'opRegistry',
  '--meta-info-def': 'metaInfoDef',
  '--saver-def': 'saverDef',
  '--graph-def': 'graphDef',
};

function parseArgs(argv) {
  const args = { command: '', input: '', output: '', json: false, load: {}, export: {} };
  for (let i = 0; i < argv.length; i += 1) {
    const a = argv[i];
    const value = (flag) => {
      if (i + 1 >= argv.length) throw usageError(`${flag} needs a value`);
      i += 1;
      return argv[i];
    };
    if (a === '--json') args.json = true;
    else if (a === '-o' || a === '--output') args.output = value('-o');
    else if (a === '--from') args.load.format = value('--from');
    else if (a === '--tags') args.load.tags = value('--tags').split(',').filter(Boolean);
    else if (a === '--to') args.export.to = value('--to');
    else if (Object.hasOwn(BOOLEAN_FLAGS, a)) args.export[BOOLEAN_FLAGS[a]] = true;
    else if (Object.hasOwn(MESSAGE_FLAGS, a)) args.export[MESSAGE_FLAGS[a]] = messageFileOption(a, value(a));
    else if (a === '--export-scope') args.export.exportScope = value(a);
    else if (a === '--collection-list') args.export.collectionList = value(a).split(',').filter(Boolean);
    else if (a.length > 1 && a.startsWith('-')) throw usageError(`unknown option '${a}'`);
    else if (!args.command) args.command = a;
    else if (!args.input) args.input = a;
    else throw usageError(`unexpected argument '${a}'`);
  }
  return args;
}

async function run(argv) {
  const gp = await createGraphport();
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(gp.usage());
    return 0;
  }
  const args = parseArgs(argv);
  if (!args.command || args.command === 'help') {
    process.stdout.write(gp.usage());
    return args.command ? 0 : 2;
  }
  if (args.command !== 'inspect' && args.command !== 'export') {
    throw usageError(`unknown command '${args.command}'`);
  }
  if (!args.input) throw usageError(`${args.command} needs an input FILE`);
  const model = gp.loadFile(args.input, args.load);
  try {
    if (args.command === 'inspect') {
      const summary = model.inspect();
      process.stdout.write(args.json ? `${JSON.stringify(summary, null, 2)}\n` : gp.summaryText(summary));
      return 0;
    }
    if (!args.output) throw usageError('export needs -o OUT');
    const result = model.export({ ...args.export, filename: basename(args.output) });
    // Every file is written under a temporary name first and renamed only when all are.
    const dir = dirname(args.output);
    const written = [];
    try {
      for (const file of result.files) {
        const path = join(dir, file.name);
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

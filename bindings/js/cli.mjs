#!/usr/bin/env node
// `npx graphport`: the native CLI's commands, options, output and exit codes, on the
// WebAssembly build. The grammar and --help are the core's (gp.parseArgs, gp.usage), so the
// two CLIs cannot drift apart; this file only reads and writes files.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

import createGraphport, { GraphportError } from './node.mjs';

function readOptionFile(flag, path) {
  return new Uint8Array(readFileSync(path));
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
  if (!['inspect', 'export', 'check'].includes(args.command)) {
    throw usageError(`unknown command '${args.command}'`);
  }
  if (args.dryRun && args.command !== 'export') throw usageError('--dry-run goes with export');
  if (!args.input) throw usageError(`${args.command} needs an INPUT file or folder`);
  const model = gp.loadFile(args.input, args.load);
  try {
    if (args.command === 'inspect') {
      const summary = model.inspect();
      process.stdout.write(args.json ? `${JSON.stringify(summary, null, 2)}\n` : gp.summaryText(summary));
      return 0;
    }
    if (args.command === 'check') {
      if (args.output) throw usageError('check writes nothing: it takes no -o');
      const report = model.check(args.checkOptions);
      process.stdout.write(args.json ? `${JSON.stringify(report, null, 2)}\n` : gp.checkText(report));
      return report.runs ? 0 : gp.checkFailsExitCode;
    }
    if (args.target) throw usageError('--target goes with check');
    if (args.dryRun) {
      // The export runs into memory and is read back; nothing is created or written.
      const options = { ...args.export };
      if (args.output && !model.writesFolder(options) && gp.optionSchema(model.family).export.options.some((o) => o.name === 'filename')) {
        options.filename = basename(args.output);
      }
      const preview = model.preview(options);
      process.stdout.write(args.json ? `${JSON.stringify(preview, null, 2)}\n` : gp.previewText(preview));
      return 0;
    }
    if (!args.output) throw usageError('export needs -o OUT');
    // Streamed to disk chunk by chunk, under temporary names renamed into place only once
    // the whole export succeeded (gp.exportToFile): a failed export leaves no file behind.
    const result = gp.exportToFile(model, args.export, args.output);
    for (const file of result.files) process.stderr.write(`wrote ${file.path}\n`);
    if (args.json) {
      process.stdout.write(`${JSON.stringify(result.info, null, 2)}\n`);
    } else {
      // What the export wrote but the target cannot take, on stdout with the export's result.
      for (const warning of result.info.warnings ?? []) process.stdout.write(`graphport: warning: ${warning}\n`);
      // What the export did to the graph on its way (a MegEngine dump's optimization).
      for (const note of result.info.notes ?? []) process.stdout.write(`graphport: note: ${note}\n`);
    }
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

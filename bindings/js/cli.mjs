#!/usr/bin/env node
// `npx graphport`: the native CLI's commands, options, output and exit codes, on the
// WebAssembly build. The grammar, --help, which command runs (with its usage errors), the
// output's file name and the text after an export are the core's (gp.parseArgs, gp.usage,
// gp.outputFilename, gp.exportText), so the two CLIs cannot drift apart; this file only reads
// and writes files.
import { readFileSync } from 'node:fs';

import createGraphport, { GraphportError } from './node.mjs';

function readOptionFile(flag, path) {
  return new Uint8Array(readFileSync(path));
}

const json = (value) => `${JSON.stringify(value, null, 2)}\n`;

async function run(argv) {
  const gp = await createGraphport();
  // Throws the core's usage errors: an unknown command, a missing INPUT or -o, a misused flag.
  const args = gp.parseArgs(argv, readOptionFile);
  if (args.action === 'help') {
    process.stdout.write(gp.usage());
    return args.helpExitCode;
  }
  if (args.action === 'schema') {
    process.stdout.write(json(args.input ? gp.optionSchema(args.input) : gp.optionSchema()));
    return 0;
  }
  const model = gp.loadFile(args.input, args.load);
  try {
    if (args.action === 'inspect') {
      const summary = model.inspect();
      process.stdout.write(args.json ? json(summary) : gp.summaryText(summary));
      return 0;
    }
    if (args.action === 'check') {
      const report = model.check(args.checkOptions);
      process.stdout.write(args.json ? json(report) : gp.checkText(report));
      return report.runs ? 0 : gp.checkFailsExitCode;
    }
    if (args.action === 'preview') {
      // The export runs into memory and is read back; nothing is created or written.
      const filename = gp.outputFilename(model, args.export, args.output);
      const preview = model.preview(filename ? { ...args.export, filename } : args.export);
      process.stdout.write(args.json ? json(preview) : gp.previewText(preview));
      return 0;
    }
    // Streamed to disk chunk by chunk, under temporary names renamed into place only once
    // the whole export succeeded (gp.exportToFile): a failed export leaves no file behind.
    const result = gp.exportToFile(model, args.export, args.output);
    for (const file of result.files) process.stderr.write(`wrote ${file.path}\n`);
    process.stdout.write(args.json ? json(result.info) : gp.exportText(result.info));
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

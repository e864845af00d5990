#!/usr/bin/env node
// Rewrites the option tables of README.md from the families' option schemas, between
// `<!-- options:FAMILY:load|export -->` and `<!-- /options -->`, so the documentation names
// exactly the options the core reads; and the error code table of docs/api.md from the core's
// list (gp.errorCodes()), between `<!-- error-codes -->` and `<!-- /error-codes -->`.
//
//   node scripts/gen-option-tables.mjs           rewrite README.md and docs/api.md
//   node scripts/gen-option-tables.mjs --check   fail when either is stale
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import createGraphport from '../bindings/js/node.mjs';

const readme = fileURLToPath(new URL('../README.md', import.meta.url));
const apiDoc = fileURLToPath(new URL('../docs/api.md', import.meta.url));

function cell(text) {
  return String(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function value(v) {
  return v === null || v === undefined ? '' : `\`${JSON.stringify(v)}\``;
}

function table(schema) {
  const titles = new Map(schema.groups.map((g) => [g.id, g.title]));
  let out = '| option | CLI | original name | type | default | meaning |\n|---|---|---|---|---|---|\n';
  for (const o of schema.options) {
    const type = o.choices.length ? o.choices.map((c) => `\`${c}\``).join(', ') : o.type;
    const flag = o.cli ? `\`--${o.type === 'bool' && o.default === true ? 'no-' : ''}${o.cli}\`` : '';
    const group = titles.get(o.group);
    out += `| \`${o.name}\` | ${flag} | ${o.seed ? `\`${o.seed}\`` : ''} | ${cell(type)} | ` +
      `${value(o.default)} | ${group ? `${cell(group)}: ` : ''}${cell(o.help)} |\n`;
  }
  return out;
}

function errorTable(codes) {
  return `| code | when |\n|---|---|\n${codes.map((c) => `| \`${c.code}\` | ${cell(c.meaning)} |\n`).join('')}`;
}

const gp = await createGraphport();
const families = new Map(gp.optionSchema().map((f) => [f.family, f]));
const check = process.argv.includes('--check');

// Writes `next` over `file`, or with --check says it is stale.
function update(file, text, next, name) {
  if (!check) {
    writeFileSync(file, next);
  } else if (next !== text) {
    process.stderr.write(`${name} is stale: run node scripts/gen-option-tables.mjs\n`);
    process.exitCode = 1;
  }
}

const text = readFileSync(readme, 'utf8');
const marker = /<!-- options:([a-z]+):(load|export) -->\n[\s\S]*?<!-- \/options -->/g;
let seen = 0;
const next = text.replace(marker, (_, id, which) => {
  const family = families.get(id);
  if (!family) throw new Error(`README.md names an unknown family '${id}'`);
  seen += 1;
  return `<!-- options:${id}:${which} -->\n${table(family[which])}<!-- /options -->`;
});
if (seen === 0) throw new Error('README.md has no option table markers');
update(readme, text, next, 'README.md option tables');

const api = readFileSync(apiDoc, 'utf8');
const codes = /<!-- error-codes -->\n[\s\S]*?<!-- \/error-codes -->/;
if (!codes.test(api)) throw new Error('docs/api.md has no error code table markers');
update(apiDoc, api, api.replace(codes, () => `<!-- error-codes -->\n${errorTable(gp.errorCodes())}<!-- /error-codes -->`),
  'docs/api.md error code table');

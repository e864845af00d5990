#!/usr/bin/env node
// Rewrites the option tables of README.md from the families' option schemas, between
// `<!-- options:FAMILY:load|export -->` and `<!-- /options -->`, so the documentation names
// exactly the options the core reads.
//
//   node scripts/gen-option-tables.mjs           rewrite README.md
//   node scripts/gen-option-tables.mjs --check   fail when README.md is stale
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import createGraphport from '../bindings/js/node.mjs';

const readme = fileURLToPath(new URL('../README.md', import.meta.url));

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

const gp = await createGraphport();
const families = new Map(gp.optionSchema().map((f) => [f.family, f]));
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
if (process.argv.includes('--check')) {
  if (next !== text) {
    process.stderr.write('README.md option tables are stale: run node scripts/gen-option-tables.mjs\n');
    process.exit(1);
  }
} else {
  writeFileSync(readme, next);
}

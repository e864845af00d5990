// The read options, built from every family's load schema: "Read as" offers each family's
// formats (or detection, the default), then each family's load options by type. Only the
// values the user set travel to load(): the core applies its own defaults to the rest.
import { h } from './dom.mjs';

// schemas: gp.optionSchema(); familyPage(family): the family's page parts (web/families.mjs).
export function loadForm(schemas, familyPage) {
  const inputs = {}; // option name -> {option, input}
  const formatSelect = h('select', { id: 'read-format' },
    h('option', { value: '' }, 'Detect automatically'),
    schemas.filter((f) => f.formats?.length).map((f) => h('optgroup', { label: f.title },
      f.formats.map((format) => h('option', { value: format },
        (familyPage(f.family).formatTitle ?? ((x) => x))(format))))));
  const rows = [h('label', { for: 'read-format' }, 'Read as'), h('div', formatSelect)];
  for (const family of schemas) {
    for (const option of family.load.options) {
      if (inputs[option.name]) continue;
      const id = `load-${option.name}`;
      const input = option.type === 'bool'
        ? h('input', { type: 'checkbox', id, checked: option.default === true })
        : h('input', { type: option.type === 'int' ? 'number' : 'text', id, spellcheck: false,
          placeholder: option.metavar || '' });
      inputs[option.name] = { option, input };
      rows.push(h('label', { for: id, title: `${family.title}: ${family.load.api}(${option.seed}=…)` }, option.label),
        h('div', input, h('p.help', option.help)));
    }
  }
  const element = h('div.read-fields', rows);
  return {
    element,
    // The options for load(): the format when one is forced, and the options the user set.
    values() {
      const values = {};
      if (formatSelect.value) values.format = formatSelect.value;
      for (const [name, { option, input }] of Object.entries(inputs)) {
        if (option.type === 'bool') {
          if (input.checked !== (option.default === true)) values[name] = input.checked;
        } else if (input.value.trim()) {
          const text = input.value.trim();
          if (option.type === 'string-list') values[name] = text.split(',').map((t) => t.trim()).filter(Boolean);
          else if (option.type === 'int') values[name] = Number(text);
          else values[name] = text;
        }
      }
      return values;
    },
    // From the summary ("Open this one" of another meta graph: its tags).
    set(name, value) {
      const entry = inputs[name];
      if (!entry) return;
      if (entry.option.type === 'bool') entry.input.checked = Boolean(value);
      else entry.input.value = Array.isArray(value) ? value.join(', ') : String(value);
    },
  };
}

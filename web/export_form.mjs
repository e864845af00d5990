// The export form, built from a family's export schema (gp.optionSchema(family).export): its
// groups, each option with its label, help text and the seed's argument name, a control by
// the option's type, and the plan (what will be written, and why not) kept up to date as the
// user changes anything. A family's own parts (web/<family>/form.mjs) add labels for choices,
// suggestions, controls of their own and the plan; without them the form still works.
import { clear, formatBytes, h } from './dom.mjs';
import { FILE_TYPES, derivedDefault, exportRequest, isTriState, schemaPlan } from './export_request.mjs';
import { parseMessageFile } from './message_file.mjs';

export { schemaPlan };

const TRI_STATE_LABELS = { none: 'default', true: 'on', false: 'off' };

// The form's starting values, from the schema's defaults. Message and bytes options hold
// {name, value, error} once a file is picked; a string-list holds null (its default) or a list.
export function initialValues(schema) {
  const state = {};
  for (const o of schema.options) {
    if (isTriState(o)) state[o.name] = null;
    else if (o.type === 'bool') state[o.name] = o.default ?? false;
    else if (o.type === 'choice') state[o.name] = o.default === null ? null : o.default ?? o.choices[0];
    else if (o.type === 'string' || o.type === 'int') state[o.name] = o.default ?? '';
    else state[o.name] = o.default ?? null;
  }
  return state;
}

function isDefault(option, value) {
  if (isTriState(option)) return value === null;
  if (option.type === 'bool') return value === (option.default ?? false);
  if (option.type === 'string') return value === (option.default ?? '');
  return value === option.default || (value === null && option.default === undefined);
}

// "a", "a and b", "a, b and c"; past four, the first three and how many more.
function fileList(files) {
  const shown = files.length > 4 ? [...files.slice(0, 3)] : files;
  const items = shown.map((f) => h('code', f));
  if (files.length > 4) items.push(h('span.muted', `${files.length - 3} more files`));
  return items.map((item, i) => [i === 0 ? null : h('span.muted', i === items.length - 1 ? ' and ' : ', '), item]);
}

// onPlan(plan) after every update of the plan (null without a model): the pre-flight follows it.
export function exportForm({ onExport, onChange, onPlan }) {
  let schema = null;
  let page = {};
  let state = {};
  let summary = null;
  let plan = null;
  let busy = false;
  const byName = {};
  const rows = {};
  const customs = {}; // name -> container of a family's own control
  const element = h('div.export-form');
  // Focusable: on a narrow screen it scrolls within the sticky footer, by keyboard too.
  const planBox = h('div.plan', { id: 'plan', 'aria-live': 'polite', 'aria-label': 'Export plan', tabindex: '0' });
  const exportButton = h('button.primary', { type: 'button', id: 'export-button', disabled: true,
    onclick: () => plan && !plan.errors.length && onExport(plan) }, 'Export');
  const actions = h('div.export-actions', planBox, exportButton);

  const labelOf = (name) => byName[name]?.label ?? name;
  const hooks = () => page.form ?? {};

  // After a change the user made (not after a new model or a busy state).
  function changed() {
    update();
    onChange?.();
  }

  function choiceLabel(option, value) {
    const fallback = isTriState(option) ? TRI_STATE_LABELS : {};
    if (value === null) return hooks().choiceLabels?.[option.name]?.none ?? fallback.none ?? 'none';
    return hooks().choiceLabels?.[option.name]?.[value] ?? fallback[value] ?? value;
  }

  // The options an export will use, by the seed's names: as_text, export_scope="save", …
  function optionChips(options) {
    const chips = [];
    for (const [name, value] of Object.entries(options)) {
      const option = byName[name];
      if (!option || isDefault(option, value)) continue;
      const key = option.seed || option.label.toLowerCase();
      const eq = option.seed ? '=' : ': ';
      let text = key;
      if (option.type === 'choice' || isTriState(option)) text = `${key}${eq}${choiceLabel(option, value)}`;
      else if (FILE_TYPES.has(option.type) && typeof state[name] === 'string') text = `${key}${eq}${JSON.stringify(state[name])}`;
      else if (FILE_TYPES.has(option.type)) text = `${key}${eq}${state[name]?.name ?? 'file'}`;
      else if (Array.isArray(value)) {
        const shown = value.length > 3 ? [...value.slice(0, 3), `… ${value.length} in all`] : value;
        text = `${key}${eq}[${shown.join(', ')}]`;
      } else if (typeof value === 'string') text = `${key}${eq}"${value}"`;
      else if (typeof value !== 'boolean') text = `${key}${eq}${value}`;
      chips.push(h(option.seed ? 'code.chip' : 'code.chip.own',
        { title: option.seed ? `${schema.api}(${option.seed}=…)` : 'graphport’s own option' }, text));
    }
    return chips.length ? chips : h('span.muted', 'the default options');
  }

  function update() {
    if (!schema) return;
    // An option whose default depends on others shows the one these values give.
    const { options } = exportRequest(schema, state);
    for (const option of schema.options.filter((o) => o.defaultWhen?.length)) {
      const input = element.querySelector(`#opt-${option.name}`);
      if (input) input.placeholder = String(derivedDefault(schema, options, option) ?? '');
    }
    for (const [name, make] of Object.entries(hooks().placeholders ?? {})) {
      const input = element.querySelector(`#opt-${name}`);
      if (input) input.placeholder = make(state);
    }
    plan = summary ? (hooks().plan ?? ((s) => schemaPlan(schema, s)))(state, summary, schema) : null;
    for (const row of Object.values(rows)) {
      row.classList.remove('has-error', 'has-warning');
      clear(row.querySelector('.option-plan'));
    }
    onPlan?.(plan);
    if (!plan) {
      clear(planBox, h('p.muted', 'Open a model to export it.'));
      exportButton.disabled = true;
      return;
    }
    // Each item shows in the plan and under its option, where the user is looking.
    const item = (cls, { option, text }) => {
      const row = rows[option];
      if (row) {
        if (cls !== 'note') row.classList.add(`has-${cls}`);
        row.querySelector('.option-plan').append(h(`li.${cls}`, text));
      }
      return h(`li.${cls}`, h('strong', `${labelOf(option)}: `), text);
    };
    const { files, errors, warnings, notes } = plan;
    clear(planBox,
      files.length ? h('div.plan-files', h('span.muted', 'Will write '), fileList(files)) : null,
      h('div.plan-options', { id: 'plan-options' }, h('span.muted', 'With '), optionChips(plan.options)),
      errors.length || warnings.length || notes.length
        ? h('ul.plan-items', errors.map((x) => item('error', x)), warnings.map((x) => item('warning', x)),
          notes.map((x) => item('note', x)))
        : null,
      errors.length ? h('p.blocked', { id: 'export-blocked' }, `Fix ${errors.length === 1 ? 'the problem' : 'the problems'} marked in red to export.`) : null);
    exportButton.disabled = errors.length > 0 || busy;
  }

  function filePicker(option) {
    const id = `opt-${option.name}`;
    const status = h('span.file-status.muted', 'none');
    const input = h('input', { type: 'file', id, class: 'visually-hidden',
      onchange: async (e) => {
        const file = e.target.files[0];
        if (!file) return;
        const bytes = new Uint8Array(await file.arrayBuffer());
        const parsed = parseMessageFile(file.name, bytes, { asBytes: option.type === 'bytes' });
        state[option.name] = { name: file.name, value: parsed.value, error: parsed.error };
        status.textContent = `${file.name} (${formatBytes(file.size)}${parsed.encoding === 'json' ? ', JSON' : ''})`;
        status.classList.remove('muted');
        removeButton.hidden = false;
        changed();
      } });
    const removeButton = h('button.small.link', { type: 'button', hidden: true, dataset: { remove: option.name },
      onclick: () => {
        state[option.name] = null;
        input.value = '';
        status.textContent = 'none';
        status.classList.add('muted');
        removeButton.hidden = true;
        changed();
      } }, 'remove');
    // Several pickers read "Choose file…": the input's own name says for which option.
    input.setAttribute('aria-label', `Choose file… (${option.label})`);
    return h('span.file-pick', h('label.button.small', { for: id }, 'Choose file…'), input, status, removeButton);
  }

  function textInput(option, { type = 'text', value, onValue }) {
    const suggest = hooks().suggestions?.[option.name];
    return h('input', { type, id: `opt-${option.name}`, value, spellcheck: false, autocomplete: 'off',
      // The core's least value (shardSize's 1): the browser's stepper stops there.
      min: type === 'number' ? option.minimum ?? null : null,
      // A text option of few accepted values (MegEngine's "8.14") shows them.
      placeholder: option.type === 'string' && option.choices?.length ? option.choices.join(' or ') : option.metavar || '',
      list: suggest ? `suggest-${option.name}` : null,
      oninput: (e) => {
        onValue(e.target.value);
        changed();
      } });
  }

  function segmented(option, values) {
    const name = option.name;
    return h('div.segmented', { role: 'radiogroup', 'aria-label': option.label },
      values.map((value) => h('label',
        h('input', { type: 'radio', name: `opt-${name}`, value: value === null ? '' : String(value), checked: state[name] === value,
          onchange: () => {
            state[name] = value;
            changed();
          } }),
        h('span', choiceLabel(option, value)))));
  }

  function control(option) {
    const name = option.name;
    if (hooks().controls?.[name]) {
      customs[name] = h('div.custom-control');
      return customs[name];
    }
    if (isTriState(option)) return segmented(option, [null, true, false]);
    switch (option.type) {
      case 'choice':
      case 'int':
        // An int with choices (MegEngine's keep_var_name levels) is picked like a choice.
        if (option.type === 'int' && !option.choices?.length) {
          return textInput(option, { type: 'number', value: state[name], onValue: (v) => { state[name] = v; } });
        }
        // A choice without a default (quantize) may also be left unset.
        return segmented(option, option.default === null ? [null, ...option.choices] : option.choices);
      case 'bool':
        return h('input', { type: 'checkbox', id: `opt-${name}`, checked: state[name],
          onchange: (e) => {
            state[name] = e.target.checked;
            changed();
          } });
      case 'string':
        return textInput(option, { value: state[name], onValue: (v) => { state[name] = v; } });
      case 'string-list':
        return textInput(option, { value: (state[name] ?? []).join(', '),
          onValue: (v) => {
            const list = v.split(',').map((s) => s.trim()).filter(Boolean);
            state[name] = v.trim() ? list : null;
          } });
      default:
        return FILE_TYPES.has(option.type) ? filePicker(option) : null;
    }
  }

  function seedName(option) {
    return option.seed
      ? h('code.seed', { title: `${schema.api}(${option.seed}=…)` }, option.seed)
      : h('span.seed.own', { title: `graphport’s own option: ${schema.api || 'the seed'} has no such argument` }, 'graphport option');
  }

  function row(option) {
    const c = control(option);
    const inline = option.type === 'bool' && !isTriState(option) && !customs[option.name];
    const typed = ['string', 'string-list'].includes(option.type) || (option.type === 'int' && !option.choices?.length);
    const labelFor = inline || typed ? `opt-${option.name}` : null;
    const el = h(`div.option.kind-${option.type}`, { dataset: { option: option.name } },
      h('div.option-head',
        inline
          ? h('label.option-label', { for: labelFor }, c, h('span', option.label))
          : h('label.option-label', labelFor ? { for: labelFor } : {}, option.label),
        seedName(option)),
      inline ? null : h('div.option-control', c),
      h('p.help', option.help),
      h('ul.option-plan'));
    rows[option.name] = el;
    return el;
  }

  function renderCustoms() {
    for (const [name, box] of Object.entries(customs)) {
      const make = hooks().controls[name];
      clear(box, make({ state, summary, changed, rerender: renderCustoms }));
    }
    for (const [name, list] of Object.entries(hooks().suggestions ?? {})) {
      const datalist = element.querySelector(`#suggest-${name}`);
      if (datalist) clear(datalist, list(summary).map((s) => h('option', { value: s.value }, s.label)));
    }
  }

  function build() {
    for (const key of [byName, rows, customs]) for (const name of Object.keys(key)) delete key[name];
    for (const o of schema.options) byName[o.name] = o;
    const groups = schema.groups.map((group) => {
      const options = schema.options.filter((o) => o.group === group.id);
      return options.length
        ? h('fieldset.group', { dataset: { group: group.id } }, h('legend', group.title), options.map(row))
        : null;
    });
    const loose = schema.options.filter((o) => !schema.groups.some((g) => g.id === o.group));
    const datalists = Object.keys(hooks().suggestions ?? {}).map((name) => h('datalist', { id: `suggest-${name}` }));
    clear(element, groups, loose.length ? h('fieldset.group', loose.map(row)) : null, datalists,
      schema.options.length ? null : h('p.muted', `${schema.title} exports have no options.`));
    renderCustoms();
  }

  return {
    element,
    actions,
    labelOf,
    get schema() {
      return schema;
    },
    // The export schema of a family and the family's page parts (web/families.mjs). The
    // values start again from the schema's defaults when the family changes.
    setSchema(newSchema, familyPage) {
      if (schema?.family === newSchema.family) return;
      schema = newSchema;
      page = familyPage ?? {};
      state = initialValues(schema);
      build();
      update();
    },
    setModel(newSummary) {
      summary = newSummary;
      if (summary) hooks().forModel?.(state, summary);
      renderCustoms();
      update();
    },
    setBusy(value) {
      busy = value;
      update();
    },
    // Sets an option from elsewhere on the page (the summary's "Export this scope"), brings it
    // into view with its part of the plan, and marks it for a moment.
    setOption(name, value) {
      state[name] = value;
      const input = element.querySelector(`#opt-${name}`);
      if (input && 'value' in input) input.value = value;
      changed();
      const target = rows[name];
      target?.scrollIntoView({ block: 'center' });
      target?.classList.add('flash');
      setTimeout(() => target?.classList.remove('flash'), 1500);
      input?.focus({ preventScroll: true });
    },
    get values() {
      return state;
    },
  };
}

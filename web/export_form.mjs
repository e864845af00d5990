// The export form: every option of tf.train.export_meta_graph, grouped, each with its help
// text and TensorFlow's argument name, and the plan (what will be written, and why not)
// kept up to date as the user changes anything.
import { clear, formatBytes, h, plural } from './dom.mjs';
import {
  GROUPS, OPTIONS, defaultFilename, initialState, parseMessageFile, planExport,
} from './export_options.mjs';

function tfName(option) {
  return option.tf
    ? h('code.tf', { title: `tf.train.export_meta_graph(${option.tf}=…)` }, option.tf)
    : h('span.tf.own', { title: 'graphport’s own option: export_meta_graph has no such argument' }, 'graphport option');
}

// The options an export will use, by TensorFlow's names: as_text, export_scope="save", …
function optionChips(options, state) {
  const chips = [];
  for (const [key, value] of Object.entries(options)) {
    if (key === 'to' || key === 'filename') continue;
    const tf = OPTIONS[key]?.tf;
    const name = tf ?? OPTIONS[key]?.label.toLowerCase() ?? key;
    const eq = tf ? '=' : ': ';
    let text = name;
    if (typeof value === 'string') text = `${name}${eq}"${value}"`;
    else if (Array.isArray(value)) {
      const shown = value.length > 3 ? [...value.slice(0, 3), `… ${value.length} in all`] : value;
      text = `${name}${eq}[${shown.join(', ')}]`;
    } else if (typeof value !== 'boolean') text = `${name}${eq}${state[key]?.name ?? 'file'}`;
    chips.push(h(tf ? 'code.chip' : 'code.chip.own', { title: tf ? `export_meta_graph(${tf}=…)` : 'graphport’s own option' }, text));
  }
  return chips.length ? chips : h('span.muted', 'the default options');
}
export function exportForm({ onExport, onChange }) {
  const state = initialState();
  let summary = null;
  let plan = null;
  const controls = {};
  const rowsById = {};
  const planBox = h('div.plan', { id: 'plan', 'aria-live': 'polite' });
  const exportButton = h('button.primary', { type: 'button', id: 'export-button', disabled: true,
    onclick: () => plan && !plan.errors.length && onExport(plan) }, 'Export');

  // After a change the user made (not after a new model or a busy state).
  function changed() {
    update();
    onChange?.();
  }

  function update() {
    const filenameInput = controls.filename;
    filenameInput.placeholder = defaultFilename(state.to, state.asText);
    plan = summary ? planExport(state, summary) : null;
    for (const row of Object.values(rowsById)) row.classList.remove('has-error', 'has-warning');
    if (!plan) {
      clear(planBox, h('p.muted', 'Open a model to export it.'));
      exportButton.disabled = true;
      return;
    }
    const label = (id) => OPTIONS[id]?.label ?? id;
    const item = (cls, { option, text }) => {
      if (cls !== 'note') rowsById[option]?.classList.add(`has-${cls}`);
      return h(`li.${cls}`, h('strong', `${label(option)}: `), text);
    };
    clear(planBox,
      h('div.plan-files', h('span.muted', 'Will write '),
        plan.files.map((f, i) => [i ? h('span.muted', ' and ') : null, h('code', f)])),
      h('div.plan-options', { id: 'plan-options' }, h('span.muted', 'With '), optionChips(plan.options, state)),
      plan.errors.length || plan.warnings.length || plan.notes.length
        ? h('ul.plan-items',
          plan.errors.map((x) => item('error', x)),
          plan.warnings.map((x) => item('warning', x)),
          plan.notes.map((x) => item('note', x)))
        : null,
      plan.errors.length ? h('p.blocked', { id: 'export-blocked' }, `Fix ${plan.errors.length === 1 ? 'the problem' : 'the problems'} marked in red to export.`) : null);
    exportButton.disabled = plan.errors.length > 0 || busy;
  }

  let busy = false;

  function control(id, option) {
    switch (option.kind) {
      case 'choice':
        return h('div.segmented', { role: 'radiogroup', 'aria-label': option.label },
          option.choices.map(([value, text]) => h('label',
            h('input', { type: 'radio', name: `opt-${id}`, value, checked: state[id] === value,
              onchange: () => { state[id] = value; changed(); } }),
            h('span', text))));
      case 'bool':
        return h('input', { type: 'checkbox', id: `opt-${id}`, checked: state[id],
          onchange: (e) => { state[id] = e.target.checked; changed(); } });
      case 'text':
        return h('input', { type: 'text', id: `opt-${id}`, value: state[id], spellcheck: false,
          autocomplete: 'off', placeholder: option.placeholder ?? '',
          list: option.suggestions ? `suggest-${option.suggestions}` : null,
          oninput: (e) => { state[id] = e.target.value; changed(); } });
      case 'message': {
        const status = h('span.file-status.muted', 'none');
        const clearButton = h('button.small.link', { type: 'button', hidden: true,
          onclick: () => { state[id] = null; input.value = ''; status.textContent = 'none'; clearButton.hidden = true; changed(); } }, 'remove');
        const input = h('input', { type: 'file', id: `opt-${id}`, class: 'visually-hidden',
          onchange: async (e) => {
            const file = e.target.files[0];
            if (!file) return;
            const bytes = new Uint8Array(await file.arrayBuffer());
            const parsed = parseMessageFile(file.name, bytes);
            state[id] = { name: file.name, value: parsed.value, error: parsed.error };
            status.textContent = `${file.name} (${formatBytes(file.size)}${parsed.encoding === 'json' ? ', JSON' : ''})`;
            status.classList.remove('muted');
            clearButton.hidden = false;
            changed();
          } });
        return h('span.file-pick', h('label.button.small', { for: `opt-${id}` }, 'Choose file…'), input, status, clearButton);
      }
      case 'collections':
        return h('div.collections', { id: 'opt-collectionList' });
      default:
        return null;
    }
  }

  function renderCollections() {
    const box = controls.collectionList;
    const collections = summary?.collections ?? [];
    if (!summary) {
      clear(box, h('span.muted', 'the model’s collections appear here'));
      return;
    }
    if (!collections.length) {
      clear(box, h('span.muted', 'this model has no collections'));
      return;
    }
    const checks = collections.map((c) => h('label.check',
      h('input', { type: 'checkbox', value: c.name, disabled: state.collectionMode !== 'choose',
        checked: state.collectionMode !== 'choose' || state.collections.includes(c.name),
        onchange: (e) => {
          state.collections = e.target.checked
            ? [...state.collections, c.name]
            : state.collections.filter((n) => n !== c.name);
          changed();
        } }),
      h('code', c.name), h('span.muted', ` ${c.kind}, ${c.size}`)));
    const mode = (value, text) => h('label', h('input', { type: 'radio', name: 'collection-mode', value,
      checked: state.collectionMode === value,
      onchange: () => {
        state.collectionMode = value;
        if (value === 'choose' && !state.collections.length) state.collections = collections.map((c) => c.name);
        renderCollections();
        changed();
      } }), h('span', text));
    clear(box,
      h('div.segmented.small', mode('all', 'All (default)'), mode('choose', 'Choose')),
      h('div.check-list', { class: state.collectionMode === 'choose' ? '' : 'dimmed' }, checks),
      state.collectionMode === 'choose' ? h('div.check-actions',
        h('button.small.link', { type: 'button', onclick: () => { state.collections = collections.map((c) => c.name); renderCollections(); changed(); } }, 'tick all'),
        h('button.small.link', { type: 'button', onclick: () => { state.collections = []; renderCollections(); changed(); } }, 'tick none')) : null);
  }

  const groups = GROUPS.map((group) => h('fieldset.group', { dataset: { group: group.id } },
    h('legend', group.title),
    group.options.map((id) => {
      const option = OPTIONS[id];
      const c = control(id, option);
      controls[id] = c;
      const labelFor = option.kind === 'bool' || option.kind === 'text' ? `opt-${id}` : null;
      const row = h(`div.option.kind-${option.kind}`, { dataset: { option: id } },
        h('div.option-head',
          option.kind === 'bool'
            ? h('label.option-label', { for: labelFor }, c, h('span', option.label))
            : h('label.option-label', labelFor ? { for: labelFor } : {}, option.label),
          tfName(option)),
        option.kind === 'bool' ? null : h('div.option-control', c),
        h('p.help', option.help));
      rowsById[id] = row;
      return row;
    })));

  // The model's name scopes, offered as the user types an export scope.
  const scopeList = h('datalist', { id: 'suggest-scopes' });
  function renderScopes() {
    clear(scopeList, (summary?.scopes ?? []).map((s) => h('option', { value: s.name },
      plural(s.nodeCount, 'node'))));
  }

  const element = h('div.export-form', groups, scopeList);
  const actions = h('div.export-actions', planBox, exportButton);
  renderCollections();
  update();

  return {
    element,
    actions,
    setModel(newSummary) {
      summary = newSummary;
      state.collectionMode = 'all';
      state.collections = [];
      renderCollections();
      renderScopes();
      update();
    },
    setBusy(value) {
      busy = value;
      update();
    },
    // From the summary's list of scopes.
    setScope(name) {
      state.exportScope = name;
      controls.exportScope.value = name;
      changed();
      controls.exportScope.scrollIntoView({ block: 'center', behavior: 'smooth' });
    },
    state,
  };
}

// TensorFlow's parts of the export form: the choice labels, the scope suggestions from the
// summary, the collections as a checklist of the model's collections, and the plan. The
// options themselves (labels, help, the seed's names) come from the core's schema.
import { h, plural } from '../dom.mjs';
import { FORMAT_TITLES } from './names.mjs';
import { planExport } from './plan.mjs';

// The collections: all (collectionList null, the default) or the ticked ones (a list).
function collectionsControl({ state, summary, changed, rerender }) {
  const box = h('div.collections', { id: 'opt-collectionList' });
  const collections = summary?.collections ?? [];
  if (!summary || !collections.length) {
    box.append(h('span.muted', summary ? 'this model has no collections' : 'the model’s collections appear here'));
    return box;
  }
  const choosing = Array.isArray(state.collectionList);
  const set = (list) => {
    state.collectionList = list;
    rerender();
    changed();
  };
  const checks = collections.map((c) => h('label.check',
    h('input', { type: 'checkbox', value: c.name, disabled: !choosing,
      checked: !choosing || state.collectionList.includes(c.name),
      onchange: (e) => {
        state.collectionList = e.target.checked
          ? [...state.collectionList, c.name]
          : state.collectionList.filter((n) => n !== c.name);
        changed();
      } }),
    h('code', c.name), h('span.muted', ` ${c.kind}, ${c.size}`)));
  const mode = (value, text) => h('label', h('input', { type: 'radio', name: 'collection-mode', value,
    checked: choosing === (value === 'choose'),
    onchange: () => set(value === 'choose' ? collections.map((c) => c.name) : null) }), h('span', text));
  box.append(
    h('div.segmented.small', mode('all', 'All (default)'), mode('choose', 'Choose')),
    h('div.check-list', { class: choosing ? '' : 'dimmed' }, checks),
    choosing ? h('div.check-actions',
      h('button.small.link', { type: 'button', onclick: () => set(collections.map((c) => c.name)) }, 'tick all'),
      h('button.small.link', { type: 'button', onclick: () => set([]) }, 'tick none')) : null);
  return box;
}

export const tfForm = {
  // Freeze unset is the core's default: on for TF.js when the graph needs it, off otherwise.
  choiceLabels: { to: FORMAT_TITLES, freeze: { none: 'Auto', true: 'On', false: 'Off' } },
  placeholders: {
    exportScope: () => 'e.g. tower_0 or model/dense',
  },
  // The model's name scopes, offered as the user types an export scope.
  suggestions: {
    exportScope: (summary) => (summary?.scopes ?? []).map((s) => ({ value: s.name, label: plural(s.nodeCount, 'node') })),
  },
  controls: { collectionList: collectionsControl },
  // A new model: its collections differ, so every one is exported again.
  forModel(state) {
    state.collectionList = null;
  },
  plan: planExport,
};

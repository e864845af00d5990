// MegEngine's parts of the export form: the keep_var_name levels in words, the user_info as
// text (Network.dump pickles a str), and the plan. The options themselves (groups, labels,
// help, the seed's names) come from the core's schema.
import { h } from '../dom.mjs';
import { planExport } from './plan.mjs';

// user_info as text: pickled as str, as Network.dump(user_info="...") does.
function userInfoControl({ state, changed }) {
  return h('input', { type: 'text', id: 'opt-userInfo', value: state.userInfo ?? '', placeholder: 'e.g. resnet18, trained 2026-11',
    spellcheck: false,
    oninput: (e) => {
      state.userInfo = e.target.value;
      changed();
    } });
}

export const mgeForm = {
  choiceLabels: {
    keepVarName: { 0: '0 · none', 1: '1 · outputs', 2: '2 · all' },
  },
  placeholders: {
    stripInfoFile: () => 'e.g. strip_info.json',
  },
  controls: { userInfo: userInfoControl },
  plan: planExport,
};

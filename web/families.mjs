// The families' own parts of the page, one folder each. A family without one here still
// works: its summary shows the common header, its form is built from its schema alone.
//
// A family's parts (each optional):
//   formatTitle(format) -> the format as its users name it
//   summaryView(summary, {onSetLoadOption, onPickScope}) -> the summary below the header
//   form: {choiceLabels, placeholders, suggestions, controls, forModel, plan} (export_form.mjs)
//   exportInfoView(info, {labelOf}) -> what an export wrote
//   errorTips(error, {labelOf}) -> {title, tips} for an error of its reader, or null
//   preflight: {request(plan, summary) -> model.check() options or null, findings(outcome),
//     view(findings)}: what the export's target cannot run, shown before Export
import { megenginePage } from './mge/index.mjs';
import { tensorflowPage } from './tf/index.mjs';
import { tfjsPage } from './tfjs/index.mjs';

const PAGES = {
  tensorflow: tensorflowPage,
  megengine: megenginePage,
  tfjs: tfjsPage,
};

export function familyPage(family) {
  return PAGES[family] ?? {};
}

// The MegEngine family's parts of the page, as web/families.mjs expects a family's parts.
import { exportInfoView } from './export_info.mjs';
import { mgeForm } from './form.mjs';
import { formatTitle } from './names.mjs';
import { mgeSummaryView } from './summary.mjs';

export const megenginePage = {
  formatTitle,
  summaryView: mgeSummaryView,
  form: mgeForm,
  exportInfoView,
};

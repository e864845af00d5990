// The TensorFlow family's parts of the page, as web/families.mjs expects a family's parts.
import { tfErrorTips } from './error_tips.mjs';
import { exportInfoView } from './export_info.mjs';
import { tfForm } from './form.mjs';
import { formatTitle } from './names.mjs';
import { preflightFindings, preflightRequest, preflightView } from './preflight.mjs';
import { tfSummaryView } from './summary.mjs';

export const tensorflowPage = {
  formatTitle,
  summaryView: tfSummaryView,
  form: tfForm,
  exportInfoView,
  errorTips: tfErrorTips,
  preflight: { request: preflightRequest, findings: preflightFindings, view: preflightView },
};

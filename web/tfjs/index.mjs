// The TensorFlow.js family's parts of the page: a TF.js graph model is read as a TensorFlow
// graph, so its form, export info and error tips are TensorFlow's; its summary adds the
// manifest's part after TensorFlow's.
import { tensorflowPage } from '../tf/index.mjs';
import { tfjsSummaryView } from './summary.mjs';

export const tfjsPage = {
  ...tensorflowPage,
  summaryView: tfjsSummaryView,
};

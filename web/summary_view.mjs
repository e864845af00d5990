// The summary of a loaded model (model.inspect()): the header every family has (family,
// format, encoding, how it was detected, the producer, the counts, the inputs read), rendered
// once here, then the family's own part (web/<family>/summary.mjs) below it.
import { fact, formatBytes, formatCount, formatSeconds, h } from './dom.mjs';

// "op types" -> "op-types": the counts' labels as data-field names.
function fieldName(label) {
  return String(label).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

// summary: inspect(); file: {name, size}; note: why these files were read (or '');
// page: the family's page parts (web/families.mjs); hooks go to its summaryView.
export function summaryView(summary, { file, note, seconds, page, hooks }) {
  const formatTitle = page.formatTitle ?? ((f) => f);
  const inputs = summary.inputs ?? [];
  const counts = summary.counts ?? [];
  return h('div.summary', { id: 'summary' },
    h('div.summary-head',
      h('div.summary-title',
        h('h2', { dataset: { field: 'file' } }, file.name),
        h('div.muted', `${formatBytes(summary.inputBytes ?? file.size)} · read in ${formatSeconds(seconds)}`)),
      h('div.badges',
        h('span.badge.kind', { dataset: { field: 'format' }, title: summary.format }, formatTitle(summary.format)),
        h('span.badge', { dataset: { field: 'encoding' } }, summary.encoding),
        h('span.badge', { dataset: { field: 'family' }, title: summary.family }, summary.familyTitle ?? summary.family))),
    note ? h('p.note', note) : null,
    h('div.facts',
      fact('Detected', summary.detection, 'detection'),
      summary.producerText ? fact('Producer', summary.producerText, 'producer') : null,
      inputs.length > 1 ? fact('Read', inputs.map((name) => h('code.input-name', name)), 'inputs') : null),
    counts.length ? h('div.stats', counts.map(([label, n]) => h('div.stat',
      h('div.stat-value', { dataset: { field: fieldName(label) } }, formatCount(n)),
      h('div.stat-label', label)))) : null,
    page.summaryView ? page.summaryView(summary, hooks) : null);
}

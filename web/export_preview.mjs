// The export preview on the page (issue 35): what Export would do to the graph, from the
// core's model.preview() (the export run into memory and read back, index.d.ts ExportPreview).
// What it means in words (previewFindings, no DOM), how it shows beside the pre-flight
// (previewView), and the marks the Graph tab draws on the nodes (previewMarks).
import { h, plural } from './dom.mjs';

// The marks' glyphs and words: a mark is told by its glyph and its outline, not by colour
// alone, and the legend says which is which.
export const MARKS = {
  dropped: { glyph: '−', words: 'dropped' },
  changed: { glyph: 'Δ', words: 'changed' },
  added: { glyph: '+', words: 'added' },
};

// {state: 'ready' | 'failed', title, lines: [{text, option}], error?}.
export function previewFindings(outcome) {
  const { report: p, error } = outcome;
  if (error) return { state: 'failed', title: 'No preview: the export would fail', lines: [], error };
  const title = `${plural(p.nodes.before, 'node')} → ${p.nodes.after}: `
    + `${p.dropped.count} dropped, ${p.changed.count} changed, ${p.added.count} added`;
  const lines = p.options.map((o) => ({ option: o.option, text: o.text }));
  return { state: 'ready', title, lines, empty: lines.length === 0 };
}

export function previewView(findings) {
  if (findings.state === 'waiting' || findings.state === 'running') {
    return [h('p.muted', 'Previewing what Export changes…')];
  }
  const out = [h('p.preview-title', h('strong', 'Export preview: '), findings.title)];
  if (findings.error) out.push(h('p', `${findings.error.code}: ${findings.error.message}`));
  if (findings.empty) out.push(h('p.muted', 'No option changes a node.'));
  if (findings.lines.length) {
    out.push(h('ul.preview-options', findings.lines.map((l) => h('li', { dataset: { option: l.option } }, l.text))));
  }
  if (findings.state === 'ready') out.push(h('p.muted', 'The Graph tab marks these nodes.'));
  return out;
}

// The marks of the Graph tab, by the names the input's graph has: {dropped: Set, changed:
// Map(name -> kinds), added: [names of the output's new nodes], counts: {dropped, changed,
// added}} (the lists hold the first 1,000 of each; counts are whole).
export function previewMarks(preview) {
  const changed = new Map();
  for (const c of preview.changed.nodes) changed.set(c.was ?? c.name, c.changes);
  return {
    dropped: new Set(preview.dropped.names),
    changed,
    added: preview.added.names,
    counts: { dropped: preview.dropped.count, changed: preview.changed.count, added: preview.added.count },
  };
}

// How many marked nodes each kind has inside `group` (its name, with the graph's separator).
export function marksInGroup(marks, group, separator) {
  const prefix = `${group}${separator}`;
  const inside = (name) => name === group || name.startsWith(prefix);
  let dropped = 0;
  let changed = 0;
  for (const name of marks.dropped) dropped += inside(name) ? 1 : 0;
  for (const name of marks.changed.keys()) changed += inside(name) ? 1 : 0;
  const added = marks.added.filter(inside).length;
  return { dropped, changed, added };
}

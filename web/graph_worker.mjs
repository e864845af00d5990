// The worker's side of the graph view (web/graph_view.mjs): a level of the loaded model's
// graph with its layout, a node's details, a search. Kept apart from worker.mjs, which only
// routes the requests here.
import { layoutLevel } from './graph_layout.mjs';

// The level that shows `name`: from the top, into the group that holds it, until the node
// itself is a child (a node named as a group, "a/b" beside "a/b/c", is inside that group).
function levelShowing(model, name) {
  let group = '';
  for (;;) {
    const level = model.graph({ group });
    if (level.children.some((c) => c.kind === 'node' && c.name === name)) return level;
    const sep = level.separator;
    const inner = level.children.find((c) => c.kind === 'group' && (name === c.name || name.startsWith(c.name + sep)));
    if (!inner) return level;
    group = inner.name;
  }
}

export async function graphRequest(model, data) {
  if (!model) throw Object.assign(new Error('no model is loaded: open one first'), { code: 'INVALID_OPTION' });
  if (data.type === 'node') return model.node(data.name);
  if (data.type === 'search') return model.searchGraph(data.query, { limit: 30 });
  const start = performance.now();
  const level = data.reveal ? levelShowing(model, data.reveal) : model.graph({ group: data.group ?? '' });
  const cutMs = performance.now() - start;
  const layout = await layoutLevel(level);
  return { level, layout, ms: { cut: cutMs, layout: layout.ms } };
}

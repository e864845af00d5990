// The layout of one graph level (model.graph()), run in the page's Worker: elkjs's layered
// (Sugiyama) layout, top to bottom. Each child gets a box sized to its label; edges from or to
// outside the group end at two port boxes ("from outside", "to outside"). Returns what the
// page draws and nothing it must compute: boxes and edge polylines.
//
// elkjs, not @dagrejs/dagre: on the corpus and benchmark levels it crossed fewer edges on
// every level that had crossings (export.meta: 2 against 9; the SavedModel's top level: 51
// against 66) and laid out the widest level, a 1,000-group chain of the 200k-node benchmark
// graph, four times as fast (5.0 s against 20.7 s on the loaded 2-core machine). Its bundle
// (1.6 MB) is loaded by the worker on the first drawing only.

const CHAR_PX = 7;
const MIN_WIDTH = 72;
const MAX_WIDTH = 240;
const HEIGHT = 40;
const PORT_IN = 'in';
const PORT_OUT = 'out';

let elk = null;

// elk.bundled.js is a UMD script: imported for its effect, it sets self.ELK (its layout runs
// in this thread, which is already the page's worker). Seeing no document, it also takes
// self.onmessage to serve as a worker of its own: the page worker's handler is put back.
async function engine() {
  if (!elk) {
    const own = self.onmessage;
    await import('../node_modules/elkjs/lib/elk.bundled.js');
    elk = new self.ELK();  // evaluates the bundled worker part, which takes the handler
    self.onmessage = own;
  }
  return elk;
}

function boxWidth(child) {
  const text = Math.max(child.label.length, (child.op ?? '').length + 2, child.kind === 'group' ? 10 : 0);
  return Math.max(MIN_WIDTH, Math.min(MAX_WIDTH, text * CHAR_PX + 24));
}

// level: model.graph()'s answer. Resolves to {width, height, boxes: [{x, y, width, height}]
// (by child index, top-left corner), ports: {in, out} (boxes or null), edges: [{points:
// [[x, y], ...]}] (by edge index), ms}.
export async function layoutLevel(level) {
  const layout = await engine();
  const start = performance.now();
  const end = (i, port) => (i < 0 ? port : String(i));
  const hasIn = level.edges.some((e) => e.from < 0);
  const hasOut = level.edges.some((e) => e.to < 0);
  const children = level.children.map((child, i) => ({ id: String(i), width: boxWidth(child), height: HEIGHT }));
  if (hasIn) children.push({ id: PORT_IN, width: 120, height: 28 });
  if (hasOut) children.push({ id: PORT_OUT, width: 120, height: 28 });
  const graph = await layout.layout({
    id: 'level',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'DOWN',
      'elk.edgeRouting': 'POLYLINE',
      'elk.spacing.nodeNode': '20',
      'elk.layered.spacing.nodeNodeBetweenLayers': '36',
      'elk.padding': '[top=16,left=16,bottom=16,right=16]',
    },
    children,
    edges: level.edges.map((e, i) => ({ id: `e${i}`, sources: [end(e.from, PORT_IN)], targets: [end(e.to, PORT_OUT)] })),
  });
  const byId = new Map(graph.children.map((c) => [c.id, { x: c.x, y: c.y, width: c.width, height: c.height }]));
  const edges = graph.edges.map((e) => ({
    points: (e.sections ?? []).flatMap((s) => [s.startPoint, ...(s.bendPoints ?? []), s.endPoint])
      .map((p) => [Math.round(p.x), Math.round(p.y)]),
  }));
  return {
    width: Math.ceil(graph.width),
    height: Math.ceil(graph.height),
    boxes: level.children.map((_, i) => byId.get(String(i))),
    ports: { in: byId.get(PORT_IN) ?? null, out: byId.get(PORT_OUT) ?? null },
    edges,
    ms: performance.now() - start,
  };
}

// What an export really did to a graph, found without model.preview(): export, load the
// output back with graphport, and diff the two graphs by node name and content with this
// module's own walk (model.graph() level by level) and comparison (model.node()). The preview
// tests (tests/js/preview.test.mjs, tests/e2e/page_preview.test.mjs) hold the preview to it.

// Every node name, from the top level down through each group.
export function allNodes(model, group = '', out = new Set()) {
  for (const child of model.graph({ group, limit: 1e6 }).children) {
    if (child.kind === 'group') allNodes(model, child.name, out);
    else out.add(child.name);
  }
  return out;
}

// A node as this module compares it: op, device, attrs or params, inputs by producer (renamed
// into the output's names), output and control, and a MegEngine operator's tensors.
function facts(model, name, rename) {
  const d = model.node(name);
  const inputs = d.inputs.map((i) => {
    let producer = i.node ?? '';
    if (rename && !i.missing) producer = rename(producer) || producer;
    return [Boolean(i.control), producer, i.output ?? 0];
  });
  return JSON.stringify({ op: d.op, device: d.device ?? '', attrs: d.attrs ?? d.params, inputs, tensors: d.tensors });
}

// {dropped (input names), changed (output names), changedBefore (their input names), added,
// before, after (node counts)} of exporting `model` with `options`. `rename` maps an input
// name to its output name ('' when the export cannot keep it: outside an export scope).
export function exportDiff(gp, model, options, rename) {
  const out = model.export(options);
  const back = gp.load({ files: Object.fromEntries(out.files.map((f) => [f.name, f.bytes])) });
  try {
    const before = allNodes(model);
    const after = allNodes(back);
    const dropped = new Set();
    const changed = new Set();
    const changedBefore = new Set();
    const matched = new Set();
    for (const name of before) {
      const outName = rename ? rename(name) : name;
      if (!outName || !after.has(outName)) {
        dropped.add(name);
        continue;
      }
      matched.add(outName);
      if (outName !== name || facts(model, name, rename) !== facts(back, outName)) {
        changed.add(outName);
        changedBefore.add(name);
      }
    }
    const added = new Set([...after].filter((n) => !matched.has(n)));
    return { dropped, changed, changedBefore, added, before: before.size, after: after.size };
  } finally {
    back.delete();
  }
}

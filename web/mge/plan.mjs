// The MegEngine export plan: the request the schema makes of the form's values, with what
// the schema's rules say of it (compat_older_version's "8.14" and FBS, a strip-info name other
// than the model's, file names that are no paths: web/export_request.mjs), the files
// Network.dump will write (the model, and the strip-info JSON when a name is given), and what
// else the core refuses, said before the export runs. No DOM.
import { requestedValue, schemaPlan } from '../export_request.mjs';

// The optimize_for_inference kwargs MegEngine ignores with optimize_for_inference off, said
// before the export runs. A layout transform graphport does not implement (of several layout
// kwargs the last one set applies) is refused by the core itself, in the export preview.
function optimizePlan(state, schema, say, warnings) {
  const kwargs = schema.options.filter((o) => o.group === 'optimize' && o.name.startsWith('enable'));
  const changed = kwargs.filter((o) => state[o.name] !== undefined && state[o.name] !== o.default);
  if (state.optimizeForInference === false || state.asLoaded === true) {
    for (const o of changed) say(warnings, o.name, `${o.seed} is ignored: the graph is not optimized`);
  }
}

export function planExport(state, summary, schema) {
  const plan = schemaPlan(schema, state);
  const { options, errors, warnings, notes } = plan;
  const say = (list, option, text) => list.push({ option, text });
  const filename = requestedValue(schema, options, 'filename');
  plan.files = [filename];
  const strip = options.stripInfoFile;
  if (strip !== undefined) {
    plan.files.push(strip);
    say(notes, 'stripInfoFile', `adds ${strip}; both files also come as one .zip`);
  }
  if (state.append?.value && options.append) say(notes, 'append', `the dump follows the ${state.append.value.length} bytes of ${state.append.name}`);
  if (options.userInfo !== undefined && options.enableMetadata === false) {
    say(warnings, 'userInfo', 'user_info is kept in the metadata, which “Save metadata” turned off');
  }
  optimizePlan(state, schema, say, warnings);
  const mge = summary?.megengine;
  if (mge?.testCases?.length && mge.graph === 0) {
    // The export re-dumps the model inside its container and keeps the test cases as they are.
    say(notes, 'dumpFormat', `the model is written in its mgbtest0 container, its ${mge.testCases.length} test case${mge.testCases.length === 1 ? '' : 's'} kept byte for byte`);
  } else if (mge?.graphs?.length > 1) {
    say(notes, 'dumpFormat', `only the graph shown (#${mge.graph}) of the file’s ${mge.graphs.length} is written`);
  }
  return plan;
}

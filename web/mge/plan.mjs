// The MegEngine export plan: the options that differ from the schema's defaults (as for any
// family), the files Network.dump will write (the model, and the strip-info JSON when a name
// is given), and the combinations the core refuses, said before the export runs. No DOM.
import { schemaPlan } from '../export_form.mjs';

function fileName(errors, option, value) {
  if (/[/\\]/.test(value)) {
    errors.push({ option, text: `“${value}” is a path: give a file name only (the browser chooses the folder)` });
  } else if (value === '.' || value === '..') {
    errors.push({ option, text: `“${value}” is not a file name` });
  }
}

// The optimize_for_inference kwargs the core refuses (the layout transforms and float16
// conversion), and those MegEngine ignores with optimize_for_inference off, said before the
// export runs. Of several layout kwargs the last in MegEngine's order wins.
const LAYOUT_ORDER = ['enableHwcd4', 'enableNchw4', 'enableNchw88', 'enableNchw32', 'enableNchw44',
  'enableNchw44Dot', 'enableChwn4', 'enableNchw64'];

function optimizePlan(state, schema, say, errors, warnings) {
  const kwargs = schema.options.filter((o) => o.group === 'optimize' && o.name.startsWith('enable'));
  const changed = kwargs.filter((o) => state[o.name] !== undefined && state[o.name] !== o.default);
  if (state.optimizeForInference === false || state.asLoaded === true) {
    for (const o of changed) say(warnings, o.name, `${o.seed} is ignored: the graph is not optimized`);
    return;
  }
  const layout = LAYOUT_ORDER.filter((name) => state[name] === true).pop();
  if (layout) say(errors, layout, `${schema.options.find((o) => o.name === layout).seed}: graphport does not implement this layout transform`);
  for (const name of ['enableIo16xc32', 'enableIoc16']) {
    if (state[name] === true) say(errors, name, `${schema.options.find((o) => o.name === name).seed}: graphport does not implement the float16 conversion`);
  }
}

export function planExport(state, summary, schema) {
  const plan = schemaPlan(schema, state);
  const { options, errors, warnings, notes } = plan;
  const say = (list, option, text) => list.push({ option, text });
  const filename = (state.filename ?? '').trim() || 'model.mge';
  fileName(errors, 'filename', filename);
  if (options.filename !== undefined) options.filename = filename;
  plan.files = [filename];

  delete options.compatOlderVersion;
  delete options.stripInfoFile;
  const compat = (state.compatOlderVersion ?? '').trim();
  if (compat) {
    options.compatOlderVersion = compat;
    if (state.dumpFormat !== 'FBS') say(errors, 'compatOlderVersion', 'compat_older_version needs dump format FBS');
    else if (compat !== '8.14') say(errors, 'compatOlderVersion', `only “8.14” is supported, not “${compat}”`);
  }

  const strip = (state.stripInfoFile ?? '').trim();
  if (strip) {
    options.stripInfoFile = strip;
    fileName(errors, 'stripInfoFile', strip);
    if (strip === filename) say(errors, 'stripInfoFile', 'the strip-info file needs a name other than the model’s');
    plan.files.push(strip);
    say(notes, 'stripInfoFile', `adds ${strip}; both files also come as one .zip`);
  } else if (state.appendJson) {
    say(warnings, 'appendJson', 'is read only when a strip-info file name is given');
  }
  if (state.append?.value) say(notes, 'append', `the dump follows the ${state.append.value.length} bytes of ${state.append.name}`);
  if (state.userInfo && state.enableMetadata === false) {
    say(warnings, 'userInfo', 'user_info is kept in the metadata, which “Save metadata” turned off');
  }
  optimizePlan(state, schema, say, errors, warnings);
  const mge = summary?.megengine;
  if (mge?.testCases?.length && mge.graph === 0) {
    // The export re-dumps the model inside its container and keeps the test cases as they are.
    say(notes, 'dumpFormat', `the model is written in its mgbtest0 container, its ${mge.testCases.length} test case${mge.testCases.length === 1 ? '' : 's'} kept byte for byte`);
  } else if (mge?.graphs?.length > 1) {
    say(notes, 'dumpFormat', `only the graph shown (#${mge.graph}) of the file’s ${mge.graphs.length} is written`);
  }
  return plan;
}

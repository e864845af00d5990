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
  const mge = summary?.megengine;
  if (mge?.testCases?.length && mge.graph === 0) {
    // The export re-dumps the model inside its container and keeps the test cases as they are.
    say(notes, 'dumpFormat', `the model is written in its mgbtest0 container, its ${mge.testCases.length} test case${mge.testCases.length === 1 ? '' : 's'} kept byte for byte`);
  } else if (mge?.graphs?.length > 1) {
    say(notes, 'dumpFormat', `only the graph shown (#${mge.graph}) of the file’s ${mge.graphs.length} is written`);
  }
  return plan;
}

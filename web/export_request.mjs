// The export request, made from a family's export schema (gp.optionSchema(family).export)
// and the form's values: every option the schema lists whose value differs from its default
// goes, as its type says; and what the schema's rules say of the request, the same rules the
// core applies (core/option_schema.h: "needs" refuses, "usedWhen" ignores, "minimum" and
// "fileName" bound a value, "addsFile" names a file, "lastWins" picks one of several). A
// family's plan (web/<family>/plan.mjs) starts from this and only adds explanations. No DOM.

export const FILE_TYPES = new Set(['message', 'bytes']);

// A bool without a default (freeze) has three states: unset (the core decides), on and off.
export const isTriState = (option) => option.type === 'bool' && option.default === null;

// As the core's IsSet: given, and for text not blank.
const isSet = (value) => value !== undefined && value !== null && !(typeof value === 'string' && value.trim() === '');

// "“a”", "“a” or “b”": the values a text option accepts.
function valueList(values) {
  const quoted = values.map((v) => `“${v}”`);
  return quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}` : quoted[0];
}

// What is wrong with `name` as an output's name (the schema's fileName: a name, never a path),
// or null.
function fileNameError(name) {
  if (/[/\\]/.test(name)) return `“${name}” is a path: give a file name only (the browser chooses the folder)`;
  if (name === '.' || name === '..') return `“${name}” is not a file name`;
  return null;
}

// One option's value for the request, by its type: {value} to send, {error}, or {} (unset or
// the default: the core's own default applies).
function requestValue(option, value) {
  switch (option.type) {
    case 'bool':
      if (isTriState(option)) return value === null || value === undefined ? {} : { value };
      return value === (option.default ?? false) ? {} : { value };
    case 'choice':
      return value === null || value === undefined || value === option.default ? {} : { value };
    case 'int': {
      if (value === '' || value === null || value === undefined) return {};
      const n = Number(value);
      if (!Number.isSafeInteger(n)) return { error: `“${value}” is not a whole number` };
      if (option.minimum !== null && option.minimum !== undefined && n < option.minimum) {
        return { error: `“${value}” is less than ${option.minimum}, the least it takes` };
      }
      return n === option.default ? {} : { value: n };
    }
    case 'string': {
      const text = (value ?? '').trim();
      if (text === '' || text === option.default) return {};
      if (option.choices?.length && !option.choices.includes(text)) {
        return { error: `only ${valueList(option.choices)} ${option.choices.length === 1 ? 'is' : 'are'} supported, not “${text}”` };
      }
      if (option.fileName) {
        const error = fileNameError(text);
        if (error) return { error };
      }
      return { value: text };
    }
    case 'string-list':
      return Array.isArray(value) ? { value } : {};
    default:
      // A file picked ({name, value, error}), or text a family's control holds (user_info).
      if (typeof value === 'string') return value === '' ? {} : { value };
      if (value?.error) return { error: value.error };
      return value ? { value: value.value } : {};
  }
}

// The value the core reads for `name`: the request's, else the schema's default.
export function requestedValue(schema, options, name) {
  if (name in options) return options[name];
  return schema.options.find((o) => o.name === name)?.default ?? null;
}

function holds(schema, options, option, condition) {
  const value = requestedValue(schema, options, condition.option);
  if (condition.differs) return value !== requestedValue(schema, options, option.name);
  if (!condition.values.length) return isSet(options[condition.option]);
  return condition.values.some((v) => v === value);
}

// The name of the file an option with `addsFile` adds beside `main`, as the core names it
// (core/option_schema.h AddedFileName): "{stem}" is the name before its last '.', "{ext}" the
// rest (a leading '.' starts no extension).
export function addedFileName(option, main) {
  // As core/option_schema.cc's AddedFileName: a folder's dot or a leading one is no extension.
  const dot = main.lastIndexOf('.');
  const [stem, ext] = dot > main.lastIndexOf('/') + 1 ? [main.slice(0, dot), main.slice(dot)] : [main, ''];
  return option.addsFile.replaceAll('{stem}', stem).replaceAll('{ext}', ext);
}

// Of the options of the schema's lastWins set `id` (core/option_schema.h LastWins), the last
// one on in the request, or undefined: the one the core applies.
export function lastSet(schema, options, id) {
  const set = (schema.lastWins ?? []).find((s) => s.id === id);
  return (set?.options ?? []).filter((name) => requestedValue(schema, options, name) === true).pop();
}

// The default of an option whose default depends on others (TensorFlow's file name).
export function derivedDefault(schema, options, option) {
  const found = (option.defaultWhen ?? []).find((d) => d.when.every((c) => holds(schema, options, option, c)));
  return found ? found.value : option.default;
}

// The schema's rules on a request: a "needs" rule that fails is an error (the core refuses
// the option), a "usedWhen" rule a warning (the core ignores it).
export function ruleFindings(schema, options) {
  const errors = [];
  const warnings = [];
  for (const option of schema.options) {
    if (!isSet(options[option.name])) continue;
    for (const rule of option.rules ?? []) {
      if (rule.anyOf.some((c) => holds(schema, options, option, c))) continue;
      (rule.kind === 'needs' ? errors : warnings).push({ option: option.name, text: rule.message });
    }
  }
  return { errors, warnings };
}

// The request of the form's values: {options, errors}. Nothing is left out for a family:
// a value the core would refuse goes too, with its error beside it.
export function exportRequest(schema, state) {
  const options = {};
  const errors = [];
  for (const option of schema.options) {
    const { value, error } = requestValue(option, state[option.name]);
    if (error) errors.push({ option: option.name, text: error });
    else if (value !== undefined) options[option.name] = value;
  }
  return { options, errors };
}

// The plan of a family whose page adds nothing: the request, the rules' findings, no files
// named (the export says which it wrote).
export function schemaPlan(schema, state) {
  const { options, errors } = exportRequest(schema, state);
  const rules = ruleFindings(schema, options);
  return { options, files: [], errors: [...errors, ...rules.errors], warnings: rules.warnings, notes: [] };
}

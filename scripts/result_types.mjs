// The type expressions of the families' result descriptions (src/core/result_schema.h): a
// small part of TypeScript's type syntax, parsed once into a tree that scripts/gen-types.mjs
// prints as TypeScript and tests/js/result_schema.test.mjs holds real results against.
//
//   type    := member ('|' member)*
//   member  := primary ('[]')*
//   primary := number | string | boolean | null | unknown | 'text' | 42
//            | Record<string, type> | [type, ...] | (type) | Name

const PRIMITIVES = new Set(['number', 'string', 'boolean', 'null', 'unknown']);

function tokenize(text) {
  const tokens = [];
  const re = /\s*(?:('(?:[^'\\]|\\.)*')|(-?\d+(?:\.\d+)?)|([A-Za-z_][A-Za-z0-9_]*)|(\[\]|[|,<>()[\]]))/y;
  let at = 0;
  while (at < text.length) {
    if (/^\s*$/.test(text.slice(at))) break;
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m) throw new Error(`type '${text}': cannot read at ${at}`);
    if (m[1] !== undefined) tokens.push({ literal: m[1].slice(1, -1).replace(/\\(.)/g, '$1') });
    else if (m[2] !== undefined) tokens.push({ literal: Number(m[2]) });
    else if (m[3] !== undefined) tokens.push({ word: m[3] });
    else tokens.push({ punct: m[4] });
    at = re.lastIndex;
  }
  return tokens;
}

// The tree: {kind: 'primitive', name} | {kind: 'literal', value} | {kind: 'list', of}
// | {kind: 'record', of} | {kind: 'tuple', items} | {kind: 'union', of} | {kind: 'ref', name}.
const parsed = new Map();

export function parseType(text) {
  let tree = parsed.get(text);
  if (!tree) parsed.set(text, (tree = parseUncached(text)));
  return tree;
}

function parseUncached(text) {
  const tokens = tokenize(text);
  let i = 0;
  const fail = (why) => { throw new Error(`type '${text}': ${why}`); };
  const punct = (p) => tokens[i]?.punct === p && ++i;
  const expect = (p) => punct(p) || fail(`'${p}' expected`);
  function union() {
    const of = [member()];
    while (punct('|')) of.push(member());
    return of.length === 1 ? of[0] : { kind: 'union', of };
  }
  function member() {
    let t = primary();
    while (punct('[]')) t = { kind: 'list', of: t };
    return t;
  }
  function primary() {
    const token = tokens[i++] ?? fail('a type expected');
    if ('literal' in token) return { kind: 'literal', value: token.literal };
    if (token.punct === '(') {
      const t = union();
      expect(')');
      return t;
    }
    if (token.punct === '[') {
      const items = [union()];
      while (punct(',')) items.push(union());
      expect(']');
      return { kind: 'tuple', items };
    }
    if (token.word === 'Record') {
      expect('<');
      if (tokens[i++]?.word !== 'string') fail('Record<string, T> expected');
      expect(',');
      const of = union();
      expect('>');
      return { kind: 'record', of };
    }
    if (token.word && PRIMITIVES.has(token.word)) return { kind: 'primitive', name: token.word };
    if (token.word && /^[A-Z]/.test(token.word)) return { kind: 'ref', name: token.word };
    return fail(`unexpected ${JSON.stringify(token)}`);
  }
  const tree = union();
  if (i !== tokens.length) fail('text after the type');
  return tree;
}

// The names of the described types a tree refers to.
export function referencedNames(tree, out = new Set()) {
  if (tree.kind === 'ref') out.add(tree.name);
  for (const child of [tree.of, ...(tree.items ?? [])].flat()) {
    if (child) referencedNames(child, out);
  }
  return out;
}

// Every family's described types by name; a name described twice must be described the same.
export function typesByName(families) {
  const types = new Map();
  for (const family of families) {
    for (const type of family.results?.types ?? []) {
      const known = types.get(type.name);
      if (known && JSON.stringify(known) !== JSON.stringify(type)) {
        throw new Error(`result type ${type.name} is described differently by two families`);
      }
      types.set(type.name, type);
    }
  }
  for (const type of types.values()) {
    for (const base of type.extends ?? []) {
      if (!types.get(base)?.fields) throw new Error(`result type ${type.name} extends ${base}, which is no described object`);
    }
    const expressions = type.alias ? [type.alias] : type.fields.map((f) => f.type);
    for (const text of expressions) {
      for (const name of referencedNames(parseType(text))) {
        if (!types.has(name)) throw new Error(`result type ${type.name} names ${name}, which is not described`);
      }
    }
  }
  return types;
}

// An object type's fields: its own, then those of the types it extends.
export function allFields(type, types) {
  return [...type.fields, ...(type.extends ?? []).flatMap((base) => allFields(types.get(base), types))];
}

const kindOf = (v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

// What is wrong with `value` as the type `tree`: a list of "path: problem", empty when it fits.
// Objects must have every required field, no field their type lacks, each of its type.
export function checkValue(value, tree, types, path = '$') {
  switch (tree.kind) {
    case 'primitive':
      if (tree.name === 'unknown' || kindOf(value) === tree.name) return [];
      return [`${path}: ${kindOf(value)} where ${tree.name} was described`];
    case 'literal':
      return value === tree.value ? [] : [`${path}: ${JSON.stringify(value)} is not ${JSON.stringify(tree.value)}`];
    case 'list':
      if (!Array.isArray(value)) return [`${path}: ${kindOf(value)} where a list was described`];
      return value.flatMap((item, i) => checkValue(item, tree.of, types, `${path}[${i}]`));
    case 'tuple':
      if (!Array.isArray(value) || value.length !== tree.items.length) {
        return [`${path}: not a tuple of ${tree.items.length}`];
      }
      return tree.items.flatMap((item, i) => checkValue(value[i], item, types, `${path}[${i}]`));
    case 'record':
      if (kindOf(value) !== 'object') return [`${path}: ${kindOf(value)} where a record was described`];
      return Object.entries(value).flatMap(([k, v]) => checkValue(v, tree.of, types, `${path}[${JSON.stringify(k)}]`));
    case 'union': {
      // The member that fits, else the problems of the one that came closest.
      let best = null;
      for (const member of tree.of) {
        const problems = checkValue(value, member, types, path);
        if (problems.length === 0) return [];
        if (best === null || problems.length < best.length) best = problems;
      }
      return best;
    }
    case 'ref': {
      const type = types.get(tree.name);
      if (type.alias) return checkValue(value, parseType(type.alias), types, path);
      if (kindOf(value) !== 'object') return [`${path}: ${kindOf(value)} where ${tree.name} was described`];
      const problems = [];
      const fields = allFields(type, types);
      const described = new Set(fields.map((f) => f.name));
      for (const key of Object.keys(value)) {
        if (!described.has(key)) problems.push(`${path}.${key}: not described in ${tree.name}`);
      }
      for (const field of fields) {
        if (!(field.name in value)) {
          if (!field.optional) problems.push(`${path}.${field.name}: required by ${tree.name}, missing`);
          continue;
        }
        problems.push(...checkValue(value[field.name], parseType(field.type), types, `${path}.${field.name}`));
      }
      return problems;
    }
    default:
      throw new Error(`unknown type kind ${tree.kind}`);
  }
}

#!/usr/bin/env node
// Writes the constant schema tables of src/proto/schema.h for a set of .proto files, from the
// descriptor set protoc writes for them (protoc --descriptor_set_out --include_imports). Run by
// the build for each generated proto library (CMakeLists.txt: graphport_proto_library):
//
//   node scripts/gen-proto-schema.mjs --descriptor-set set.desc --header out/schemas.h \
//        --source out/schemas.cc --include tensorflow/schemas.h --set graphport::tf::TfSchemas
//
// The header declares proto::SchemaOf<Class>() for every generated message class and the set's
// function; the source holds the tables. With --classes-of a.proto,b.proto only the classes of
// those files get a SchemaOf (the library's own; an imported file's classes are another
// library's, and two sets that import it must not both specialize SchemaOf for them), while
// the set keeps every type, imports included. Everything is constant-initialized: no code runs at
// start-up and nothing is allocated.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

function parseArgs(argv) {
  const args = {};
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i];
    if (!key.startsWith('--') || i + 1 >= argv.length) throw new Error(`bad argument '${key}'`);
    args[key.slice(2)] = argv[i + 1];
  }
  for (const need of ['descriptor-set', 'header', 'source', 'include', 'set']) {
    if (!args[need]) throw new Error(`missing --${need}`);
  }
  return args;
}

// --- a minimal protobuf wire reader, enough for descriptor.proto ---------------------------
function readVarint(buf, pos) {
  let result = 0n;
  let shift = 0n;
  for (;;) {
    if (pos.at >= buf.length) throw new Error('descriptor set: varint runs past the end');
    const byte = buf[pos.at++];
    result |= BigInt(byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) return result;
    shift += 7n;
    if (shift > 63n) throw new Error('descriptor set: varint too long');
  }
}

// The records of one message: [{number, wireType, value}], value a BigInt or a Uint8Array.
function records(buf) {
  const out = [];
  const pos = { at: 0 };
  while (pos.at < buf.length) {
    const tag = readVarint(buf, pos);
    const number = Number(tag >> 3n);
    const wireType = Number(tag & 7n);
    let value;
    if (wireType === 0) {
      value = readVarint(buf, pos);
    } else if (wireType === 2) {
      const length = Number(readVarint(buf, pos));
      value = buf.subarray(pos.at, pos.at + length);
      pos.at += length;
    } else if (wireType === 1) {
      pos.at += 8;
    } else if (wireType === 5) {
      pos.at += 4;
    } else {
      throw new Error(`descriptor set: wire type ${wireType}`);
    }
    out.push({ number, wireType, value });
  }
  return out;
}

const text = (bytes) => new TextDecoder().decode(bytes);
const all = (recs, n) => recs.filter((r) => r.number === n).map((r) => r.value);
const one = (recs, n) => all(recs, n).at(-1);

// descriptor.proto field numbers, by message.
function decodeEnum(buf, prefix) {
  const r = records(buf);
  const name = text(one(r, 1));
  return {
    fullName: prefix + name,
    values: all(r, 2).map((v) => {
      const vr = records(v);
      return { name: text(one(vr, 1)), number: Number(BigInt.asIntN(32, one(vr, 2) ?? 0n)) };
    }),
  };
}

function decodeMessage(buf, prefix, file, out) {
  const r = records(buf);
  const name = text(one(r, 1));
  const fullName = prefix + name;
  const options = one(r, 7);
  const mapEntry = options ? Boolean(one(records(options), 7)) : false;
  const message = {
    name,
    fullName,
    file,
    mapEntry,
    oneofs: all(r, 8).map((o) => text(one(records(o), 1))),
    reservedNames: all(r, 10).map(text),
    fields: all(r, 2).map((f) => {
      const fr = records(f);
      const fieldOptions = one(fr, 8);
      const packedOption = fieldOptions ? one(records(fieldOptions), 2) : undefined;
      return {
        name: text(one(fr, 1)),
        number: Number(one(fr, 3)),
        label: Number(one(fr, 4) ?? 1n),
        type: Number(one(fr, 5)),
        typeName: one(fr, 6) ? text(one(fr, 6)) : '',
        extendee: one(fr, 2),
        oneofIndex: one(fr, 9) === undefined ? -1 : Number(one(fr, 9)),
        jsonName: one(fr, 10) ? text(one(fr, 10)) : '',
        proto3Optional: Boolean(one(fr, 17)),
        packedOption: packedOption === undefined ? undefined : Boolean(packedOption),
      };
    }),
  };
  if (all(r, 6).length > 0) throw new Error(`${fullName}: extensions are not supported`);
  out.messages.push(message);
  for (const nested of all(r, 3)) decodeMessage(nested, fullName + '.', file, out);
  for (const e of all(r, 4)) out.enums.push(decodeEnum(e, fullName + '.'));
}

function decodeSet(buf) {
  const out = { messages: [], enums: [] };
  for (const fileBytes of all(records(buf), 1)) {
    const r = records(fileBytes);
    const pkg = one(r, 2) ? text(one(r, 2)) : '';
    const file = {
      name: text(one(r, 1)),
      package: pkg,
      proto3: one(r, 12) !== undefined && text(one(r, 12)) === 'proto3',
    };
    const prefix = pkg ? pkg + '.' : '';
    for (const m of all(r, 4)) decodeMessage(m, prefix, file, out);
    for (const e of all(r, 5)) out.enums.push(decodeEnum(e, prefix));
    if (all(r, 7).length > 0) throw new Error(`${file.name}: extensions are not supported`);
  }
  return out;
}

// --- C++ output -----------------------------------------------------------------------------
const TYPE_GROUP = 10;
const TYPE_MESSAGE = 11;
const TYPE_ENUM = 14;
const NOT_PACKABLE = new Set([9, 10, 11, 12]);  // string, group, message, bytes
const LABEL_REPEATED = 3;

const WRAPPERS = new Set(['DoubleValue', 'FloatValue', 'Int64Value', 'UInt64Value', 'Int32Value',
  'UInt32Value', 'BoolValue', 'StringValue', 'BytesValue']);
// google.protobuf's own, and graphport's lite copies of them (src/tf/proto/graphport/).
const WELL_KNOWN_PACKAGES = new Set(['google.protobuf', 'graphport.well_known']);

// Types with a JSON form of their own that graphport's JSON does not implement.
const OWN_JSON_FORM = new Set(['Timestamp', 'Duration', 'FieldMask', 'Struct', 'Value', 'ListValue']);

// The name a type goes by in text format, JSON and errors. graphport's lite copies of
// google.protobuf's types (a lite file may import only lite files) are those types, on the
// wire and in every text form: they go by google.protobuf's names.
const OWN_COPIES_PACKAGE = 'graphport.well_known';
function shownName(fullName) {
  return fullName.startsWith(OWN_COPIES_PACKAGE + '.')
    ? 'google.protobuf.' + fullName.slice(OWN_COPIES_PACKAGE.length + 1)
    : fullName;
}

function wellKnown(message) {
  if (!WELL_KNOWN_PACKAGES.has(message.file.package)) return 'kNone';
  const topLevel = message.fullName === `${message.file.package}.${message.name}`;
  if (topLevel && message.name === 'Any') return 'kAny';
  if (topLevel && WRAPPERS.has(message.name)) return 'kWrapper';
  if (topLevel && OWN_JSON_FORM.has(message.name)) return 'kUnsupported';
  return 'kNone';
}

// A message's real oneofs: the synthetic one of each proto3 `optional` field is not a oneof to
// a user (nor to JSON or text format).
function oneofsOf(message) {
  const synthetic = new Set(message.fields.filter((f) => f.proto3Optional).map((f) => f.oneofIndex));
  const realOneofs = [];
  const oneofMap = new Map();
  message.oneofs.forEach((name, k) => {
    if (synthetic.has(k)) return;
    oneofMap.set(k, realOneofs.length);
    realOneofs.push(name);
  });
  return { realOneofs, oneofMap };
}

// "tensorflow.MetaGraphDef.MetaInfoDef" -> "::tensorflow::MetaGraphDef_MetaInfoDef".
function cppClass(message) {
  const pkg = message.file.package;
  const local = message.fullName.slice(pkg ? pkg.length + 1 : 0).replaceAll('.', '_');
  return (pkg ? '::' + pkg.replaceAll('.', '::') : '') + '::' + local;
}

const cppString = (s) => `std::string_view(${JSON.stringify(s)}, ${Buffer.byteLength(s)})`;

function generate(set, args) {
  const messageIndex = new Map(set.messages.map((m, i) => [m.fullName, i]));
  const enumIndex = new Map(set.enums.map((e, i) => [e.fullName, i]));
  const lines = [];
  const emit = (s = '') => lines.push(s);
  emit(`// Generated by scripts/gen-proto-schema.mjs from ${args['descriptor-set'].split('/').pop()}. Do not edit.`);
  emit(`#include "${args.include}"`);
  emit();
  emit('#include <string_view>');
  emit();
  emit('namespace graphport::proto {');
  emit('namespace {');
  emit();
  emit(`extern const MessageSchema kMessages[${set.messages.length}];`);
  emit('extern const SchemaSet kSet;');
  emit();
  set.enums.forEach((e, i) => {
    if (e.values.length === 0) throw new Error(`${e.fullName}: an enum without values`);
    emit(`// ${e.fullName}`);
    emit(`const EnumValueSchema kEnumValues${i}[] = {`);
    for (const v of e.values) emit(`    {${cppString(v.name)}, ${v.number}},`);
    emit('};');
  });
  emit();
  if (set.enums.length > 0) {
    emit(`const EnumSchema kEnums[${set.enums.length}] = {`);
    set.enums.forEach((e, i) => {
      emit(`    {${cppString(e.fullName)}, kEnumValues${i}, ${e.values.length}},`);
    });
    emit('};');
  }
  emit();
  set.messages.forEach((m, i) => {
    const proto3 = m.file.proto3;
    const { realOneofs, oneofMap } = oneofsOf(m);
    const fields = [...m.fields].sort((a, b) => a.number - b.number);
    emit(`// ${m.fullName}`);
    if (fields.length > 0) {
      emit(`const FieldSchema kFields${i}[] = {`);
      for (const f of fields) {
        if (f.type === TYPE_GROUP) throw new Error(`${m.fullName}.${f.name}: groups are not supported`);
        const repeated = f.label === LABEL_REPEATED;
        const target = f.typeName.replace(/^\./, '');
        let messageRef = 'nullptr';
        let enumRef = 'nullptr';
        let isMap = false;
        if (f.type === TYPE_MESSAGE) {
          if (!messageIndex.has(target)) throw new Error(`${m.fullName}.${f.name}: unknown type ${target}`);
          messageRef = `&kMessages[${messageIndex.get(target)}]`;
          isMap = repeated && set.messages[messageIndex.get(target)].mapEntry;
        } else if (f.type === TYPE_ENUM) {
          if (!enumIndex.has(target)) throw new Error(`${m.fullName}.${f.name}: unknown enum ${target}`);
          enumRef = `&kEnums[${enumIndex.get(target)}]`;
        }
        const packable = repeated && !NOT_PACKABLE.has(f.type);
        const packed = packable && (f.packedOption ?? proto3);
        const presence = !repeated && (f.type === TYPE_MESSAGE || f.oneofIndex >= 0 || !proto3);
        const oneof = f.oneofIndex >= 0 && oneofMap.has(f.oneofIndex) ? oneofMap.get(f.oneofIndex) : -1;
        const jsonName = f.jsonName || f.name;
        emit(`    {${cppString(f.name)}, ${cppString(jsonName)}, ${f.number}, FieldType(${f.type}), ` +
          `${repeated}, ${packed}, ${isMap}, ${presence}, ${oneof}, ${messageRef}, ${enumRef}},`);
      }
      emit('};');
    }
    if (realOneofs.length > 0) {
      emit(`const std::string_view kOneofs${i}[] = {${realOneofs.map(cppString).join(', ')}};`);
    }
    if (m.reservedNames.length > 0) {
      emit(`const std::string_view kReserved${i}[] = {${m.reservedNames.map(cppString).join(', ')}};`);
    }
  });
  emit();
  emit(`const MessageSchema kMessages[${set.messages.length}] = {`);
  set.messages.forEach((m, i) => {
    const fields = m.fields.length > 0 ? `kFields${i}` : 'nullptr';
    const { realOneofs } = oneofsOf(m);
    const oneofs = realOneofs.length > 0 ? `kOneofs${i}` : 'nullptr';
    const reserved = m.reservedNames.length > 0 ? `kReserved${i}` : 'nullptr';
    emit(`    {${cppString(shownName(m.fullName))}, ${cppString(m.name)}, ${fields}, ${m.fields.length}, ` +
      `${oneofs}, ${realOneofs.length}, ${m.file.proto3}, ${m.mapEntry}, ` +
      `WellKnown::${wellKnown(m)}, &kSet, ${reserved}, ${m.reservedNames.length}},`);
  });
  emit('};');
  emit();
  const sorted = set.messages.map((m, i) => [shownName(m.fullName), i])
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  emit(`const MessageSchema* const kByName[${sorted.length}] = {`);
  for (const [, i] of sorted) emit(`    &kMessages[${i}],`);
  emit('};');
  emit(`const SchemaSet kSet = {kByName, ${sorted.length}};`);
  emit();
  emit('}  // namespace');
  emit();
  set.messages.forEach((m, i) => {
    if (!hasClass(m, args)) return;
    emit(`template <>\nconst MessageSchema& SchemaOf<${cppClass(m)}>() {\n  return kMessages[${i}];\n}`);
  });
  emit();
  emit('}  // namespace graphport::proto');
  emit();
  const { ns, fn } = splitQualified(args.set);
  emit(`namespace ${ns} {`);
  emit();
  emit(`const proto::SchemaSet& ${fn}() { return ::graphport::proto::kSet; }`);
  emit();
  emit(`}  // namespace ${ns}`);
  return lines.join('\n') + '\n';
}

// Whether SchemaOf names the class of `message`: map entries have no class of their own, and
// with --classes-of only the files listed are this library's.
function hasClass(message, args) {
  if (message.mapEntry) return false;
  return !args['classes-of'] || args['classes-of'].split(',').includes(message.file.name);
}

function splitQualified(name) {
  const k = name.lastIndexOf('::');
  if (k < 0) throw new Error(`--set must be namespace-qualified, got '${name}'`);
  return { ns: name.slice(0, k), fn: name.slice(k + 2) };
}

function generateHeader(set, args) {
  const guard = 'GRAPHPORT_GENERATED_' + args.include.replace(/[^A-Za-z0-9]/g, '_').toUpperCase() + '_';
  const { ns, fn } = splitQualified(args.set);
  const lines = [];
  const emit = (s = '') => lines.push(s);
  emit(`// Generated by scripts/gen-proto-schema.mjs. Do not edit.`);
  emit(`#ifndef ${guard}`);
  emit(`#define ${guard}`);
  emit();
  emit('#include "proto/schema.h"');
  emit();
  // Forward declarations of the generated classes, grouped by namespace.
  const byNamespace = new Map();
  for (const m of set.messages) {
    if (!hasClass(m, args)) continue;
    const cls = cppClass(m);
    const k = cls.lastIndexOf('::');
    const space = cls.slice(2, k);
    if (!byNamespace.has(space)) byNamespace.set(space, []);
    byNamespace.get(space).push(cls.slice(k + 2));
  }
  for (const [space, classes] of byNamespace) {
    emit(`namespace ${space} {`);
    for (const c of classes) emit(`class ${c};`);
    emit(`}  // namespace ${space}`);
  }
  emit();
  emit('namespace graphport::proto {');
  for (const m of set.messages) {
    if (!hasClass(m, args)) continue;
    emit(`template <>\nconst MessageSchema& SchemaOf<${cppClass(m)}>();`);
  }
  emit('}  // namespace graphport::proto');
  emit();
  emit(`namespace ${ns} {`);
  emit('// Every message type of the set, by full name.');
  emit(`const proto::SchemaSet& ${fn}();`);
  emit(`}  // namespace ${ns}`);
  emit();
  emit(`#endif  // ${guard}`);
  return lines.join('\n') + '\n';
}

// Written only when changed, so that the build recompiles nothing when the tables are the same.
function writeIfChanged(path, content) {
  let old = null;
  try {
    old = readFileSync(path, 'utf8');
  } catch {
    // first run
  }
  if (old === content) return;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

const args = parseArgs(process.argv.slice(2));
const set = decodeSet(readFileSync(args['descriptor-set']));
writeIfChanged(args.header, generateHeader(set, args));
writeIfChanged(args.source, generate(set, args));

// The results a family gives, described once: the fields of its inspect() summary and of its
// export info, each with its type, whether it is always there, and what it means. The
// description travels with the option schemas (gp.optionSchema(), `graphport schema`), the
// result types of index.d.ts are generated from it (scripts/gen-types.mjs), and a test holds
// every corpus model's real results against it (tests/js/result_schema.test.mjs).
//
// Types are written as a small part of TypeScript's type syntax, so that they read as the
// published types do:
//   number  string  boolean  null  unknown (any JSON)
//   'literal'  42  T[]  [A, B] (a tuple)  Record<string, T>  A | B  (T)
//   Name: another type of the description; every object is one, so that each of its
//         fields has a meaning too.
#ifndef GRAPHPORT_CORE_RESULT_SCHEMA_H_
#define GRAPHPORT_CORE_RESULT_SCHEMA_H_

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace graphport {

struct ResultField {
  std::string name;     // the JSON key, camelCase
  std::string type;     // a type expression (above)
  std::string meaning;  // one line for people, the doc comment of the generated type
  bool optional = false;
  bool header = false;  // one of SummaryHeader's: the generated types declare it once
};

// A named type: an object with `fields`, or (fields empty) an alias of `alias`, a type
// expression such as a union of objects.
struct ResultType {
  std::string name;  // PascalCase, unique across every family (shared types are identical)
  std::string meaning;
  // Initialized here, so that a type written as {name, meaning, fields} needs no more.
  std::vector<ResultField> fields{};
  std::string alias{};
  // Object types whose fields this one has too, after its own (the generated interface
  // extends them): fields two families' results share are described once, by one of them.
  std::vector<std::string> extends{};
};

struct ResultSchema {
  std::string summary;      // the type expression of inspect()'s result
  std::string export_info;  // the type expression of export()'s info
  std::string preview;      // the type expression of preview()'s result ("" for none)
  std::vector<ResultType> types;

  // Adds `type`, or checks that a type of that name is the same (a type shared by two
  // families is described by one of them).
  void Add(const ResultType& type);
  void Add(const std::vector<ResultType>& types);
  // {summary, exportInfo, preview?, types: [{name, meaning, fields: [{name, type, optional,
  // meaning, header}], extends?: [name]} or {name, meaning, alias}]}: what gp.optionSchema()
  // gives as a family's `results`.
  nlohmann::json ToJson() const;
};

// An optional field, for the tables of fields the families write.
ResultField Optional(ResultField field);

// The header every summary starts with: family (`family_id` as a literal), familyTitle,
// format (`formats`, a type expression), encoding, detection, inputBytes, inputs,
// producerText and counts. Shown by every summary text and the page the same way.
std::vector<ResultField> SummaryHeader(const std::string& family_id, const std::string& title,
                                       const std::string& formats, const std::string& encodings);

// A type expression of literals: 'a' | 'b'.
std::string Literals(const std::vector<std::string>& values);

}  // namespace graphport

#endif  // GRAPHPORT_CORE_RESULT_SCHEMA_H_

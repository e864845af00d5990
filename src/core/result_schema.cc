#include "core/result_schema.h"

#include "core/error.h"

namespace graphport {
namespace {

using nlohmann::json;

json FieldJson(const ResultField& field) {
  return {{"name", field.name},
          {"type", field.type},
          {"optional", field.optional},
          {"meaning", field.meaning},
          {"header", field.header}};
}

json TypeJson(const ResultType& type) {
  json out = {{"name", type.name}, {"meaning", type.meaning}};
  if (!type.alias.empty()) {
    out["alias"] = type.alias;
    return out;
  }
  json fields = json::array();
  for (const ResultField& field : type.fields) fields.push_back(FieldJson(field));
  out["fields"] = std::move(fields);
  if (!type.extends.empty()) out["extends"] = type.extends;
  return out;
}

}  // namespace

void ResultSchema::Add(const ResultType& type) {
  for (const ResultType& known : types) {
    if (known.name != type.name) continue;
    // Two descriptions of one name would make two different types of one name in index.d.ts.
    if (TypeJson(known) != TypeJson(type)) {
      throw Error(ErrorCode::kInternal, "result type " + type.name + " is described twice");
    }
    return;
  }
  types.push_back(type);
}

void ResultSchema::Add(const std::vector<ResultType>& more) {
  for (const ResultType& type : more) Add(type);
}

json ResultSchema::ToJson() const {
  json list = json::array();
  for (const ResultType& type : types) list.push_back(TypeJson(type));
  json out = {{"summary", summary}, {"exportInfo", export_info}, {"types", std::move(list)}};
  if (!preview.empty()) out["preview"] = preview;
  return out;
}

ResultField Optional(ResultField field) {
  field.optional = true;
  return field;
}

std::string Literals(const std::vector<std::string>& values) {
  std::string out;
  for (const std::string& value : values) out += (out.empty() ? "'" : " | '") + value + "'";
  return out;
}

std::vector<ResultField> SummaryHeader(const std::string& family_id, const std::string& title,
                                       const std::string& formats, const std::string& encodings) {
  std::vector<ResultField> fields = {
      {"family", Literals({family_id}), "The family that read the model."},
      {"familyTitle", Literals({title}), "The family's name for people."},
      {"format", formats, "The format the input was read as."},
      {"encoding", encodings, "How the input was encoded."},
      {"detection", "string", "Why the input was taken for this format, for people."},
      {"inputBytes", "number", "The bytes read."},
      Optional({"inputs", "string[]",
                "Input names read, when a set of several was given (a SavedModel folder)."}),
      {"producerText", "string",
       "What wrote the model, in a line of text; the family's own fields have the details."},
      {"counts", "[string, number][]", "The headline counts, in order: [label, number]."},
  };
  for (ResultField& field : fields) field.header = true;
  return fields;
}

}  // namespace graphport

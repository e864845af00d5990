#include "proto/field_path.h"

#include "core/message_text.h"
#include "core/utf8.h"

namespace graphport::proto {
namespace {

namespace pb = google::protobuf;

// A map field's entries, seen through reflection as repeated messages: the key names one.
std::string MapKeyText(const FieldStep& step) {
  const pb::Message& entry =
      step.parent->GetReflection()->GetRepeatedMessage(*step.parent, step.field, step.index);
  const pb::FieldDescriptor* key = entry.GetDescriptor()->map_key();
  const pb::Reflection* r = entry.GetReflection();
  switch (key->cpp_type()) {
    case pb::FieldDescriptor::CPPTYPE_STRING: {
      std::string text = r->GetString(entry, key);
      // A key that is itself the fault must not break the message (it ends up in JSON).
      if (!IsValidUtf8(text)) return "[#" + std::to_string(step.index) + "]";
      return "[\"" + CapForMessage(text) + "\"]";
    }
    case pb::FieldDescriptor::CPPTYPE_INT32:
      return "[" + std::to_string(r->GetInt32(entry, key)) + "]";
    case pb::FieldDescriptor::CPPTYPE_INT64:
      return "[" + std::to_string(r->GetInt64(entry, key)) + "]";
    case pb::FieldDescriptor::CPPTYPE_UINT32:
      return "[" + std::to_string(r->GetUInt32(entry, key)) + "]";
    case pb::FieldDescriptor::CPPTYPE_UINT64:
      return "[" + std::to_string(r->GetUInt64(entry, key)) + "]";
    case pb::FieldDescriptor::CPPTYPE_BOOL:
      return r->GetBool(entry, key) ? "[true]" : "[false]";
    default:
      return "[#" + std::to_string(step.index) + "]";
  }
}

}  // namespace

std::string FieldPathText(const FieldPath& path) {
  std::vector<std::string> steps;
  steps.reserve(path.size());
  for (const FieldStep& step : path) {
    std::string text = step.field->name();
    if (step.index >= 0) {
      text += step.field->is_map() ? MapKeyText(step) : "[" + std::to_string(step.index) + "]";
    }
    steps.push_back(std::move(text));
  }
  return JoinPathSteps(steps);
}

}  // namespace graphport::proto

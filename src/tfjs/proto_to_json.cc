#include "tfjs/proto_to_json.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/base64.h"
#include "core/error.h"
#include "core/limits.h"

namespace graphport::tfjs {
namespace {

namespace pb = google::protobuf;
using pb::FieldDescriptor;
using ojson = OrderedJson;

ojson NonFinite(double v) {
  if (std::isnan(v)) return "NaN";
  return v > 0 ? "Infinity" : "-Infinity";
}

// The shortest of %.1g .. %.9g that reads back as `v` (9 digits always do).
ojson FloatJson(float v) {
  if (!std::isfinite(v)) return NonFinite(v);
  char text[32];
  for (int digits = 1; digits <= 9; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, static_cast<double>(v));
    if (std::strtof(text, nullptr) == v) break;
  }
  return std::strtod(text, nullptr);
}

ojson DoubleJson(double v) { return std::isfinite(v) ? ojson(v) : NonFinite(v); }

class Writer {
 public:
  ojson Message(const pb::Message& message, int depth) {
    if (depth > kMaxProtoNesting) {
      throw Error(ErrorCode::kTooLarge,
                  "messages nest more than " + std::to_string(kMaxProtoNesting) + " levels deep");
    }
    ojson out = ojson::Object();
    const pb::Reflection* r = message.GetReflection();
    std::vector<const FieldDescriptor*> fields;
    r->ListFields(message, &fields);
    for (const FieldDescriptor* field : fields) {
      if (field->is_map()) {
        out[field->json_name()] = Map(message, field, depth);
      } else if (field->is_repeated()) {
        ojson list = ojson::Array();
        for (int i = 0; i < r->FieldSize(message, field); ++i) {
          list.items().push_back(Value(message, field, i, depth));
        }
        out[field->json_name()] = std::move(list);
      } else {
        out[field->json_name()] = Value(message, field, -1, depth);
      }
    }
    return out;
  }

 private:
  ojson Map(const pb::Message& message, const FieldDescriptor* field, int depth) {
    const pb::Reflection* r = message.GetReflection();
    const FieldDescriptor* key_field = field->message_type()->map_key();
    const FieldDescriptor* value_field = field->message_type()->map_value();
    std::vector<std::pair<std::string, const pb::Message*>> entries;
    for (int i = 0; i < r->FieldSize(message, field); ++i) {
      const pb::Message& entry = r->GetRepeatedMessage(message, field, i);
      ojson key = Value(entry, key_field, -1, depth);
      std::string text;
      if (key.is_string()) {
        text = key.string_value();
      } else {
        key.Dump(&text);  // a number or a bool: never fails
      }
      entries.emplace_back(std::move(text), &entry);
    }
    std::stable_sort(entries.begin(), entries.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    // Equal keys are neighbours now: the first place and the last value, as operator[] gives.
    ojson out = ojson::Object();
    std::vector<ojson::Member>& members = out.members();
    for (const auto& [key, entry] : entries) {
      ojson value = Value(*entry, value_field, -1, depth);
      if (!members.empty() && members.back().first == key) {
        members.back().second = std::move(value);
      } else {
        members.emplace_back(key, std::move(value));
      }
    }
    return out;
  }

  // Element `i` of a repeated field, or the singular field when i < 0.
  ojson Value(const pb::Message& m, const FieldDescriptor* f, int i, int depth) {
    const pb::Reflection* r = m.GetReflection();
    bool rep = i >= 0;
    switch (f->cpp_type()) {
      case FieldDescriptor::CPPTYPE_INT32:
        return rep ? r->GetRepeatedInt32(m, f, i) : r->GetInt32(m, f);
      case FieldDescriptor::CPPTYPE_UINT32:
        return rep ? r->GetRepeatedUInt32(m, f, i) : r->GetUInt32(m, f);
      case FieldDescriptor::CPPTYPE_INT64:
        return std::to_string(rep ? r->GetRepeatedInt64(m, f, i) : r->GetInt64(m, f));
      case FieldDescriptor::CPPTYPE_UINT64:
        return std::to_string(rep ? r->GetRepeatedUInt64(m, f, i) : r->GetUInt64(m, f));
      case FieldDescriptor::CPPTYPE_FLOAT:
        return FloatJson(rep ? r->GetRepeatedFloat(m, f, i) : r->GetFloat(m, f));
      case FieldDescriptor::CPPTYPE_DOUBLE:
        return DoubleJson(rep ? r->GetRepeatedDouble(m, f, i) : r->GetDouble(m, f));
      case FieldDescriptor::CPPTYPE_BOOL:
        return rep ? r->GetRepeatedBool(m, f, i) : r->GetBool(m, f);
      case FieldDescriptor::CPPTYPE_ENUM: {
        int number = rep ? r->GetRepeatedEnumValue(m, f, i) : r->GetEnumValue(m, f);
        const pb::EnumValueDescriptor* value = f->enum_type()->FindValueByNumber(number);
        return value != nullptr ? ojson(value->name()) : ojson(number);
      }
      case FieldDescriptor::CPPTYPE_STRING: {
        std::string scratch;
        const std::string& s = rep ? r->GetRepeatedStringReference(m, f, i, &scratch)
                                   : r->GetStringReference(m, f, &scratch);
        if (f->type() == FieldDescriptor::TYPE_BYTES) return Base64Encode(s);
        return s;
      }
      case FieldDescriptor::CPPTYPE_MESSAGE:
        return Message(rep ? r->GetRepeatedMessage(m, f, i) : r->GetMessage(m, f), depth + 1);
    }
    return ojson();
  }
};

}  // namespace

OrderedJson MessageToJson(const google::protobuf::Message& message) {
  return Writer().Message(message, 0);
}

}  // namespace graphport::tfjs

// Helpers of the tests of tfjs::MessageToJson (proto_to_json_test.cc,
// proto_to_json_graphs_test.cc): the reflection-based writer it replaced, kept as the
// reference and run on libprotobuf DynamicMessages of the same schemas, and an exact
// comparison of two OrderedJson values, kind for kind and member for member.
#ifndef GRAPHPORT_TESTS_CPP_TFJS_PROTO_TO_JSON_TEST_UTIL_H_
#define GRAPHPORT_TESTS_CPP_TFJS_PROTO_TO_JSON_TEST_UTIL_H_

#include <google/protobuf/message.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/base64.h"
#include "core/error.h"
#include "core/limits.h"
#include "core/ordered_json.h"
#include "proto/deterministic_bytes.h"
#include "proto/schema.h"
#include "reference_pool.h"
#include "tfjs/proto_to_json.h"

namespace graphport::testing {

namespace pb = google::protobuf;
using pb::FieldDescriptor;
using ojson = OrderedJson;
using DynamicMessage = std::unique_ptr<pb::Message>;

// --- The reference: the reflection-based writer MessageToJson was until the schema tables ---

inline ojson NonFinite(double v) {
  if (std::isnan(v)) return "NaN";
  return v > 0 ? "Infinity" : "-Infinity";
}

// The shortest decimal that reads back as `v`, found by std::to_chars (not the writer's own
// search over printf precisions), as a double.
inline ojson FloatJson(float v) {
  if (!std::isfinite(v)) return NonFinite(v);
  char text[32];
  const std::to_chars_result end = std::to_chars(text, text + sizeof text, v);
  return std::strtod(std::string(text, end.ptr).c_str(), nullptr);
}

inline ojson DoubleJson(double v) { return std::isfinite(v) ? ojson(v) : NonFinite(v); }

class ReflectionWriter {
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
        key.Dump(&text);
      }
      entries.emplace_back(std::move(text), &entry);
    }
    std::stable_sort(entries.begin(), entries.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
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

inline ojson ReferenceJson(const pb::Message& message) {
  return ReflectionWriter().Message(message, 0);
}

// --- Comparing two OrderedJson values exactly -------------------------------------------------

inline const char* KindName(ojson::Kind kind) {
  switch (kind) {
    case ojson::Kind::kNull:
      return "null";
    case ojson::Kind::kBool:
      return "bool";
    case ojson::Kind::kInt:
      return "int";
    case ojson::Kind::kUInt:
      return "uint";
    case ojson::Kind::kDouble:
      return "double";
    case ojson::Kind::kString:
      return "string";
    case ojson::Kind::kArray:
      return "array";
    case ojson::Kind::kObject:
      return "object";
  }
  return "?";
}

// Empty when `a` and `b` are the same value of the same kinds, members in the same order
// (doubles by their bits, so -0.0 and NaN count); else where they first differ.
inline std::string Difference(const ojson& a, const ojson& b, const std::string& path = "$") {
  if (a.kind() != b.kind()) {
    return path + ": " + KindName(a.kind()) + " vs " + KindName(b.kind());
  }
  switch (a.kind()) {
    case ojson::Kind::kNull:
      return "";
    case ojson::Kind::kBool:
      return a.bool_value() == b.bool_value() ? "" : path + ": bools differ";
    case ojson::Kind::kInt:
      return a.int_value() == b.int_value() ? "" : path + ": ints differ";
    case ojson::Kind::kUInt:
      return a.uint_value() == b.uint_value() ? "" : path + ": uints differ";
    case ojson::Kind::kDouble: {
      double x = a.double_value(), y = b.double_value();
      return std::memcmp(&x, &y, sizeof x) == 0 ? "" : path + ": doubles differ";
    }
    case ojson::Kind::kString:
      return a.string_value() == b.string_value()
                 ? ""
                 : path + ": \"" + a.string_value() + "\" vs \"" + b.string_value() + "\"";
    case ojson::Kind::kArray: {
      if (a.items().size() != b.items().size()) return path + ": lengths differ";
      for (size_t i = 0; i < a.items().size(); ++i) {
        std::string d =
            Difference(a.items()[i], b.items()[i], path + "[" + std::to_string(i) + "]");
        if (!d.empty()) return d;
      }
      return "";
    }
    case ojson::Kind::kObject: {
      const auto& x = a.members();
      const auto& y = b.members();
      for (size_t i = 0; i < std::max(x.size(), y.size()); ++i) {
        if (i >= x.size()) return path + ": only the second has \"" + y[i].first + "\"";
        if (i >= y.size()) return path + ": only the first has \"" + x[i].first + "\"";
        if (x[i].first != y[i].first) {
          return path + ": member " + std::to_string(i) + " is \"" + x[i].first + "\" vs \"" +
                 y[i].first + "\"";
        }
        std::string d = Difference(x[i].second, y[i].second, path + "." + x[i].first);
        if (!d.empty()) return d;
      }
      return "";
    }
  }
  return "";
}

inline ::testing::AssertionResult SameJson(const ojson& expected, const ojson& actual) {
  std::string d = Difference(expected, actual);
  if (d.empty()) return ::testing::AssertionSuccess();
  std::string e, a;
  expected.Dump(&e);
  actual.Dump(&a);
  if (e.size() > 1500) e = e.substr(0, 1500) + "...";
  if (a.size() > 1500) a = a.substr(0, 1500) + "...";
  return ::testing::AssertionFailure() << d << "\nexpected: " << e << "\nactual:   " << a;
}

// The JSON text the TF.js writer prints for `message` (any MessageLite of the type `schema`
// describes) against the reference's text, byte for byte: the writer's product is text, so
// the kinds of equal numbers are not compared ("1" is "1" whether it was signed or not). The
// tree MessageToJson gives must print the same text.
inline ::testing::AssertionResult SameText(const ojson& reference, const pb::MessageLite& message,
                                           const proto::MessageSchema& schema) {
  std::string expected, printed, tree;
  if (!reference.Dump(&expected))
    return ::testing::AssertionFailure() << "the reference is not UTF-8";
  if (!tfjs::AppendMessageJson(proto::DeterministicBytes(message), schema, &printed)) {
    return ::testing::AssertionFailure() << "the writer found a string that is not UTF-8";
  }
  if (!tfjs::MessageToJson(message, schema).Dump(&tree)) {
    return ::testing::AssertionFailure() << "the tree does not dump";
  }
  for (const std::string* actual : {&printed, &tree}) {
    if (*actual == expected) continue;
    size_t at = 0;
    while (at < expected.size() && at < actual->size() && expected[at] == (*actual)[at]) ++at;
    const size_t from = at > 200 ? at - 200 : 0;
    return ::testing::AssertionFailure()
           << (actual == &printed ? "the text" : "the tree's text") << " differs at byte " << at
           << "\nexpected: ..." << expected.substr(from, 400) << "\nactual:   ..."
           << actual->substr(from, 400);
  }
  return ::testing::AssertionSuccess();
}

// The same against the reference on libprotobuf's DynamicMessage of the same bytes.
inline ::testing::AssertionResult SameAsReflection(const pb::MessageLite& message,
                                                   const proto::MessageSchema& schema,
                                                   const ReferencePool& pool) {
  DynamicMessage reference = pool.New(std::string(schema.full_name));
  if (!reference->ParseFromString(message.SerializeAsString())) {
    return ::testing::AssertionFailure() << "the reference does not parse";
  }
  return SameText(ReferenceJson(*reference), message, schema);
}

}  // namespace graphport::testing

#endif  // GRAPHPORT_TESTS_CPP_TFJS_PROTO_TO_JSON_TEST_UTIL_H_

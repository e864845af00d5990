// Helpers of the protobuf JSON tests (proto_json_test.cc, proto_json_corpus_test.cc,
// proto_json_wire_test.cc, proto_json_agreement_test.cc).
// graphport reads JSON into the generated classes through their schema tables; libprotobuf's
// full runtime, the reference, works on DynamicMessages of the same types built from protoc's
// descriptor set (reference_pool.h), so the comparisons need nothing of the generated classes
// but the lite API (parse, serialize).
#ifndef GRAPHPORT_TESTS_CPP_PROTO_PROTO_JSON_TEST_UTIL_H_
#define GRAPHPORT_TESTS_CPP_PROTO_PROTO_JSON_TEST_UTIL_H_

#include <google/protobuf/text_format.h>
#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/error.h"
#include "graphport_test/schemas.h"
#include "proto/deterministic_bytes.h"
#include "proto/proto_json.h"
#include "proto_json_test.pb.h"
#include "reference_pool.h"

namespace graphport::testing {

using DynamicMessage = std::unique_ptr<google::protobuf::Message>;

inline constexpr char kEverything[] = "graphport.test.Everything";

// libprotobuf's view of `message` (a generated message of the test schemas): a DynamicMessage
// of its type parsed from its bytes.
inline DynamicMessage Reference(const google::protobuf::MessageLite& message,
                                const std::string& type = kEverything) {
  return ReferencePool::Test().New(type, message.SerializeAsString());
}

// JsonToMessage on JSON text into a fresh Everything.
inline graphport::test::Everything ReadEverything(const std::string& text) {
  graphport::test::Everything message;
  proto::JsonToMessage(nlohmann::json::parse(text), &message, "input");
  return message;
}

// The same, as libprotobuf sees what was read.
inline DynamicMessage Read(const std::string& text) { return Reference(ReadEverything(text)); }

// The message of the error JsonToMessage throws for `text` (into a `type` of the test
// schemas), or "" when it reads it.
inline std::string ErrorFor(const std::string& text, ErrorCode* code = nullptr,
                            const std::string& type = kEverything) {
  std::unique_ptr<google::protobuf::MessageLite> message(
      ReferencePool::Test().New(type)->New());  // any MessageLite of the type will do
  try {
    proto::JsonToMessage(nlohmann::json::parse(text), message.get(),
                         *graphport::test::TestSchemas().Find(type), "input");
  } catch (const Error& e) {
    if (code != nullptr) *code = e.code();
    return e.what();
  }
  return "";
}

// Text format read by libprotobuf into a DynamicMessage of `type`.
inline DynamicMessage FromText(const std::string& text, const std::string& type = kEverything) {
  DynamicMessage message = ReferencePool::Test().New(type);
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, message.get())) << text;
  return message;
}

// libprotobuf's own JSON parser on `text`, into a DynamicMessage of `type`.
inline bool OracleAccepts(const std::string& text, DynamicMessage* message,
                          const std::string& type = kEverything) {
  *message = ReferencePool::Test().New(type);
  return google::protobuf::util::JsonStringToMessage(text, message->get()).ok();
}

// Rewrites every Any's value (innermost first) as the deterministic serialisation of the
// message it holds: what JsonToWire makes of the Any's JSON, whichever writer made the value.
inline void CanonicalAnys(google::protobuf::Message* message, const ReferencePool& reference) {
  const google::protobuf::Reflection* r = message->GetReflection();
  if (message->GetDescriptor()->full_name() == "google.protobuf.Any") {
    const google::protobuf::FieldDescriptor* url_field =
        message->GetDescriptor()->FindFieldByNumber(1);
    const google::protobuf::FieldDescriptor* value_field =
        message->GetDescriptor()->FindFieldByNumber(2);
    const std::string url = r->GetString(*message, url_field);
    DynamicMessage inner =
        reference.New(url.substr(url.rfind('/') + 1), r->GetString(*message, value_field));
    CanonicalAnys(inner.get(), reference);
    r->SetString(message, value_field, proto::DeterministicBytes(*inner));
    return;
  }
  std::vector<const google::protobuf::FieldDescriptor*> fields;
  r->ListFields(*message, &fields);
  for (const google::protobuf::FieldDescriptor* field : fields) {
    if (field->cpp_type() != google::protobuf::FieldDescriptor::CPPTYPE_MESSAGE) continue;
    if (!field->is_repeated()) {
      CanonicalAnys(r->MutableMessage(message, field), reference);
      continue;
    }
    for (int i = 0; i < r->FieldSize(*message, field); ++i) {
      CanonicalAnys(r->MutableRepeatedMessage(message, field, i), reference);
    }
  }
}

}  // namespace graphport::testing

#endif  // GRAPHPORT_TESTS_CPP_PROTO_PROTO_JSON_TEST_UTIL_H_

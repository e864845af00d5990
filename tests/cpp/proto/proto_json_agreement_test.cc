// proto::JsonToMessage against libprotobuf's JsonStringToMessage on a table of tricky inputs, and
// its nesting limit: split from proto_json_test.cc, which holds the mapping's rules (the corpus
// is in proto_json_corpus_test.cc, the wire bytes in proto_json_wire_test.cc). libprotobuf
// works on DynamicMessages of the same schemas (proto_json_test_util.h).
#include <google/protobuf/text_format.h>
#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <string>

#include "core/limits.h"
#include "proto/proto_json.h"
#include "proto_json_test_util.h"
#include "tensorflow/schemas.h"
#include "test_util.h"

namespace graphport::tf {
namespace {

using nlohmann::json;
using testing::DynamicMessage;
using testing::ErrorFor;
using testing::OracleAccepts;
using testing::Read;
using testing::ReferencePool;
namespace util = google::protobuf::util;

// --- (c) Agreement with libprotobuf's JsonStringToMessage --------------------------------------

constexpr const char* kSameVerdict[] = {
    R"({"scalars": {"i32": "+5", "u32": "012"}})",
    R"({"scalars": {"i32": 1e2}})",
    R"({"scalars": {"i32": 1.5}})",
    R"({"scalars": {"i32": "1e2"}})",
    R"({"scalars": {"i32": "1.0"}})",
    R"({"scalars": {"i32": " 12"}})",
    R"({"scalars": {"i32": "12 "}})",
    R"({"scalars": {"i32": 2147483648}})",
    R"({"scalars": {"i32": -2147483649}})",
    R"({"scalars": {"u32": -1}})",
    R"({"scalars": {"i64": "9223372036854775807"}})",
    R"({"scalars": {"i64": "9223372036854775808"}})",
    R"({"scalars": {"i64": "-9223372036854775809"}})",
    R"({"scalars": {"i64": 9.2233720368547758e18}})",
    R"({"scalars": {"i64": -9.2233720368547758e18}})",
    R"({"scalars": {"i64": 1e18}})",
    R"({"scalars": {"i64": "1e18"}})",
    R"({"scalars": {"u64": 18446744073709551615}})",
    R"({"scalars": {"u64": 1.8446744073709552e19}})",
    R"({"scalars": {"u64": "-0"}})",
    R"({"scalars": {"flt": 3.4028235e38}})",
    R"({"scalars": {"flt": 3.5e38}})",
    R"({"scalars": {"flt": 1e-50}})",
    R"({"scalars": {"flt": "Infinity", "dbl": "-Infinity"}})",
    R"({"scalars": {"flt": "nan"}})",
    R"({"scalars": {"dbl": "1e400"}})",
    R"({"scalars": {"dbl": "-1.5e-3"}})",
    R"({"scalars": {"dbl": ""}})",
    R"({"scalars": {"flag": "true"}})",
    R"({"scalars": {"flag": 1}})",
    R"({"scalars": {"str": 3}})",
    R"({"scalars": {"str": false}})",
    R"({"scalars": {"raw": "AQI"}})",
    R"({"scalars": {"raw": "-_8"}})",
    R"({"scalars": {"raw": "-/8="}})",
    R"({"scalars": {"raw": "AQ="}})",
    R"({"scalars": {"raw": "AR=="}})",
    R"({"scalars": {"raw": "A"}})",
    R"({"scalars": {"color": 7}})",
    R"({"scalars": {"color": "7"}})",
    R"({"scalars": {"color": "green"}})",
    R"({"scalars": {"color": true}})",
    R"({"scalars": {"optI32": 0}})",
    R"({"choiceStr": "a", "choiceInt": 1})",
    R"({"choiceStr": "a", "choiceInt": null})",
    R"({"choiceInt": 0})",
    R"({"SnakeCaseName": "a"})",
    R"({"scalars": []})",
    R"({"strMap": []})",
    R"({"intMap": {"-2": "b", "007": "c"}})",
    R"({"intMap": {" 1": "a"}})",
    R"({"uintMap": {"-1": 3}})",
    R"({"boolMap": {"false": "b"}})",
    R"({"fixedMap": {"18446744073709551615": "RED"}})",
    R"({"int32Wrapper": "5"})",
    R"({"int32Wrapper": {"value": 5}})",
    R"({"any": {"i32": 5, "@type": "type.googleapis.com/graphport.test.Scalars"}})",
    R"({"any": {"@type": "type.googleapis.com/graphport.test.Nope"}})",
    R"({"any": {"i32": 5}})",
    R"({"any": {"@type": 5}})",
    R"({"any": {"@type": "type.googleapis.com/graphport.test.Scalars", "value": {}}})",
    R"({"any": {"@type": "type.googleapis.com/google.protobuf.Int32Value"}})",
    R"({"any": {"@type": "type.googleapis.com/google.protobuf.Int32Value", "value": null}})",
    R"({"anyList": [{}, {"@type": "type.googleapis.com/google.protobuf.BoolValue", "value": true}]})",
    R"({"strList": ["a", 1]})",
};

TEST(ProtoJsonTest, AgreesWithJsonStringToMessage) {
  for (const char* text : kSameVerdict) {
    SCOPED_TRACE(text);
    DynamicMessage theirs;
    bool they_accept = OracleAccepts(text, &theirs);
    std::string error = ErrorFor(text);
    EXPECT_EQ(error.empty(), they_accept) << error;
    if (error.empty() && they_accept) {
      EXPECT_TRUE(testing::MessagesEqual(*theirs, *Read(text)));
    }
  }
}

// Where graphport is deliberately stricter than libprotobuf 3.21 (see proto_json.h and the
// comments at each rule); this pins the difference so that a change is noticed.
constexpr const char* kStricterThanLibprotobuf[] = {
    R"({"intList": [1, null, 3]})",  // 3.21 drops the null
    R"({"strMap": {"a": null}})",    // 3.21 stores ""
    R"({"intList": 5})",             // 3.21 takes a bare value as a list of one
    R"({"intList": [[1]]})",         // 3.21 flattens nested lists
    R"({"snake_case_name": "a", "snakeCaseName": "b"})",  // 3.21 keeps the last
    R"({"scalars": {"flag": "1"}})",                      // 3.21 takes "1", "t", "yes"...
    R"({"boolMap": {"True": "a"}})",
    R"({"scalars": {"dbl": "0x1p3"}})",  // 3.21 reads hex through strtod
};

TEST(ProtoJsonTest, StricterThanJsonStringToMessage) {
  for (const char* text : kStricterThanLibprotobuf) {
    SCOPED_TRACE(text);
    DynamicMessage theirs;
    EXPECT_TRUE(OracleAccepts(text, &theirs));
    EXPECT_FALSE(ErrorFor(text).empty());
  }
}

// Any type URLs: libprotobuf 3.21 takes only type.googleapis.com/<name>; the mapping's spec
// and graphport take any prefix up to the last '/'.
TEST(ProtoJsonTest, LaxerThanJsonStringToMessageOnTypeUrls) {
  const char* text = R"({"any": {"@type": "example.com/graphport.test.Scalars", "i32": 5}})";
  DynamicMessage theirs;
  EXPECT_FALSE(OracleAccepts(text, &theirs));
  EXPECT_EQ(ErrorFor(text), "");
}

// --- (d) Nesting ------------------------------------------------------------------------------

std::string NestedChildren(int levels) {
  std::string text;
  for (int i = 0; i < levels; ++i) text += R"({"child": )";
  text += "{}";
  for (int i = 0; i < levels; ++i) text += "}";
  return text;
}

TEST(ProtoJsonTest, DepthIsLimited) {
  EXPECT_EQ(ErrorFor(NestedChildren(kMaxProtoNesting - 1)), "");
  std::string error = ErrorFor(NestedChildren(200));
  EXPECT_NE(error.find("messages nest more than 100 levels deep"), std::string::npos) << error;
  EXPECT_NE(error.find("field 'child.child."), std::string::npos) << error;
  EXPECT_LT(error.size(), 300u) << "a deep path is shortened";
  // Through Anys, each of which also counts.
  std::string any;
  for (int i = 0; i < 200; ++i) {
    any += R"({"@type": "type.googleapis.com/graphport.test.Everything", "any": )";
  }
  any += "{}";
  for (int i = 0; i < 200; ++i) any += "}";
  error = ErrorFor(R"({"any": )" + any + "}");
  EXPECT_NE(error.find("nest more than"), std::string::npos) << error;
}

// The shape of testing::DeeplyNestedGraph, written out as JSON because MessageToJsonString
// itself refuses to print it that deep: an attr nesting AttrValue > list > func > attr.
std::string DeeplyNestedGraphJson(int levels) {
  std::string value = R"({"s": "Ym90dG9t"})";
  for (int i = 1; i < levels; ++i) {
    value = R"({"list": {"func": [{"name": "f", "attr": {"f": )" + value + "}}]}}";
  }
  return R"({"node": [{"name": "deep", "op": "NoOp", "attr": {"deep": )" + value + "}}]}";
}

TEST(ProtoJsonTest, DeeplyNestedGraphIsAnErrorNotACrash) {
  tensorflow::GraphDef read;
  try {
    proto::JsonToMessage(json::parse(DeeplyNestedGraphJson(200)), &read, "deep");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("nest more than"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("node[0].attr[\"deep\"].list.func[0]"), std::string::npos)
        << e.what();
  }
  const ReferencePool& reference = ReferencePool::Tf();
  DynamicMessage shallow =
      reference.New("tensorflow.GraphDef", testing::DeeplyNestedGraph(20).SerializeAsString());
  std::string text;
  ASSERT_TRUE(util::MessageToJsonString(*shallow, &text).ok());
  proto::JsonToMessage(json::parse(text), &read, "shallow");
  EXPECT_TRUE(testing::MessagesEqual(
      *shallow, *reference.New("tensorflow.GraphDef", read.SerializeAsString())));
  DynamicMessage oracle = reference.New("tensorflow.GraphDef");
  ASSERT_TRUE(util::JsonStringToMessage(DeeplyNestedGraphJson(20), oracle.get()).ok());
  proto::JsonToMessage(json::parse(DeeplyNestedGraphJson(20)), &read, "shallow");
  EXPECT_TRUE(testing::MessagesEqual(
      *oracle, *reference.New("tensorflow.GraphDef", read.SerializeAsString())));
}

// At the limit exactly: 100 messages deep reads, and what it reads parses back (libprotobuf
// takes 100 levels below the message it parses); one more is refused.
TEST(ProtoJsonTest, NestingAtTheLimit) {
  DynamicMessage read = Read(NestedChildren(kMaxProtoNesting - 1));
  int levels = 1;
  for (const google::protobuf::Message* m = read.get();; ++levels) {
    const auto* child = m->GetDescriptor()->FindFieldByName("child");
    if (!m->GetReflection()->HasField(*m, child)) break;
    m = &m->GetReflection()->GetMessage(*m, child);
  }
  EXPECT_EQ(levels, kMaxProtoNesting);
  ErrorCode code = ErrorCode::kInternal;
  EXPECT_NE(ErrorFor(NestedChildren(kMaxProtoNesting), &code).find("nest more than 100 levels"),
            std::string::npos);
  EXPECT_EQ(code, ErrorCode::kParseError);
}

// A map entry is a message of its own on the wire, where libprotobuf counts it: JSON that
// nests fewer than 100 objects can still nest too deep for the parser. 50 map levels are 100
// wire levels below the top, and read; 51 are refused with the nesting error (not a parse
// failure of the bytes made).
std::string NestedMaps(int levels) {
  std::string text;
  for (int i = 0; i < levels; ++i) text += R"({"childMap": {"k": )";
  text += "{}";
  for (int i = 0; i < levels; ++i) text += "}}";
  return text;
}

TEST(ProtoJsonTest, MapEntriesCountAsWireLevels) {
  // (libprotobuf's own JSON parser refuses this already: it counts the map objects.)
  DynamicMessage read = Read(NestedMaps(50));  // parsed by the generated class and by reflection
  int levels = 0;
  for (const google::protobuf::Message* m = read.get();; ++levels) {
    const auto* map = m->GetDescriptor()->FindFieldByName("child_map");
    if (m->GetReflection()->FieldSize(*m, map) != 1) break;
    const google::protobuf::Message& entry = m->GetReflection()->GetRepeatedMessage(*m, map, 0);
    m = &entry.GetReflection()->GetMessage(entry, entry.GetDescriptor()->FindFieldByNumber(2));
  }
  EXPECT_EQ(levels, 50);
  ErrorCode code = ErrorCode::kInternal;
  std::string error = ErrorFor(NestedMaps(51), &code);
  EXPECT_NE(error.find("messages nest more than 100 levels deep"), std::string::npos) << error;
  EXPECT_NE(error.find("field 'child_map[\"k\"].child_map"), std::string::npos) << error;
  EXPECT_EQ(code, ErrorCode::kParseError);
}

// An Any's value is bytes to the parser: the message in it starts counting again, while JSON's
// count goes on through it (an Any and the message in it are two levels).
TEST(ProtoJsonTest, AnyValuesStartTheirOwnWireNesting) {
  // 30 map levels (60 wire levels) around an Any whose message nests 30 more: 121 levels in
  // all, but the parser sees 61 and then bytes. JSON counts 31 + 2 + 30.
  std::string any_body = NestedMaps(30);
  any_body.insert(1, R"("@type": "type.googleapis.com/graphport.test.Everything", )");
  std::string text = NestedMaps(30);
  text.replace(text.find("{}"), 2, R"({"any": )" + any_body + "}");
  EXPECT_EQ(ErrorFor(text), "");
}

}  // namespace
}  // namespace graphport::tf

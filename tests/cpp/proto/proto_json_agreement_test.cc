// proto::JsonToMessage against libprotobuf's JsonStringToMessage on a table of tricky inputs, and
// its nesting limit: split from proto_json_test.cc, which holds the corpus and the mapping's
// rules.
#include <google/protobuf/text_format.h>
#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <string>

#include "core/limits.h"
#include "proto/proto_json.h"
#include "proto_json_test.pb.h"
#include "test_util.h"

namespace graphport::tf {
namespace {

using graphport::test::Everything;
using nlohmann::json;
namespace util = google::protobuf::util;

// JsonToMessage on JSON text, into a fresh Everything.
Everything Read(const std::string& text) {
  Everything message;
  proto::JsonToMessage(json::parse(text), &message, "input");
  return message;
}

// The message of the error JsonToMessage throws for `text`, or "" when it reads it.
std::string ErrorFor(const std::string& text, ErrorCode* code = nullptr) {
  Everything message;
  try {
    proto::JsonToMessage(json::parse(text), &message, "input");
  } catch (const Error& e) {
    if (code != nullptr) *code = e.code();
    return e.what();
  }
  return "";
}

Everything FromText(const std::string& text) {
  Everything message;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &message)) << text;
  return message;
}

bool OracleAccepts(const std::string& text, Everything* message) {
  return util::JsonStringToMessage(text, message).ok();
}

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
    Everything theirs;
    bool they_accept = OracleAccepts(text, &theirs);
    std::string error = ErrorFor(text);
    EXPECT_EQ(error.empty(), they_accept) << error;
    if (error.empty() && they_accept) {
      EXPECT_TRUE(testing::MessagesEqual(theirs, Read(text)));
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
    Everything theirs;
    EXPECT_TRUE(OracleAccepts(text, &theirs));
    EXPECT_FALSE(ErrorFor(text).empty());
  }
}

// Any type URLs: libprotobuf 3.21 takes only type.googleapis.com/<name>; the mapping's spec
// and graphport take any prefix up to the last '/'.
TEST(ProtoJsonTest, LaxerThanJsonStringToMessageOnTypeUrls) {
  const char* text = R"({"any": {"@type": "example.com/graphport.test.Scalars", "i32": 5}})";
  Everything theirs;
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
  tensorflow::GraphDef shallow = testing::DeeplyNestedGraph(20);
  std::string text;
  ASSERT_TRUE(util::MessageToJsonString(shallow, &text).ok());
  proto::JsonToMessage(json::parse(text), &read, "shallow");
  EXPECT_TRUE(testing::MessagesEqual(shallow, read));
  tensorflow::GraphDef oracle;
  ASSERT_TRUE(util::JsonStringToMessage(DeeplyNestedGraphJson(20), &oracle).ok());
  proto::JsonToMessage(json::parse(DeeplyNestedGraphJson(20)), &read, "shallow");
  EXPECT_TRUE(testing::MessagesEqual(oracle, read));
}

}  // namespace
}  // namespace graphport::tf

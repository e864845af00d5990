// proto::JsonToMessage against libprotobuf's own JSON parser and printer, which the WebAssembly
// module no longer links but these native tests still can, on DynamicMessages of the same
// schemas: each rule of the mapping has its own case, read as libprotobuf reads the text
// format of the same message or refused with the field path. The corpus is in
// proto_json_corpus_test.cc, the wire bytes made in proto_json_wire_test.cc.
#include "proto/proto_json.h"

#include <google/protobuf/text_format.h>
#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "proto/deterministic_bytes.h"
#include "proto_json_test_util.h"
#include "tensorflow/schemas.h"
#include "test_util.h"

namespace graphport::tf {
namespace {

using graphport::test::Everything;
using nlohmann::json;
using testing::DynamicMessage;
using testing::ErrorFor;
using testing::FromText;
using testing::ReferencePool;
namespace pb = google::protobuf;
namespace util = google::protobuf::util;

// --- (b) Each rule of the mapping -------------------------------------------------------------

struct Accepted {
  const char* json;
  const char* expected;  // text format of the Everything it must give
};

constexpr Accepted kAccepted[] = {
    // Field names: JSON name and .proto name.
    {R"({"snakeCaseName": "a"})", R"(snake_case_name: "a")"},
    {R"({"snake_case_name": "a"})", R"(snake_case_name: "a")"},
    {R"({"field2x": 1})", "field_2x: 1"},
    {R"({"field_2x": 1})", "field_2x: 1"},
    // 32-bit integers: numbers, whole numbers written as floats, decimal strings.
    {R"({"scalars": {"i32": -2147483648, "u32": 4294967295}})",
     "scalars { i32: -2147483648 u32: 4294967295 }"},
    {R"({"scalars": {"i32": "-12", "u32": "+7", "s32": "007"}})",
     "scalars { i32: -12 u32: 7 s32: 7 }"},
    {R"({"scalars": {"i32": 1e2, "s32": 3.0, "f32": "4294967295", "sf32": -5}})",
     "scalars { i32: 100 s32: 3 f32: 4294967295 sf32: -5 }"},
    {R"({"scalars": {"i32": "-0"}})", "scalars { }"},
    // 64-bit integers: decimal strings (as MessageToJson writes them) or numbers.
    {R"({"scalars": {"i64": "-9223372036854775808", "u64": "18446744073709551615"}})",
     "scalars { i64: -9223372036854775808 u64: 18446744073709551615 }"},
    {R"({"scalars": {"i64": 9223372036854775807, "u64": 18446744073709551615}})",
     "scalars { i64: 9223372036854775807 u64: 18446744073709551615 }"},
    {R"({"scalars": {"s64": 1e18, "f64": "12", "sf64": "-3"}})",
     "scalars { s64: 1000000000000000000 f64: 12 sf64: -3 }"},
    // Floating point: numbers, numeric strings, the three special strings.
    {R"({"scalars": {"dbl": "1.5", "flt": -0.25}})", "scalars { dbl: 1.5 flt: -0.25 }"},
    {R"({"scalars": {"dbl": "Infinity", "flt": "-Infinity"}})", "scalars { dbl: inf flt: -inf }"},
    {R"({"scalars": {"flt": 3.4028235e38}})", "scalars { flt: 3.40282347e+38 }"},
    {R"({"scalars": {"flt": -3.4028235e38}})", "scalars { flt: -3.40282347e+38 }"},
    {R"({"scalars": {"flt": 1e-50}})", "scalars { }"},
    {R"({"dblList": [1, "2.5", "-Infinity", 1e300]})",
     "dbl_list: 1 dbl_list: 2.5 dbl_list: -inf dbl_list: 1e300"},
    // Bools and strings.
    {R"({"scalars": {"flag": true, "str": "h\u00e9"}})",
     "scalars { flag: true str: \"h\\303\\251\" }"},
    {R"({"scalars": {"flag": "true"}})", "scalars { flag: true }"},
    // Bytes: standard or URL-safe base64, padding optional.
    {R"({"scalars": {"raw": "+/8="}})", R"(scalars { raw: "\373\377" })"},
    {R"({"scalars": {"raw": "-_8"}})", R"(scalars { raw: "\373\377" })"},
    {R"({"rawList": ["AQID", "AQI", "AQI=", "AQ", "AQ==", ""]})",
     R"(raw_list: "\001\002\003" raw_list: "\001\002" raw_list: "\001\002" raw_list: "\001"
        raw_list: "\001" raw_list: "")"},
    // Enums by name or number; proto3 keeps numbers it has no name for.
    {R"({"colorList": ["RED", 2, 0, 7, -1, 1.0]})",
     "color_list: [RED, GREEN, COLOR_UNSPECIFIED, 7, -1, RED]"},
    // null leaves any field unset, including a oneof member next to another.
    {R"({"scalars": null, "intList": null, "strMap": null, "any": null, "int32Wrapper": null})",
     ""},
    {R"({"scalars": {"str": null, "optI32": null}})", "scalars { }"},
    {R"({"choiceStr": "a", "choiceInt": null})", R"(choice_str: "a")"},
    // Presence: an empty object is a present message; proto3 optional keeps a zero.
    {R"({"scalars": {}})", "scalars { }"},
    {R"({"scalars": {"optI32": 0}})", "scalars { opt_i32: 0 }"},
    {R"({"choiceInt": 0})", "choice_int: 0"},
    // Repeated fields and maps.
    {R"({"intList": [], "longList": ["1", 2], "strList": ["a", ""]})",
     R"(long_list: [1, 2] str_list: ["a", ""])"},
    {R"({"scalarsList": [{}, {"i32": 1}]})", "scalars_list { } scalars_list { i32: 1 }"},
    {R"({"strMap": {"a": "x", "": "y"}})",
     R"(str_map { key: "a" value: "x" } str_map { key: "" value: "y" })"},
    {R"({"intMap": {"-2": "a", "+3": "b"}, "uintMap": {"4294967295": -1}})",
     R"(int_map { key: -2 value: "a" } int_map { key: 3 value: "b" }
        uint_map { key: 4294967295 value: -1 })"},
    {R"({"longMap": {"-9223372036854775808": {"str": "s"}, "5": {}}})",
     R"(long_map { key: -9223372036854775808 value { str: "s" } } long_map { key: 5 value { } })"},
    {R"({"boolMap": {"true": "t", "false": "f"}})",
     R"(bool_map { key: true value: "t" } bool_map { key: false value: "f" })"},
    {R"({"fixedMap": {"18446744073709551615": "GREEN", "0": 7}})",
     "fixed_map { key: 18446744073709551615 value: GREEN } fixed_map { key: 0 value: 7 }"},
    {R"({"childMap": {"c": {"child": {"strList": ["deep"]}}}})",
     R"(child_map { key: "c" value { child { str_list: "deep" } } })"},
    // Wrappers: the bare value (or libprotobuf's object form).
    {R"({"int32Wrapper": 5, "int64Wrapper": "-6", "uint32Wrapper": "7", "uint64Wrapper": 8,
         "floatWrapper": "NaN", "doubleWrapper": 1.5, "boolWrapper": false,
         "stringWrapper": "s", "bytesWrapper": "AQID"})",
     R"(int32_wrapper { value: 5 } int64_wrapper { value: -6 } uint32_wrapper { value: 7 }
        uint64_wrapper { value: 8 } float_wrapper { value: nan } double_wrapper { value: 1.5 }
        bool_wrapper { } string_wrapper { value: "s" } bytes_wrapper { value: "\001\002\003" })"},
    {R"({"int32Wrapper": {"value": 5}})", "int32_wrapper { value: 5 }"},
    {R"({"wrapperList": [1, 0]})", "wrapper_list { value: 1 } wrapper_list { }"},
    // Any: "@type" anywhere among the fields; a special form goes under "value".
    {R"({"any": {"i32": 5, "@type": "type.googleapis.com/graphport.test.Scalars"}})",
     R"(any { type_url: "type.googleapis.com/graphport.test.Scalars" value: "\010\005" })"},
    {R"({"any": {}})", "any { }"},
    {R"({"any": {"@type": "type.googleapis.com/graphport.test.Scalars"}})",
     R"(any { type_url: "type.googleapis.com/graphport.test.Scalars" })"},
    {R"({"anyList": [{"@type": "type.googleapis.com/google.protobuf.Int32Value", "value": 5},
                     {"@type": "type.googleapis.com/google.protobuf.StringValue", "value": null}]})",
     R"(any_list { type_url: "type.googleapis.com/google.protobuf.Int32Value" value: "\010\005" }
        any_list { type_url: "type.googleapis.com/google.protobuf.StringValue" })"},
    {R"({"any": {"@type": "type.googleapis.com/google.protobuf.Any",
                 "value": {"@type": "type.googleapis.com/graphport.test.Scalars", "i32": 5}}})",
     R"(any { type_url: "type.googleapis.com/google.protobuf.Any"
              value: "\n*type.googleapis.com/graphport.test.Scalars\022\002\010\005" })"},
    // The Any's type URL may have any prefix: the name is what follows the last '/'.
    {R"({"any": {"@type": "example.com/x/graphport.test.Scalars", "i32": 5}})",
     R"(any { type_url: "example.com/x/graphport.test.Scalars" value: "\010\005" })"},
};

TEST(ProtoJsonTest, AcceptsEachRule) {
  for (const Accepted& c : kAccepted) {
    SCOPED_TRACE(c.json);
    Everything read;
    try {
      read = testing::ReadEverything(c.json);
    } catch (const Error& e) {
      ADD_FAILURE() << e.what();
      continue;
    }
    DynamicMessage expected = FromText(c.expected);
    // The bytes made are libprotobuf's deterministic serialisation of the message (NaN's
    // bits included).
    EXPECT_EQ(proto::JsonToWire(json::parse(c.json), proto::SchemaOf<Everything>(), "input"),
              proto::DeterministicBytes(*expected));
    // NaN never equals itself: compare the wrapper's bit pattern class, then drop it.
    if (read.has_float_wrapper() && std::isnan(read.float_wrapper().value())) {
      read.clear_float_wrapper();
      const pb::FieldDescriptor* field =
          expected->GetDescriptor()->FindFieldByName("float_wrapper");
      const pb::Message& wrapper = expected->GetReflection()->GetMessage(*expected, field);
      EXPECT_TRUE(std::isnan(
          wrapper.GetReflection()->GetFloat(wrapper, wrapper.GetDescriptor()->field(0))));
      expected->GetReflection()->ClearField(expected.get(), field);
    }
    EXPECT_TRUE(testing::MessagesEqual(*expected, *testing::Reference(read)));
  }
}

TEST(ProtoJsonTest, ReadsNaN) {
  Everything read = testing::ReadEverything(R"({"scalars": {"flt": "NaN", "dbl": "NaN"}})");
  EXPECT_TRUE(std::isnan(read.scalars().flt()));
  EXPECT_TRUE(std::isnan(read.scalars().dbl()));
}

TEST(ProtoJsonTest, ReplacesWhatTheMessageHeld) {
  Everything message;
  ASSERT_TRUE(message.ParseFromString(
      FromText(R"(str_list: "old" scalars { i32: 1 })")->SerializeAsString()));
  proto::JsonToMessage(json::parse(R"({"strList": ["new"]})"), &message, "input");
  EXPECT_TRUE(
      testing::MessagesEqual(*FromText(R"(str_list: "new")"), *testing::Reference(message)));
}

// An error leaves the message empty rather than partly filled.
TEST(ProtoJsonTest, AnErrorLeavesTheMessageEmpty) {
  Everything message;
  message.add_str_list("old");
  EXPECT_THROW(
      proto::JsonToMessage(json::parse(R"({"strList": ["new"], "nope": 1})"), &message, "input"),
      Error);
  EXPECT_EQ(message.ByteSizeLong(), 0u);
}

struct Refused {
  const char* json;
  const char* error;  // a fragment of the error message, with the field path
};

constexpr Refused kRefused[] = {
    // Names.
    {R"({"nope": 1})", "input: field 'nope': no such field in graphport.test.Everything"},
    {R"({"SnakeCaseName": "a"})", "field 'SnakeCaseName': no such field"},
    {R"({"scalars": {"i32": 1, "bogus": 2}})",
     "field 'scalars.bogus': no such field in "
     "graphport.test.Scalars"},
    {R"({"snake_case_name": "a", "snakeCaseName": "b"})",
     "given twice, as 'snakeCaseName' and 'snake_case_name'"},
    {R"({"choiceStr": "a", "choiceInt": 1})",
     "field 'choice_str': 'choice_int' of the same oneof 'choice' is set already"},
    {R"({"choiceMsg": {}, "choiceStr": "x"})", "'choice_msg' of the same oneof 'choice'"},
    // Integers.
    {R"({"scalars": {"i32": 1.5}})",
     "field 'scalars.i32': expected an int32 (a whole number or "
     "a decimal string), got 1.5"},
    {R"({"scalars": {"i32": 2147483648}})", "2147483648 is out of range for int32"},
    {R"({"scalars": {"i32": "-2147483649"}})", "\"-2147483649\" is out of range for int32"},
    {R"({"scalars": {"u32": -1}})", "field 'scalars.u32': -1 is out of range for uint32"},
    {R"({"scalars": {"i32": "1e2"}})", "expected an int32"},
    {R"({"scalars": {"i32": " 12"}})", "expected an int32"},
    {R"({"scalars": {"i32": "0x10"}})", "expected an int32"},
    {R"({"scalars": {"i32": ""}})", "expected an int32"},
    {R"({"scalars": {"i32": true}})", "expected an int32"},
    {R"({"scalars": {"i64": "9223372036854775808"}})",
     "\"9223372036854775808\" is out of range for int64"},
    {R"({"scalars": {"i64": 9.2233720368547758e18}})", "out of range for int64"},
    {R"({"scalars": {"i64": "1.5"}})", "field 'scalars.i64': expected an int64"},
    {R"({"scalars": {"i64": 1.5}})", "expected an int64"},
    {R"({"scalars": {"u64": "18446744073709551616"}})", "out of range for uint64"},
    {R"({"scalars": {"u64": -1}})", "-1 is out of range for uint64"},
    {R"({"scalars": {"u64": 1.8446744073709552e19}})", "out of range for uint64"},
    // Floating point.
    {R"({"scalars": {"flt": 3.5e38}})", "field 'scalars.flt': 3.5e+38 is out of range for float"},
    {R"({"scalars": {"dbl": "1e400"}})", "\"1e400\" is out of range for double"},
    {R"({"scalars": {"dbl": "nan"}})", "expected a double"},
    {R"({"scalars": {"dbl": "inf"}})", "expected a double"},
    {R"({"scalars": {"dbl": " 1.5"}})", "expected a double"},
    {R"({"scalars": {"dbl": true}})", "expected a double"},
    // Bools, strings, bytes.
    {R"({"scalars": {"flag": 1}})", "field 'scalars.flag': expected a bool (true or false), got 1"},
    {R"({"scalars": {"str": 3}})", "field 'scalars.str': expected a string, got 3"},
    {R"({"scalars": {"str": {}}})", "expected a string, got {}"},
    {R"({"scalars": {"raw": "AQ ID"}})", "field 'scalars.raw': expected base64"},
    {R"({"scalars": {"raw": "-/8="}})", "expected base64"},
    {R"({"scalars": {"raw": "A"}})", "expected base64"},
    {R"({"scalars": {"raw": "AQ="}})", "expected base64"},
    {R"({"scalars": {"raw": "AR=="}})", "expected base64"},
    {R"({"scalars": {"raw": 3}})", "expected a string (base64), got 3"},
    // Enums.
    {R"({"scalars": {"color": "red"}})",
     "field 'scalars.color': no value \"red\" in enum graphport.test.Color"},
    {R"({"scalars": {"color": "7"}})", "no value \"7\" in enum"},
    {R"({"scalars": {"color": 1.5}})", "expected a value of enum graphport.test.Color"},
    {R"({"scalars": {"color": true}})", "expected a value of enum graphport.test.Color"},
    {R"({"scalars": {"color": 2147483648}})", "expected a value of enum"},
    // Messages, lists, maps.
    {R"({"scalars": []})", "field 'scalars': expected a JSON object for graphport.test.Scalars"},
    {R"({"scalars": "x"})", "expected a JSON object for graphport.test.Scalars, got \"x\""},
    {R"({"intList": 5})", "field 'int_list': expected a JSON array, got 5"},
    {R"({"intList": [[1]]})", "field 'int_list[0]': expected an int32"},
    {R"({"intList": [1, null, 3]})", "field 'int_list[1]': null is not allowed in a list"},
    {R"({"scalarsList": [{}, null]})", "field 'scalars_list[1]': null is not allowed"},
    {R"({"strList": ["a", 1]})", "field 'str_list[1]': expected a string, got 1"},
    {R"({"colorList": ["RED", 2, "nope"]})", "field 'color_list[2]': no value \"nope\""},
    {R"({"scalarsList": [{"i32": "x"}]})", "field 'scalars_list[0].i32': expected an int32"},
    {R"({"strMap": []})", "field 'str_map': expected a JSON object (a map), got []"},
    {R"({"strMap": {"a": null}})", "field 'str_map[\"a\"]': null is not allowed as a map value"},
    {R"({"intMap": {"x": "a"}})", "field 'int_map[\"x\"]': map key: expected an int32 in decimal"},
    {R"({"intMap": {"1.0": "a"}})", "map key: expected an int32"},
    {R"({"intMap": {"2147483648": "a"}})", "map key: \"2147483648\" is out of range for int32"},
    {R"({"uintMap": {"-1": 3}})", "map key: \"-1\" is out of range for uint32"},
    {R"({"boolMap": {"True": "a"}})", "map key: expected a bool (true or false), got \"True\""},
    {R"({"longMap": {"5": {"i32": "x"}}})", "field 'long_map[\"5\"].i32': expected an int32"},
    {R"({"childMap": {"k": {"scalarsList": [{}, {"flag": 0}]}}})",
     "field 'child_map[\"k\"].scalars_list[1].flag': expected a bool"},
    // Wrappers.
    {R"({"int32Wrapper": "x"})", "field 'int32_wrapper': expected an int32"},
    {R"({"wrapperList": [1, null]})", "field 'wrapper_list[1]': null is not allowed in a list"},
    {R"({"boolWrapper": {"value": 1}})", "field 'bool_wrapper.value': expected a bool"},
    // Any.
    {R"({"any": {"i32": 5}})", "field 'any': a google.protobuf.Any needs \"@type\""},
    {R"({"any": {"@type": 5}})", "\"@type\" must be a string, got 5"},
    {R"({"any": {"@type": "graphport.test.Scalars"}})", "\"@type\" must be a type URL"},
    {R"({"any": {"@type": "type.googleapis.com/"}})", "\"@type\" must be a type URL"},
    {R"({"any": {"@type": "type.googleapis.com/graphport.test.Nope"}})",
     "field 'any': \"@type\" names an unknown message type 'graphport.test.Nope'"},
    {R"({"any": {"@type": "type.googleapis.com/graphport.test.Scalars", "nope": 1}})",
     "field 'any.nope': no such field in graphport.test.Scalars"},
    {R"({"any": {"@type": "type.googleapis.com/graphport.test.Scalars", "value": {"i32": 5}}})",
     "field 'any.value': no such field in graphport.test.Scalars"},
    {R"({"any": {"@type": "type.googleapis.com/google.protobuf.Int32Value", "i32": 5}})",
     "field 'any.i32': no such field in an Any holding google.protobuf.Int32Value"},
    {R"({"any": {"@type": "type.googleapis.com/google.protobuf.Int32Value", "value": "x"}})",
     "field 'any.value': expected an int32"},
    {R"({"anyList": [{}, {"@type": "type.googleapis.com/graphport.test.Scalars", "i32": 1.5}]})",
     "field 'any_list[1].i32': expected an int32"},
    {R"({"any": 3})", "expected a JSON object with \"@type\" for google.protobuf.Any, got 3"},
    // The top level.
    {"[]", "input: expected a JSON object for graphport.test.Everything, got []"},
    {"null", "input: expected a JSON object"},
};

TEST(ProtoJsonTest, RefusesWithThePath) {
  for (const Refused& c : kRefused) {
    SCOPED_TRACE(c.json);
    ErrorCode code = ErrorCode::kInternal;
    std::string error = ErrorFor(c.json, &code);
    EXPECT_NE(error.find(c.error), std::string::npos) << "got: " << error;
    EXPECT_EQ(code, ErrorCode::kParseError);
  }
}

TEST(ProtoJsonTest, ErrorsCarryTheCallersCode) {
  Everything message;
  try {
    proto::JsonToMessage(json::parse(R"({"nope": 1})"), &message, "option 'x'",
                         ErrorCode::kInvalidOption);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidOption);
    EXPECT_STREQ(e.what(), "option 'x': field 'nope': no such field in graphport.test.Everything");
  }
}

// Well-known types with JSON forms of their own (the test schema imports them; graphport's
// never do): inside an Any or as a field they are refused as unsupported rather than misread
// as plain objects.
TEST(ProtoJsonTest, OtherWellKnownTypesAreUnsupported) {
  for (const char* type : {"Duration", "Timestamp", "FieldMask", "Struct", "Value", "ListValue"}) {
    SCOPED_TRACE(type);
    const proto::MessageSchema* schema =
        graphport::test::TestSchemas().Find(std::string("google.protobuf.") + type);
    ASSERT_NE(schema, nullptr);
    EXPECT_EQ(schema->well_known, proto::WellKnown::kUnsupported);
    std::string text = std::string(R"({"any": {"@type": "type.googleapis.com/google.protobuf.)") +
                       type + R"(", "value": "1s"}})";
    ErrorCode code = ErrorCode::kInternal;
    std::string error = ErrorFor(text, &code);
    EXPECT_NE(error.find("field 'any.value': google.protobuf." + std::string(type) +
                         " in JSON is not supported"),
              std::string::npos)
        << error;
    EXPECT_EQ(code, ErrorCode::kUnsupported);
  }
  for (const char* field :
       {"duration", "timestamp", "fieldMask", "structValue", "dynamicValue", "listValue"}) {
    SCOPED_TRACE(field);
    ErrorCode code = ErrorCode::kInternal;
    std::string error = ErrorFor(std::string(R"({")") + field + R"(": "1s"})", &code);
    EXPECT_NE(error.find("is not supported"), std::string::npos) << error;
    EXPECT_EQ(code, ErrorCode::kUnsupported);
  }
}

// The Any in TensorFlow's own schema, as MetaGraphDef.collection_def.any_list holds it.
TEST(ProtoJsonTest, TensorflowAnyList) {
  const ReferencePool& reference = ReferencePool::Tf();
  DynamicMessage meta = reference.New("tensorflow.MetaGraphDef");
  ASSERT_TRUE(pb::TextFormat::ParseFromString(R"(
      collection_def {
        key: "savers"
        value { any_list { value {
          [type.googleapis.com/tensorflow.SaverDef] {
            filename_tensor_name: "save/Const:0" version: V2 } } } } })",
                                              meta.get()));
  std::string text;
  ASSERT_TRUE(util::MessageToJsonString(*meta, &text).ok());
  tensorflow::MetaGraphDef read;
  proto::JsonToMessage(json::parse(text), &read, "meta");
  EXPECT_TRUE(testing::MessagesEqual(
      *meta, *reference.New("tensorflow.MetaGraphDef", read.SerializeAsString())));
  const auto& any = read.collection_def().at("savers").any_list().value(0);
  EXPECT_EQ(any.type_url(), "type.googleapis.com/tensorflow.SaverDef");
  tensorflow::SaverDef unpacked;
  ASSERT_TRUE(unpacked.ParseFromString(any.value()));
  EXPECT_EQ(unpacked.filename_tensor_name(), "save/Const:0");
  EXPECT_EQ(unpacked.version(), tensorflow::SaverDef::V2);
}

}  // namespace
}  // namespace graphport::tf

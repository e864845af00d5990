// The wire bytes proto::JsonToWire makes, against libprotobuf's deterministic serialisation
// of the same message (every scalar type, packed and unpacked lists, maps in key order, Any
// values, proto2), and a few by hand; and what proto2 and proto3 differ on: a proto3 string
// must be UTF-8, a proto2 enum is closed.
#include <gtest/gtest.h>

#include <string>

#include "proto/deterministic_bytes.h"
#include "proto/proto_json.h"
#include "proto_json_legacy.pb.h"
#include "proto_json_test_util.h"
#include "test_util.h"

namespace graphport::tf {
namespace {

using graphport::test::Everything;
using nlohmann::json;
using testing::CanonicalAnys;
using testing::DynamicMessage;
using testing::ErrorFor;
using testing::FromText;
using testing::kEverything;
using testing::ReferencePool;

// --- (e) The wire bytes made ------------------------------------------------------------

struct WireCase {
  const char* json;
  const char* expected;  // text format of the message, whose deterministic bytes are wanted
  const char* type;
};

constexpr char kLegacy[] = "graphport.test.Legacy";

constexpr WireCase kWireCases[] = {
    // Every scalar type, at its extremes and below zero.
    {R"({"scalars": {"i32": -1, "i64": "-1", "u32": 4294967295, "u64": "18446744073709551615",
                     "s32": -2147483648, "s64": "-9223372036854775808", "f32": 4294967295,
                     "f64": "18446744073709551615", "sf32": -2147483648,
                     "sf64": "-9223372036854775808", "flt": -1.5, "dbl": 2.5e-300, "flag": true,
                     "str": "s\u00e9", "raw": "AAE=", "color": "GREEN", "optI32": -7}})",
     R"(scalars { i32: -1 i64: -1 u32: 4294967295 u64: 18446744073709551615 s32: -2147483648
                  s64: -9223372036854775808 f32: 4294967295 f64: 18446744073709551615
                  sf32: -2147483648 sf64: -9223372036854775808 flt: -1.5 dbl: 2.5e-300
                  flag: true str: "s\303\251" raw: "\000\001" color: GREEN opt_i32: -7 })",
     kEverything},
    {R"({"scalars": {"i32": 2147483647, "s32": 2147483647, "s64": "9223372036854775807",
                     "sf32": 1, "sf64": "1", "color": -5, "flt": 3.4028235e38}})",
     R"(scalars { i32: 2147483647 s32: 2147483647 s64: 9223372036854775807 sf32: 1 sf64: 1
                  color: -5 flt: 3.40282347e+38 })",
     kEverything},
    // Zeros: a field without presence leaves its default out, a float's by its bits (-0.0 is
    // written); proto3 optional and a oneof member keep theirs.
    {R"({"scalars": {"i32": 0, "i64": "0", "u64": 0, "flt": 0, "dbl": -0.0, "flag": false,
                     "str": "", "raw": "", "color": "COLOR_UNSPECIFIED", "optI32": 0}})",
     "scalars { dbl: -0 opt_i32: 0 }", kEverything},
    {R"({"choiceStr": ""})", R"(choice_str: "")", kEverything},
    {R"({"choiceMsg": {}})", "choice_msg { }", kEverything},
    {R"({"choiceMsg": {"i32": 3}, "choiceInt": null})", "choice_msg { i32: 3 }", kEverything},
    // Repeated fields of every type, packed (proto3's default) and not; fields out of number
    // order in the JSON come out in number order.
    {R"({"lists": {"unpackedColor": ["GREEN", 9], "i32": [1, -1], "i64": ["-2", 3],
                   "u32": [4294967295, 0], "u64": ["18446744073709551615"], "s32": [-1, 1],
                   "s64": ["-3"], "f32": [7], "f64": ["8"], "sf32": [-9], "sf64": ["-10"],
                   "flt": [1.5, "-Infinity", -0.0], "dbl": [0, 1e-300], "flag": [true, false],
                   "str": ["a", ""], "raw": ["AQ==", ""], "color": ["RED", 5, 0],
                   "unpackedI32": [-1, 0, 1], "unpackedS64": ["-5"], "unpackedF64": ["6"],
                   "unpackedFlt": [0.5]}, "scalars": {"i32": 1}})",
     R"(scalars { i32: 1 }
        lists { i32: [1, -1] i64: [-2, 3] u32: [4294967295, 0] u64: 18446744073709551615
                s32: [-1, 1] s64: -3 f32: 7 f64: 8 sf32: -9 sf64: -10 flt: [1.5, -inf, -0]
                dbl: [0, 1e-300] flag: [true, false] str: ["a", ""] raw: ["\001", ""]
                color: [RED, 5, COLOR_UNSPECIFIED] unpacked_i32: [-1, 0, 1] unpacked_s64: -5
                unpacked_f64: 6 unpacked_flt: 0.5 unpacked_color: [GREEN, 9] })",
     kEverything},
    {R"({"lists": {"i32": [], "str": []}})", "lists { }", kEverything},
    // Maps with each key type, in key order whatever order the JSON has them in; both key and
    // value written, defaults included.
    {R"({"u64Map": {"18446744073709551615": "AQ==", "2": ""},
         "sintMap": {"-1": 1.5, "10": 0, "-10": -2},
         "sint64Map": {"-9223372036854775808": 1, "9": 0},
         "fixed32Map": {"4294967295": true, "0": false},
         "sfixedMap": {"-2147483648": "5", "2": "-1"},
         "sfixed64Map": {"-1": "18446744073709551615", "1": "0"},
         "intMap": {"10": "x", "9": "y", "-1": "z"},
         "longMap": {"2": {}, "10": {"i32": 1}, "-3": {"str": ""}},
         "uintMap": {"7": 0, "10": 1},
         "boolMap": {"true": "t", "false": ""},
         "fixedMap": {"10": 0, "9": "RED"},
         "strMap": {"b": "", "a": "x", "\u00e9": "y"},
         "childMap": {"k": {}}})",
     R"(str_map { key: "a" value: "x" } str_map { key: "b" value: "" }
        str_map { key: "\303\251" value: "y" }
        int_map { key: -1 value: "z" } int_map { key: 9 value: "y" } int_map { key: 10 value: "x" }
        long_map { key: -3 value { } } long_map { key: 2 value { } }
        long_map { key: 10 value { i32: 1 } }
        uint_map { key: 7 value: 0 } uint_map { key: 10 value: 1 }
        bool_map { key: false value: "" } bool_map { key: true value: "t" }
        fixed_map { key: 9 value: RED } fixed_map { key: 10 value: COLOR_UNSPECIFIED }
        child_map { key: "k" value { } }
        u64_map { key: 2 value: "" } u64_map { key: 18446744073709551615 value: "\001" }
        sint_map { key: -10 value: -2 } sint_map { key: -1 value: 1.5 } sint_map { key: 10 value: 0 }
        sint64_map { key: -9223372036854775808 value: 1 } sint64_map { key: 9 value: 0 }
        fixed32_map { key: 0 value: false } fixed32_map { key: 4294967295 value: true }
        sfixed_map { key: -2147483648 value: 5 } sfixed_map { key: 2 value: -1 }
        sfixed64_map { key: -1 value: 18446744073709551615 } sfixed64_map { key: 1 value: 0 })",
     kEverything},
    // One integer key spelled three ways: one entry, the value of the last spelling (in the
    // JSON object's order: "+1", "01", "1").
    {R"({"intMap": {"1": "a", "01": "b", "+1": "c"}})", R"(int_map { key: 1 value: "a" })",
     kEverything},
    // An Any's value is the deterministic serialisation of the message it holds, Anys in it
    // included.
    {R"({"any": {"@type": "type.googleapis.com/graphport.test.Everything", "strList": ["x"],
                 "scalars": {"i32": 1}, "intMap": {"10": "a", "9": "b"},
                 "any": {"@type": "type.googleapis.com/google.protobuf.Any",
                         "value": {"@type": "type.googleapis.com/graphport.test.Scalars",
                                   "str": "deep", "i32": 2}}}})",
     R"(any { [type.googleapis.com/graphport.test.Everything] {
          scalars { i32: 1 } str_list: "x" int_map { key: 9 value: "b" }
          int_map { key: 10 value: "a" }
          any { [type.googleapis.com/google.protobuf.Any] {
                  [type.googleapis.com/graphport.test.Scalars] { i32: 2 str: "deep" } } } } })",
     kEverything},
    {R"({"anyList": [{"@type": "type.googleapis.com/google.protobuf.Int32Value", "value": 0},
                     {"@type": "type.googleapis.com/graphport.test.Scalars", "i32": 0}]})",
     R"(any_list { type_url: "type.googleapis.com/google.protobuf.Int32Value" }
        any_list { type_url: "type.googleapis.com/graphport.test.Scalars" })",
     kEverything},
    // proto2: every singular field has presence, so defaults are written; repeated numbers are
    // unpacked unless the field says packed; closed enums by name or number.
    {R"({"i32": 0, "str": "", "closed": "CLOSED_ZERO", "flt": -0.0, "flag": false})",
     R"(i32: 0 str: "" closed: CLOSED_ZERO flt: -0 flag: false)", kLegacy},
    {R"({"closedList": ["CLOSED_FIVE", 1], "closedPacked": [5, "CLOSED_ONE"], "longs": ["-1", 2],
         "closedMap": {"b": 0, "a": "CLOSED_FIVE"}, "child": {"child": {}}})",
     R"(closed_list: [CLOSED_FIVE, CLOSED_ONE] closed_packed: [CLOSED_FIVE, CLOSED_ONE]
        closed_map { key: "a" value: CLOSED_FIVE } closed_map { key: "b" value: CLOSED_ZERO }
        child { child { } } longs: [-1, 2])",
     kLegacy},
};

TEST(ProtoJsonTest, WireBytesAreTheDeterministicSerialisation) {
  const ReferencePool& reference = ReferencePool::Test();
  for (const WireCase& c : kWireCases) {
    SCOPED_TRACE(c.json);
    DynamicMessage expected = FromText(c.expected, c.type);
    // Text format packs an Any's message with a plain serialisation (maps in hash order).
    CanonicalAnys(expected.get(), reference);
    const proto::MessageSchema& schema = *graphport::test::TestSchemas().Find(c.type);
    std::string wire;
    try {
      wire = proto::JsonToWire(json::parse(c.json), schema, "input");
    } catch (const Error& e) {
      ADD_FAILURE() << e.what();
      continue;
    }
    EXPECT_EQ(wire, proto::DeterministicBytes(*expected));
    DynamicMessage read = reference.New(c.type);
    proto::JsonToMessage(json::parse(c.json), read.get(), schema, "input");
    EXPECT_TRUE(testing::MessagesEqual(*expected, *read));
  }
}

// A few by hand: the encodings themselves, apart from libprotobuf's word for them.
TEST(ProtoJsonTest, WireBytesByHand) {
  auto wire = [](const char* text) {
    return proto::JsonToWire(json::parse(text), proto::SchemaOf<Everything>(), "input");
  };
  // int32 -1: ten bytes, sign-extended; sint32 -1: zigzag 1; sfixed32 -2: four bytes.
  EXPECT_EQ(wire(R"({"scalars": {"i32": -1}})"),
            std::string("\x0a\x0b\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 13));
  EXPECT_EQ(wire(R"({"scalars": {"s32": -1}})"), std::string("\x0a\x02\x28\x01", 4));
  EXPECT_EQ(wire(R"({"scalars": {"sf32": -2}})"), std::string("\x0a\x05\x4d\xfe\xff\xff\xff", 7));
  // A float: its four bytes, little-endian.
  EXPECT_EQ(wire(R"({"scalars": {"flt": 1}})"), std::string("\x0a\x05\x5d\x00\x00\x80\x3f", 7));
  // Packed: one record; unpacked: one per value.
  EXPECT_EQ(wire(R"({"intList": [1, 300]})"), std::string("\x1a\x03\x01\xac\x02", 5));
  EXPECT_EQ(wire(R"({"lists": {"unpackedI32": [1, 2]}})"),
            std::string("\x92\x02\x06\x88\x01\x01\x88\x01\x02", 9));
  // A payload of 128 bytes or more takes a two-byte length.
  const std::string long_text(200, 'x');
  EXPECT_EQ(wire((R"({"snakeCaseName": ")" + long_text + R"("})").c_str()),
            std::string("\x82\x02\xc8\x01", 4) + long_text);
}

// A proto3 string must be UTF-8 (libprotobuf-lite refuses it otherwise); a proto2 one need
// not be. Only a JSON value built in memory can hold such a string: nlohmann's parser refuses
// it.
TEST(ProtoJsonTest, Proto3StringsMustBeUtf8) {
  const std::string bad = "a\xff";
  auto error_for = [](const json& value) {
    Everything message;
    try {
      proto::JsonToMessage(value, &message, "input");
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kParseError);
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error_for(json{{"snakeCaseName", bad}})
                .find("field 'snake_case_name': a string "
                      "that is not UTF-8"),
            std::string::npos);
  EXPECT_NE(error_for(json{{"strList", {"ok", bad}}}).find("field 'str_list[1]': a string that"),
            std::string::npos);
  EXPECT_NE(error_for(json{{"strMap", {{bad, "v"}}}}).find("not UTF-8"), std::string::npos);
  EXPECT_NE(
      error_for(json{{"any", {{"@type", "type.googleapis.com" + bad + "/graphport.test.Scalars"}}}})
          .find("field 'any': a string that is not UTF-8"),
      std::string::npos);
  EXPECT_EQ(error_for(json{{"rawList", {"/w=="}}}), "");  // bytes are bytes
  graphport::test::Legacy legacy;
  proto::JsonToMessage(json{{"str", bad}}, &legacy, "input");
  EXPECT_EQ(legacy.str(), bad);
}

struct LegacyRefused {
  const char* json;
  const char* error;
};

// A proto2 message's enum fields are closed: a number its enum lacks is refused.
TEST(ProtoJsonTest, ClosedEnumsTakeOnlyTheirNumbers) {
  constexpr LegacyRefused kRefusedLegacy[] = {
      {R"({"closed": 7})", "field 'closed': no value 7 in enum graphport.test.Closed"},
      {R"({"closedList": [1, 2]})", "field 'closed_list[1]': no value 2 in enum"},
      {R"({"closedPacked": [-1]})", "no value -1 in enum graphport.test.Closed"},
      {R"({"closedMap": {"a": 3}})", "field 'closed_map[\"a\"]': no value 3 in enum"},
      {R"({"closed": "RED"})", "no value \"RED\" in enum graphport.test.Closed"},
  };
  for (const LegacyRefused& c : kRefusedLegacy) {
    SCOPED_TRACE(c.json);
    ErrorCode code = ErrorCode::kInternal;
    std::string error = ErrorFor(c.json, &code, kLegacy);
    EXPECT_NE(error.find(c.error), std::string::npos) << error;
    EXPECT_EQ(code, ErrorCode::kParseError);
  }
}

}  // namespace
}  // namespace graphport::tf

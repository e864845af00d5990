// tfjs::MessageToJson, which reads a message's deterministic serialisation with its schema
// tables, against the reflection-based writer it replaced (proto_to_json_test_util.h): the
// same OrderedJson, member for member and kind for kind, for every field kind, for unknown
// fields and closed enums, for map entries missing their key or value, and at the nesting
// limit. The corpus and the TF.js models are in proto_to_json_graphs_test.cc.
#include "tfjs/proto_to_json.h"

#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/limits.h"
#include "graphport_test/schemas.h"
#include "proto/deterministic_bytes.h"
#include "proto_json_legacy.pb.h"
#include "proto_json_test.pb.h"
#include "proto_to_json_test_util.h"
#include "reference_pool.h"

namespace graphport::tfjs {
namespace {

namespace pb = google::protobuf;
using testing::ReferencePool;
using testing::SameAsReflection;
using testing::SameJson;
using DynamicMessage = std::unique_ptr<pb::Message>;

// --- Every field kind ------------------------------------------------------------------------

// A message of the test schemas from text format and extra wire bytes after it (unknown
// fields, records a parser merges), as the generated class parses them.
template <typename Message>
Message Parsed(const std::string& text, const std::string& extra = "") {
  DynamicMessage dynamic =
      ReferencePool::Test().New(std::string(proto::SchemaOf<Message>().full_name));
  EXPECT_TRUE(pb::TextFormat::ParseFromString(text, dynamic.get())) << text;
  Message message;
  EXPECT_TRUE(message.ParseFromString(dynamic->SerializeAsString() + extra));
  return message;
}

constexpr const char* kEverythingCases[] = {
    "",
    // Scalars at their extremes, below zero, and the floating point values that print apart.
    R"(scalars { i32: -2147483648 i64: -9223372036854775808 u32: 4294967295
                 u64: 18446744073709551615 s32: -1 s64: -9223372036854775808 f32: 4294967295
                 f64: 18446744073709551615 sf32: -2147483648 sf64: -1 flt: 0.1 dbl: 0.1
                 flag: true str: "h\303\251 \"q\" \\ \n" raw: "\000\377\001" color: GREEN
                 opt_i32: 0 })",
    R"(scalars { i32: 2147483647 i64: 9223372036854775807 s32: 2147483647 s64: 1 sf32: 5
                 sf64: 9223372036854775807 flt: 3.40282347e+38 dbl: 1.7976931348623157e308
                 color: 7 })",
    "scalars { flt: -0 dbl: -0 }",
    "scalars { flt: nan dbl: nan }",
    "scalars { flt: inf dbl: -inf }",
    "scalars { flt: 1e-45 dbl: 5e-324 }",
    "scalars { flt: 16777216 dbl: 9007199254740993 }",
    "scalars { color: -3 }",
    // Presence: an empty message, proto3 optional at zero, oneof members at their defaults.
    "scalars { }",
    "scalars { opt_i32: 0 }",
    "choice_int: 0",
    R"(choice_str: "")",
    "choice_msg { }",
    // Repeated fields of every type, packed and not.
    R"(lists { i32: [1, -1, 0] i64: [-2, 3] u32: [4294967295, 0] u64: [18446744073709551615]
               s32: [-1, 1] s64: [-3] f32: [7] f64: [8] sf32: [-9] sf64: [-10]
               flt: [1.5, -inf, -0, nan, 0.3] dbl: [0, 1e-300, nan] flag: [true, false]
               str: ["a", ""] raw: ["\001", ""] color: [RED, 5, COLOR_UNSPECIFIED, -1]
               unpacked_i32: [-1, 0, 1] unpacked_s64: [-5] unpacked_f64: [6]
               unpacked_flt: [0.5, 0] unpacked_color: [GREEN, 9] })",
    R"(scalars_list { } scalars_list { i32: 1 } str_list: ["x", "y"] raw_list: "\377"
       color_list: [RED, 9] dbl_list: [1, -1] int_list: [0, 0] long_list: [0])",
    // Maps of every key type, given out of order (integer keys whose text sorts otherwise).
    R"(str_map { key: "b" value: "" } str_map { key: "a" value: "x" }
       str_map { key: "\303\251" value: "y" } str_map { key: "" value: "e" }
       str_map { key: "A" value: "upper" }
       int_map { key: 10 value: "x" } int_map { key: 9 value: "y" } int_map { key: -1 value: "z" }
       int_map { key: -2 value: "w" } int_map { key: 0 value: "" }
       long_map { key: -3 value { } } long_map { key: 2 value { str: "s" } }
       long_map { key: 10 value { i32: 1 } } long_map { key: -9223372036854775808 value { } }
       uint_map { key: 7 value: 0 } uint_map { key: 10 value: -1 }
       bool_map { key: true value: "t" } bool_map { key: false value: "" }
       fixed_map { key: 10 value: COLOR_UNSPECIFIED } fixed_map { key: 9 value: RED }
       fixed_map { key: 18446744073709551615 value: 42 }
       child_map { key: "k" value { } } child_map { key: "j" value { int_map { key: 3 value: "" } } }
       u64_map { key: 18446744073709551615 value: "\001" } u64_map { key: 2 value: "" }
       sint_map { key: -1 value: 1.5 } sint_map { key: 10 value: 0 } sint_map { key: -10 value: nan }
       sint64_map { key: -9223372036854775808 value: 1 } sint64_map { key: 9 value: -0 }
       fixed32_map { key: 4294967295 value: true } fixed32_map { key: 0 value: false }
       sfixed_map { key: -2147483648 value: 5 } sfixed_map { key: 2 value: -1 }
       sfixed64_map { key: -1 value: 18446744073709551615 } sfixed64_map { key: 1 value: 0 })",
    // Anys are a type URL and bytes; wrappers are messages with a field `value`.
    R"(any { [type.googleapis.com/graphport.test.Scalars] { i32: 5 } }
       any_list { type_url: "x/y" value: "\377" } any_list { }
       int32_wrapper { value: 5 } bool_wrapper { } float_wrapper { value: 0.1 }
       bytes_wrapper { value: "\001" } wrapper_list { } wrapper_list { value: -1 })",
    R"(duration { seconds: 1 nanos: 5 } timestamp { seconds: -1 }
       field_mask { paths: ["a.b", "c"] }
       struct_value { fields { key: "k" value { number_value: 1 } } }
       dynamic_value { list_value { values { string_value: "s" } values { bool_value: true } } })",
    // Nesting, and the JSON name against the .proto name.
    R"(child { child { child { snake_case_name: "deep" field_2x: 3 } } })",
};

TEST(MessageToJsonTest, EveryFieldKindAsReflectionWritesIt) {
  const proto::MessageSchema& schema = proto::SchemaOf<graphport::test::Everything>();
  for (const char* text : kEverythingCases) {
    SCOPED_TRACE(text);
    auto message = Parsed<graphport::test::Everything>(text);
    EXPECT_TRUE(SameAsReflection(message, schema, ReferencePool::Test()));
    // The template, and a DynamicMessage (serialised by reflection) as the MessageLite.
    DynamicMessage dynamic =
        ReferencePool::Test().New(std::string(schema.full_name), message.SerializeAsString());
    EXPECT_TRUE(SameJson(MessageToJson(message), MessageToJson(*dynamic, schema)));
  }
}

TEST(MessageToJsonTest, TheOutputByHand) {
  auto message = Parsed<graphport::test::Everything>(R"(
      scalars { i64: -5 flt: 0.1 raw: "\001\002" color: GREEN }
      int_map { key: 10 value: "a" } int_map { key: 9 value: "b" }
      lists { flt: [0.3, nan] color: [7] })");
  std::string text;
  ASSERT_TRUE(MessageToJson(message).Dump(&text));
  EXPECT_EQ(text, R"({"scalars":{"i64":"-5","flt":0.1,"raw":"AQI=","color":"GREEN"},)"
                  R"("intMap":{"10":"a","9":"b"},"lists":{"flt":[0.3,"NaN"],"color":[7]}})");
}

std::string Varint(uint64_t value) {
  std::string out;
  do {
    out.push_back(static_cast<char>((value & 0x7f) | (value >= 0x80 ? 0x80 : 0)));
    value >>= 7;
  } while (value != 0);
  return out;
}

// A record of field `number` with wire type `wire_type` and `payload` (a varint's value is
// given as its bytes, a fixed width's as its little-endian bytes).
std::string Record(int number, int wire_type, const std::string& payload) {
  std::string out = Varint((static_cast<uint64_t>(number) << 3) | static_cast<uint64_t>(wire_type));
  if (wire_type == 2) out += Varint(payload.size());
  return out + payload;
}

// Fields the schema does not know, groups among them, and known numbers with another wire
// type: libprotobuf keeps them all as unknown fields, which reflection does not list.
TEST(MessageToJsonTest, UnknownFieldsAreLeftOut) {
  const std::string unknown =
      Record(999, 0, "\x05") + Record(1000, 2, "abc") + Record(1001, 5, "\x01\x02\x03\x04") +
      Record(1002, 1, std::string(8, '\x07')) +
      // A group holding a nested group and a record of each kind.
      Record(1003, 3, "") + Record(1, 0, "\x01") + Record(2, 3, "") + Record(3, 2, "x") +
      Record(2, 4, "") + Record(4, 1, std::string(8, '\0')) + Record(1003, 4, "") +
      // Known numbers, other wire types: snake_case_name (a string) as a varint, scalars (a
      // message) as fixed32, int_list (packable int32) as fixed64.
      Record(32, 0, "\x01") + Record(1, 5, std::string(4, '\0')) +
      Record(3, 1, std::string(8, '\1'));
  auto message = Parsed<graphport::test::Everything>(
      R"(snake_case_name: "s" scalars { i32: 1 } int_list: [1, 2])", unknown);
  ASSERT_GT(message.ByteSizeLong(), 20u);
  EXPECT_TRUE(SameAsReflection(message, proto::SchemaOf<graphport::test::Everything>(),
                               ReferencePool::Test()));
  std::string text;
  ASSERT_TRUE(MessageToJson(message).Dump(&text));
  EXPECT_EQ(text, R"({"scalars":{"i32":1},"intList":[1,2],"snakeCaseName":"s"})");
  // In a message nested in another, and in a map's value.
  auto outer = Parsed<graphport::test::Everything>(R"(str_list: "x")",
                                                   Record(31, 2, message.SerializeAsString()));
  EXPECT_TRUE(SameAsReflection(outer, proto::SchemaOf<graphport::test::Everything>(),
                               ReferencePool::Test()));
}

// proto2: explicit presence on every singular field, repeated numbers unpacked unless asked,
// and closed enums, whose unknown numbers (in a field, a list, a packed list) are unknown
// fields that neither writer lists.
TEST(MessageToJsonTest, Proto2AndClosedEnums) {
  const std::string unknown_numbers = Record(3, 0, "\x07") + Record(4, 0, "\x09") +
                                      Record(5, 2, "\x05\x08\x01") +
                                      Record(6, 2, Record(1, 2, "c") + Record(2, 0, "\x01"));
  const char* cases[] = {
      "",
      R"(i32: 0 str: "" closed: CLOSED_ZERO flt: -0 flag: false)",
      R"(i32: -1 closed: CLOSED_FIVE closed_list: [CLOSED_ONE, CLOSED_ZERO]
         closed_packed: [CLOSED_FIVE] closed_map { key: "a" value: CLOSED_ONE }
         closed_map { key: "" value: CLOSED_ZERO } longs: [-1, 0, 9223372036854775807]
         child { child { str: "s" } })",
  };
  for (const char* text : cases) {
    SCOPED_TRACE(text);
    for (const std::string& extra : {std::string(), unknown_numbers}) {
      auto message = Parsed<graphport::test::Legacy>(text, extra);
      EXPECT_TRUE(SameAsReflection(message, proto::SchemaOf<graphport::test::Legacy>(),
                                   ReferencePool::Test()));
    }
  }
  // The unknown numbers alone: a field or list that only they would fill is not written. A map
  // entry whose value the enum lacks is an unknown field of the message as a whole (a
  // DynamicMessage keeps such an entry with the default value instead, so this is checked by
  // hand).
  const std::string unknown_entry = Record(6, 2, Record(1, 2, "b") + Record(2, 0, "\x09"));
  auto only_unknown = Parsed<graphport::test::Legacy>("", unknown_numbers + unknown_entry);
  EXPECT_NE(only_unknown.SerializeAsString().find(unknown_entry), std::string::npos);
  std::string text;
  ASSERT_TRUE(MessageToJson(only_unknown).Dump(&text));
  EXPECT_EQ(text,
            R"({"closedPacked":["CLOSED_FIVE","CLOSED_ONE"],"closedMap":{"c":"CLOSED_ONE"}})");
}

// A map entry the input wrote without its key or value: the parser gives it the default.
TEST(MessageToJsonTest, MapEntriesMissingKeyOrValue) {
  const std::string entries =
      Record(9, 2, Record(2, 2, "v")) +                                    // str_map, no key
      Record(11, 2, Record(1, 0, "\x05")) +                                // long_map, no value
      Record(14, 2, Record(1, 1, std::string("\x02\0\0\0\0\0\0\0", 8))) +  // fixed_map, no value
      Record(10, 2, "") + Record(10, 2, Record(1, 0, "\x03"));             // int_map, empty entries
  auto message = Parsed<graphport::test::Everything>("", entries);
  EXPECT_TRUE(SameAsReflection(message, proto::SchemaOf<graphport::test::Everything>(),
                               ReferencePool::Test()));
  std::string text;
  ASSERT_TRUE(MessageToJson(message).Dump(&text));
  EXPECT_EQ(text, R"({"strMap":{"":"v"},"intMap":{"0":"","3":""},"longMap":{"5":{}},)"
                  R"("fixedMap":{"2":"COLOR_UNSPECIFIED"}})");
}

// Strings are copied as they are when nothing in them needs escaping, which is decided eight
// bytes at a time: each byte that does (or is not ASCII) at each place of strings of every
// length around a word's, against OrderedJson's own escaping.
TEST(MessageToJsonTest, EveryByteAtEveryPlaceOfAString) {
  std::vector<std::string> specials;
  for (int byte = 0; byte < 0x80; ++byte)
    specials.push_back(std::string(1, static_cast<char>(byte)));
  specials.push_back("\xc3\xa9");      // é, two bytes
  specials.push_back("\xe2\x82\xac");  // €, three
  specials.push_back("\xff");          // not UTF-8
  specials.push_back("\xc3");          // a lead byte alone
  int compared = 0;
  for (size_t length = 0; length <= 20; ++length) {
    for (size_t at = 0; at < std::max<size_t>(length, 1); ++at) {
      for (const std::string& special : specials) {
        std::string value(length, 'a');
        if (length > 0) value.replace(at, 1, special);
        graphport::test::Everything message;
        message.set_snake_case_name(value);
        std::string expected = R"({"snakeCaseName":)";
        const bool utf8 = OrderedJson(value).Dump(&expected);
        expected += "}";
        std::string printed;
        const bool printed_ok =
            AppendMessageJson(proto::DeterministicBytes(message),
                              proto::SchemaOf<graphport::test::Everything>(), &printed);
        ASSERT_EQ(printed_ok, utf8) << ::testing::PrintToString(value);
        if (utf8) {
          ASSERT_EQ(printed, length == 0 ? "{}" : expected) << ::testing::PrintToString(value);
        }
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 20000);
}

TEST(MessageToJsonTest, NestingAtTheLimit) {
  graphport::test::Everything at_limit;
  graphport::test::Everything* m = &at_limit;
  for (int i = 0; i < kMaxProtoNesting; ++i) m = m->mutable_child();
  m->set_snake_case_name("bottom");
  // 101 messages, the top one at depth 0: as deep as the reference writes.
  EXPECT_TRUE(SameAsReflection(at_limit, proto::SchemaOf<graphport::test::Everything>(),
                               ReferencePool::Test()));
  m->mutable_child()->set_field_2x(1);
  try {
    MessageToJson(at_limit);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kTooLarge);
    EXPECT_STREQ(e.what(), "messages nest more than 100 levels deep");
  }
}

}  // namespace
}  // namespace graphport::tfjs

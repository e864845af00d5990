// proto::TextToWire against libprotobuf's own text parser (TextFormat::Parser, default
// settings, recursion limit kMaxProtoNesting) on DynamicMessages of the same schemas: the
// same inputs are taken and give the same message; the same inputs are refused at the same
// line and column with the same message. Fed whole, a byte at a time, and in uneven chunks.
// The inputs: every text file of the corpus, the text libprotobuf prints for every binary one
// (in each of its styles), a battery of edge cases, and mutations of real text.
#include "proto/text_parse.h"

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <vector>

#include "proto/protobuf_log.h"
#include "reference_pool.h"
#include "tensorflow/graph.pb.h"
#include "tensorflow/schemas.h"
#include "test_util.h"
#include "text_test/schemas.h"

namespace graphport::proto {
namespace {

namespace pb = google::protobuf;
using testing::ReferencePool;

const ReferencePool& TestPool() {
  static const ReferencePool* pool = new ReferencePool(GRAPHPORT_TEXT_TEST_DESCRIPTOR_SET);
  return *pool;
}

constexpr char kEvery[] = "graphport.text_test.EveryField";
constexpr char kLegacy[] = "graphport.text_test.Legacy";

// `text` in chunks of the given sizes, cycled ({1}: a byte at a time); BackUp as the
// interface wants it.
class ChunkStream : public pb::io::ZeroCopyInputStream {
 public:
  ChunkStream(std::string_view text, std::vector<int> sizes)
      : text_(text), sizes_(std::move(sizes)) {}
  bool Next(const void** data, int* size) override {
    if (position_ >= text_.size()) return false;
    const size_t want = static_cast<size_t>(sizes_[calls_++ % sizes_.size()]);
    last_ = std::min(want, text_.size() - position_);
    *data = text_.data() + position_;
    *size = static_cast<int>(last_);
    position_ += last_;
    return true;
  }
  void BackUp(int count) override {
    EXPECT_LE(static_cast<size_t>(count), last_);
    position_ -= static_cast<size_t>(count);
    last_ = 0;
  }
  bool Skip(int count) override {
    position_ = std::min(text_.size(), position_ + static_cast<size_t>(count));
    return position_ < text_.size();
  }
  int64_t ByteCount() const override { return static_cast<int64_t>(position_); }

 private:
  std::string_view text_;
  std::vector<int> sizes_;
  size_t position_ = 0;
  size_t last_ = 0;
  size_t calls_ = 0;
};

struct Outcome {
  bool ok = false;
  int line = 0;  // 1-based
  int column = 0;
  std::string message;
  std::string bytes;      // when ok: the message, normalized
  bool bad_utf8 = false;  // when ok: it holds a proto3 string that is not UTF-8
};

std::ostream& operator<<(std::ostream& os, const Outcome& o) {
  if (o.ok) return os << "accepted (" << o.bytes.size() << " bytes)";
  return os << "refused at " << o.line << ":" << o.column << ": " << o.message;
}

class FirstError : public pb::io::ErrorCollector {
 public:
  void AddError(int line, int column, const std::string& message) override {
    if (seen_) return;
    seen_ = true;
    line_ = line;
    column_ = column;
    message_ = message;
  }
  bool seen_ = false;
  int line_ = 0;
  int column_ = 0;
  std::string message_;
};

// The value of every Any in deterministic form, recursively (map entries sorted), where it
// parses: what TensorFlow wrote in a binary file has its map entries in hash order, what
// libprotobuf's text parser writes has them in the text's order.
void SettleAnys(pb::Message* message) {
  const pb::Descriptor* type = message->GetDescriptor();
  const pb::Reflection* reflection = message->GetReflection();
  if (type->full_name() == "google.protobuf.Any") {
    const std::string url = reflection->GetString(*message, type->FindFieldByNumber(1));
    const pb::Descriptor* value_type =
        type->file()->pool()->FindMessageTypeByName(url.substr(url.rfind('/') + 1));
    if (value_type == nullptr) return;
    // One factory per pool for the whole run: a factory builds each type's layout once.
    static auto* factories =
        new std::map<const pb::DescriptorPool*, std::unique_ptr<pb::DynamicMessageFactory>>();
    std::unique_ptr<pb::DynamicMessageFactory>& factory = (*factories)[value_type->file()->pool()];
    if (factory == nullptr) factory = std::make_unique<pb::DynamicMessageFactory>();
    std::unique_ptr<pb::Message> value(factory->GetPrototype(value_type)->New());
    if (!value->ParseFromString(reflection->GetString(*message, type->FindFieldByNumber(2)))) {
      return;
    }
    SettleAnys(value.get());
    reflection->SetString(message, type->FindFieldByNumber(2), testing::DeterministicBytes(*value));
    return;
  }
  std::vector<const pb::FieldDescriptor*> fields;
  reflection->ListFields(*message, &fields);
  for (const pb::FieldDescriptor* field : fields) {
    if (field->cpp_type() != pb::FieldDescriptor::CPPTYPE_MESSAGE) continue;
    if (!field->is_repeated()) {
      SettleAnys(reflection->MutableMessage(message, field));
      continue;
    }
    for (int i = 0; i < reflection->FieldSize(*message, field); ++i) {
      SettleAnys(reflection->MutableRepeatedMessage(message, field, i));
    }
  }
}

// Deterministic bytes of what `message` parses back to (map entries sorted). An Any's value
// is compared as it is (libprotobuf's text parser writes its fields in number order and its
// map entries in the text's order), or, with `settle_anys`, in deterministic form too. Empty
// when it does not parse back: a proto3 string in it is not UTF-8.
std::optional<std::string> Normalized(const pb::Message& message, bool settle_anys = false) {
  std::unique_ptr<pb::Message> copy(message.New());
  if (!copy->ParseFromString(message.SerializePartialAsString())) return std::nullopt;
  if (settle_anys) SettleAnys(copy.get());
  return testing::DeterministicBytes(*copy);
}

// Whether libprotobuf logged a proto3 string that is not UTF-8 (its text parser takes one,
// then logs it when it serializes an Any's value or when the message is parsed back).
bool LoggedBadUtf8(const ProtobufLogCapture& log) {
  for (const std::string& error : log.errors()) {
    if (error.find("invalid UTF-8") != std::string::npos) return true;
  }
  return false;
}

const ReferencePool& PoolOf(const std::string& type) {
  return type.rfind("tensorflow.", 0) == 0 ? ReferencePool::Tf() : TestPool();
}
const SchemaSet& SetOf(const std::string& type) {
  return type.rfind("tensorflow.", 0) == 0 ? tf::TfSchemas() : testing::TextTestSchemas();
}

Outcome Reference(const std::string& type, std::string_view text) {
  std::unique_ptr<pb::Message> message = PoolOf(type).New(type);
  pb::TextFormat::Parser parser;
  FirstError errors;
  parser.RecordErrorsTo(&errors);
  parser.SetRecursionLimit(kMaxProtoNesting);
  pb::io::ArrayInputStream input(text.data(), static_cast<int>(text.size()));
  Outcome out;
  ProtobufLogCapture log;
  out.ok = parser.Parse(&input, message.get());
  if (out.ok) {
    out.bytes = Normalized(*message).value_or("");
    out.bad_utf8 = LoggedBadUtf8(log);
  } else {
    out.line = errors.line_ + 1;
    out.column = errors.column_ + 1;
    out.message = errors.message_;
  }
  return out;
}

Outcome Ours(const std::string& type, std::string_view text, std::vector<int> chunks = {},
             std::string* wire_out = nullptr) {
  const MessageSchema* schema = SetOf(type).Find(type);
  EXPECT_NE(schema, nullptr) << type;
  std::unique_ptr<pb::io::ZeroCopyInputStream> input;
  if (chunks.empty()) {
    input = std::make_unique<pb::io::ArrayInputStream>(text.data(), static_cast<int>(text.size()));
  } else {
    input = std::make_unique<ChunkStream>(text, chunks);
  }
  std::string wire = "left over";
  TextParseError error;
  Outcome out;
  out.ok = TextToWire(input.get(), *schema, &wire, &error);
  if (out.ok) {
    std::unique_ptr<pb::Message> message = PoolOf(type).New(type);
    EXPECT_TRUE(message->ParseFromString(wire)) << "the wire bytes do not parse";
    std::optional<std::string> bytes = Normalized(*message);
    EXPECT_TRUE(bytes.has_value()) << "a string is not UTF-8";
    out.bytes = bytes.value_or("");
    if (wire_out != nullptr) *wire_out = std::move(wire);
  } else {
    out.line = error.line;
    out.column = error.column;
    out.message = error.message;
  }
  return out;
}

::testing::AssertionResult Same(const Outcome& want, const Outcome& got) {
  if (want.ok != got.ok) {
    return ::testing::AssertionFailure() << "libprotobuf: " << want << "\n      ours: " << got;
  }
  if (want.ok && want.bytes != got.bytes) {
    return ::testing::AssertionFailure()
           << "both accepted, different messages (" << want.bytes.size() << " and "
           << got.bytes.size() << " bytes)";
  }
  if (!want.ok &&
      (want.line != got.line || want.column != got.column || want.message != got.message)) {
    return ::testing::AssertionFailure() << "libprotobuf: " << want << "\n      ours: " << got;
  }
  return ::testing::AssertionSuccess();
}

// Fed whole, a byte at a time and in uneven chunks, each the same as libprotobuf.
void ExpectLikeLibprotobuf(const std::string& type, std::string_view text) {
  const Outcome want = Reference(type, text);
  EXPECT_TRUE(Same(want, Ours(type, text))) << type << " <<" << text << ">>";
  EXPECT_TRUE(Same(want, Ours(type, text, {1})))
      << "byte by byte: " << type << " <<" << text << ">>";
  EXPECT_TRUE(Same(want, Ours(type, text, {3, 1, 7, 2, 64, 5})))
      << "in chunks: " << type << " <<" << text << ">>";
}

// --- The battery ------------------------------------------------------------------------------

struct Case {
  const char* type;
  std::string text;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.type << " <<" << c.text << ">>"; }

class TextParseBattery : public ::testing::TestWithParam<Case> {};

TEST_P(TextParseBattery, LikeLibprotobuf) {
  ExpectLikeLibprotobuf(GetParam().type, GetParam().text);
}

std::vector<Case> Cases(const char* type, std::vector<std::string> texts) {
  std::vector<Case> out;
  for (std::string& t : texts) out.push_back({type, std::move(t)});
  return out;
}

// Field syntax: separators, ':' before messages, both delimiters, lists, comments, unknown
// and reserved names, extensions.
INSTANTIATE_TEST_SUITE_P(
    Syntax, TextParseBattery,
    ::testing::ValuesIn(Cases(kEvery, {"",
                                       "   \n\t # only a comment\n",
                                       "# no newline at the end",
                                       "i32: 1",
                                       "i32:1",
                                       "i32 : 1",
                                       "i32: 1;",
                                       "i32: 1, i64: 2",
                                       "i32: 1; i64: 2;",
                                       "i32: 1,, i64: 2",
                                       "i32: 1 ;; i64: 2",
                                       "i32: 1 ,; i64: 2",
                                       "i32 1",
                                       "i32",
                                       "i32:",
                                       ": 1",
                                       "{}",
                                       "}",
                                       "child { i32: 1 }",
                                       "child: { i32: 1 }",
                                       "child < i32: 1 >",
                                       "child: < i32: 1 >",
                                       "child { i32: 1 >",
                                       "child < i32: 1 }",
                                       "child {",
                                       "child",
                                       "child i32: 1",
                                       "child {}\nchild {}",
                                       "children {} children {}",
                                       "child { child { child {} } }",
                                       "children: [{i32: 1}, <i32: 2>, {}]",
                                       "children: []",
                                       "children: [{}, ]",
                                       "children: [",
                                       "children: [{} {}]",
                                       "children [{}]",
                                       "r_i32: [1, 2, 3]",
                                       "r_i32: []",
                                       "r_i32: [1 2]",
                                       "r_i32: [1,]",
                                       "r_i32: [,]",
                                       "r_i32 [1]",
                                       "r_i32: 1 r_i32: 2 i32: 3 r_i32: 4",
                                       "r_i32: [1] r_i32: [2, 3] r_i64: 4 r_i32: 5",
                                       "i32: [1]",
                                       "child: [{}]",
                                       "r_str: ['a', \"b\" 'c']",
                                       "unpacked_i32: [1, -2] unpacked_db: 1.5 unpacked_i32: 3",
                                       "# c\ni32: 1 # trailing\n# more",
                                       "i32: 1 # no newline",
                                       "nosuch: 1",
                                       "nosuch { }",
                                       "i32: 1\nnosuch: 1",
                                       "Child { }",
                                       "I32: 1",
                                       "[ext.foo]: 1",
                                       "[ext.foo] { }",
                                       "[ext",
                                       "[ext.]: 1",
                                       "[1]: 1",
                                       "80: 1",
                                       "gone: 1",
                                       "gone { a: 1 b { c: \"x\" } d: [1, 2] }",
                                       "gone: [1, -2, {x: 1}, <y: 'z'>, [3]]",
                                       "gone: -inf",
                                       "gone: -Infinity",
                                       "gone: -nan",
                                       "gone: -foo",
                                       "gone: foo",
                                       "gone: \"a\" 'b'",
                                       "gone: -\"a\"",
                                       "gone: {",
                                       "gone",
                                       "old_name < [a.b/c.D]: 1 [e.f] {} >",
                                       "old_name { [a/] {} }",
                                       "gone: 1, i32: 2",
                                       "gone {}, i32: 2",
                                       "gone: 1 ; i32: 2",
                                       "gone { x: 1, y: 2; } i32: 3",
                                       "i32: 1 str: 'x' child { str: 'y' } i64: 2"})));

INSTANTIATE_TEST_SUITE_P(
    Integers, TextParseBattery,
    ::testing::ValuesIn(Cases(
        kEvery,
        {"i32: 2147483647",
         "i32: -2147483648",
         "i32: 2147483648",
         "i32: -2147483649",
         "i32: 0x7fffffff",
         "i32: -0x80000000",
         "i32: 0x80000000",
         "i32: 0X1F",
         "i32: 017",
         "i32: 08",
         "i32: 0",
         "i32: -0",
         "i32: 00",
         "i32: 1.0",
         "i32: 1e3",
         "i32: - 5",
         "i32: --5",
         "i32: +5",
         "i32: abc",
         "i32: 'a'",
         "i32: -",
         "i32: -abc",
         "i64: 9223372036854775807",
         "i64: -9223372036854775808",
         "i64: 9223372036854775808",
         "i64: -9223372036854775809",
         "i64: 18446744073709551616",
         "u32: 4294967295",
         "u32: 4294967296",
         "u32: -1",
         "u64: 18446744073709551615",
         "u64: 18446744073709551616",
         "u64: 0xFFFFFFFFFFFFFFFF",
         "u64: 0x10000000000000000",
         "u64: 01777777777777777777777",
         "u64: 02000000000000000000000",
         "s32: -1 s64: -9223372036854775808 f32: 4294967295 f64: 18446744073709551615 "
         "sf32: -2147483648 sf64: -1",
         "s32: 2147483647 s64: 9223372036854775807 sf32: 2147483647 sf64: -9223372036854775808",
         "f32: -1",
         "f64: -0",
         "i32: 1x",
         "i32: 0x",
         "i32: 0xg",
         "i32: 0x1g",
         "i32: 1.2.3",
         "i32: 0x1.5",
         "i32: 017.5",
         "i32: 12345678901234567890123",
         "i32: 0000000000000000000000001",
         "i32:1i64:2",
         "i32: 1e",
         "i32: 1e+",
         "r_i32: [1, -1, 0x10, 010] r_s32: [-1, 1] r_sf64: [-5] r_u64: [18446744073709551615]",
         "r_f32: [0, 4294967295] r_f64: [1] r_sf32: [-2147483648, 2147483647] r_i64: [-1]"})));

INSTANTIATE_TEST_SUITE_P(Floats, TextParseBattery,
                         ::testing::ValuesIn(Cases(kEvery, {"fl: 1.5",
                                                            "fl: -1.5",
                                                            "fl: 1",
                                                            "fl: -1",
                                                            "fl: 1e10",
                                                            "fl: 1E-10",
                                                            "fl: 1.5f",
                                                            "fl: 1.5F",
                                                            "fl: 1f",
                                                            "fl: 0f",
                                                            "fl: .5",
                                                            "fl: 5.",
                                                            "fl: 1e",
                                                            "fl: 1e+",
                                                            "fl: 1.5ff",
                                                            "fl: 1fe",
                                                            "fl: inf",
                                                            "fl: -inf",
                                                            "fl: Infinity",
                                                            "fl: -INFINITY",
                                                            "fl: nan",
                                                            "fl: -nan",
                                                            "fl: NaN",
                                                            "fl: infx",
                                                            "fl: inff",
                                                            "fl: 1e40",
                                                            "fl: -1e40",
                                                            "fl: 3.4028235e38",
                                                            "fl: 3.40282356e38",
                                                            "fl: 3.4028236e38",
                                                            "fl: -3.40282356e38",
                                                            "fl: 1e-50",
                                                            "fl: 0x10",
                                                            "fl: 010",
                                                            "fl: 0",
                                                            "fl: 18446744073709551616",
                                                            "fl: 16777217",
                                                            "fl: 1.00000006",
                                                            "db: 1e400",
                                                            "db: -1e400",
                                                            "db: 1e-400",
                                                            "db: 2.2250738585072011e-308",
                                                            "db: 0.1",
                                                            "db: 123456789012345678901234567890",
                                                            "db: 9007199254740993",
                                                            "db: -0",
                                                            "fl: -0",
                                                            "fl: -0.0",
                                                            "db: .",
                                                            "db: 1.e5",
                                                            "db: 5e-324",
                                                            "db: 4.9e-324",
                                                            "db: 1.5f",
                                                            "r_fl: [1, -2.5, inf, -nan, 1e40]",
                                                            "r_db: [0.1, -0.0, 1e-320]",
                                                            "fl: abc",
                                                            "fl: ABC",
                                                            "fl: 'x'",
                                                            "fl: -'x'",
                                                            "fl: 1.5e",
                                                            "fl: 1..5",
                                                            "db: 1.5.",
                                                            "fl: .e5",
                                                            "fl: 0.5e-3f",
                                                            "db: 00.5",
                                                            "db: 0e0",
                                                            "unpacked_db: [1, 2.5]"})));

INSTANTIATE_TEST_SUITE_P(BoolsAndEnums, TextParseBattery,
                         ::testing::ValuesIn(Cases(kEvery, {"b: true",
                                                            "b: True",
                                                            "b: t",
                                                            "b: false",
                                                            "b: False",
                                                            "b: f",
                                                            "b: 1",
                                                            "b: 0",
                                                            "b: 0x1",
                                                            "b: 01",
                                                            "b: 2",
                                                            "b: TRUE",
                                                            "b: yes",
                                                            "b: -1",
                                                            "b: 1.0",
                                                            "b: 'true'",
                                                            "b: TRUE\ni32: 1",
                                                            "b: yes }",
                                                            "r_b: [true, f, 1, 0, False]",
                                                            "color: RED",
                                                            "color: CRIMSON",
                                                            "color: 2",
                                                            "color: 7",
                                                            "color: -3",
                                                            "color: -7",
                                                            "color: 0x7fffffff",
                                                            "color: 2147483648",
                                                            "color: -2147483649",
                                                            "color: BLUE",
                                                            "color: BLUE i32: 1",
                                                            "color: 'RED'",
                                                            "color: 1.5",
                                                            "color: RED.5",
                                                            "color: red",
                                                            "color: NEGATIVE",
                                                            "color: - 3",
                                                            "color: -RED",
                                                            "r_color: [RED, 2, 99, NEGATIVE]",
                                                            "r_color: [RED, BLUE]"})));

INSTANTIATE_TEST_SUITE_P(
    Legacy, TextParseBattery,
    ::testing::ValuesIn(Cases(kLegacy,
                              {"shade: DARK", "shade: 2", "shade: 3", "shades: [1, 5]", "shade: -1",
                               "shade: LIGHT", "a: 0 a: 1", "s: '' s: 'x'", "s: '\\377\\376'",
                               "next { next { a: 1 } } a: 2", "r: [1, 2] r: 3", "f: 0 shade: LIGHT",
                               "next {} next {}", "nosuch: 1", "s: \"\\ud800\""})));

INSTANTIATE_TEST_SUITE_P(Strings, TextParseBattery,
                         ::testing::ValuesIn(Cases(kEvery,
                                                   {"str: 'single'",
                                                    "str: \"double\"",
                                                    "str: \"a\" 'b' \"c\"",
                                                    "str: \"\"",
                                                    "str: ''",
                                                    "str: \"a\\\"b\"",
                                                    "str: 'it\\'s'",
                                                    "str: \"mixed'quote\"",
                                                    "str: 'mixed\"quote'",
                                                    "by: \"\\a\\b\\f\\n\\r\\t\\v\\\\\\?\\'\\\"\"",
                                                    "by: \"\\0\\01\\012\\0123\\777\\400\\8\"",
                                                    "by: \"\\x0\\x41\\x4aZ\\xfff\"",
                                                    "by: \"\\x\"",
                                                    "by: \"\\xg\"",
                                                    "by: \"\\X41\"",
                                                    "str: \"\\u00e9\\u20ac\"",
                                                    "str: \"\\U0001F600\"",
                                                    "str: \"\\ud83d\\ude00\"",
                                                    "by: \"\\ud800\"",
                                                    "by: \"\\udc00\"",
                                                    "by: \"\\ud800x\"",
                                                    "by: \"\\ud800\\u0041\"",
                                                    "by: \"\\ud800\\ud800\\udc00\"",
                                                    "by: \"\\U0000d800\\udc00\"",
                                                    "by: \"\\ud800\\U0000dc00\"",
                                                    "by: \"\\ud800\" \"\\udc00\"",
                                                    "by: \"\\U00110000\"",
                                                    "by: \"\\U001fffff\"",
                                                    "by: \"\\U00200000\"",
                                                    "by: \"\\U0010ffff\"",
                                                    "by: \"\\U01000000\"",
                                                    "by: \"\\u12\"",
                                                    "by: \"\\u12g4\"",
                                                    "by: \"\\U0001F60\"",
                                                    "by: \"\\u\"",
                                                    "str: \"a\nb\"",
                                                    "str: \"abc",
                                                    "str: 'abc\"",
                                                    "str: \"\\q\"",
                                                    "str: \"\\",
                                                    "str: '",
                                                    "by: \"a\tb\" x",
                                                    "by: \"\t\" \"\t\t\" x",
                                                    "by: \"\xff\xfe\"",
                                                    "str: \"\xc3\xa9\"",
                                                    "by: \"a\x01\x7f\rb\"",
                                                    std::string("by: \"a\0b\"", 9),
                                                    "str: 1",
                                                    "str: abc",
                                                    "str: -'a'",
                                                    "r_str: \"a\" r_str: 'b'",
                                                    "str: \"a\" \"b\" i32: 1",
                                                    "str: 'a' 'b",
                                                    "r_by: ['\\x00', '', \"\\377\"]",
                                                    "by: '\\0' '\\00' '\\000' '\\0000'",
                                                    "str: 'a' # comment\n 'b'",
                                                    "str: 'a'\n'b'\ni32: 1",
                                                    "by: \"\\\n\"",
                                                    "str: \"\\u00e9\" x",
                                                    "by: \"\\ud83d\\ude00\\ud83d\" x"})));

INSTANTIATE_TEST_SUITE_P(Tokens, TextParseBattery,
                         ::testing::ValuesIn(Cases(kEvery, {"i32: 1\x01",
                                                            "\x01i32: 1",
                                                            "i32: 1 \x7f",
                                                            "\xc3\xa9: 1",
                                                            "i32: \xc3\xa9",
                                                            "i32: 1 /* c */",
                                                            "i32: 1 // c",
                                                            "i32:\t\t1 x",
                                                            "\ti32 x",
                                                            "  \t  \t x",
                                                            "i32: 1\r\ni64: 2 x",
                                                            "i32: 1\v\fi64: 2",
                                                            "i32.5: 1",
                                                            "i32 .5",
                                                            "a.b: 1",
                                                            std::string("# a\0b\ni32: 1", 12),
                                                            std::string("i32: 1 \0", 8),
                                                            "\xef\xbb\xbfi32: 1",
                                                            "i32: 1 $",
                                                            "i32: 1 @",
                                                            "i32: 1 ~",
                                                            "i32: 1 \\",
                                                            "i32: 1 ]",
                                                            "str: 'a'.5",
                                                            "i32: 5.5.5",
                                                            "i32: 1.5e3e",
                                                            "i32: 0x1e5",
                                                            "i32: 0.x"})));

INSTANTIATE_TEST_SUITE_P(Presence, TextParseBattery,
                         ::testing::ValuesIn(Cases(kEvery, {"choice_int: 1",
                                                            "choice_int: 0",
                                                            "choice_int: 1 choice_str: 'a'",
                                                            "choice_str: '' choice_int: 1",
                                                            "choice_msg {} choice_int: 1",
                                                            "choice_int: 1 choice_int: 2",
                                                            "choice_msg {} choice_msg {}",
                                                            "i32: 0 i32: 5",
                                                            "i32: 5 i32: 0",
                                                            "i32: 0 i32: 0",
                                                            "str: '' str: 'a'",
                                                            "str: 'a' str: ''",
                                                            "fl: 0 fl: 1",
                                                            "fl: -0 fl: 1",
                                                            "db: -0.0 db: 1",
                                                            "b: false b: true",
                                                            "b: true b: false",
                                                            "color: COLOR_UNSPECIFIED color: RED",
                                                            "color: RED color: 0",
                                                            "opt_i32: 0 opt_i32: 1",
                                                            "opt_str: '' opt_str: 'a'",
                                                            "child {} child {}",
                                                            "by: '' by: 'x'",
                                                            "u64: 0 u64: 0x10",
                                                            "s64: 0 s64: 1 s64: 2",
                                                            "f32: 0 f32: 0",
                                                            "sf64: 0 sf64: 1"})));

INSTANTIATE_TEST_SUITE_P(
    Maps, TextParseBattery,
    ::testing::ValuesIn(Cases(
        kEvery, {"by_name { key: 'a' value { i32: 1 } } by_name { key: 'b' }",
                 "by_name { value { i32: 1 } key: 'a' }", "by_name {}",
                 "by_name { key: 'a' } by_name { key: 'a' value { i32: 2 } }",
                 "by_name { key: 'a' key: 'b' }", "by_name { key: '' key: 'b' }",
                 "by_name { value {} value {} }", "by_name: [{key: 'x'}, {key: 'y'}]",
                 "by_int { key: -5 value: 'neg' } by_int { key: 7 }",
                 "by_bool { key: true value: -1 } by_bool { key: f }",
                 "by_sint { key: -9223372036854775808 value: RED } by_sint { value: 7 }",
                 "by_fixed { key: 4294967295 value: '\\x00' }",
                 "by_u64 { key: 18446744073709551615 value: -inf }", "by_name { nosuch: 1 }",
                 "by_int: 1", "by_int { key: 1 value: 2 }", "by_name { key: 'a', value: {}; }"})));

std::string AnyOf(const std::string& url, const std::string& body) {
  return "any { [" + url + "] " + body + " }";
}
const std::string kEveryUrl = "type.googleapis.com/graphport.text_test.EveryField";

INSTANTIATE_TEST_SUITE_P(
    Any, TextParseBattery,
    ::testing::ValuesIn(Cases(
        kEvery,
        {AnyOf(kEveryUrl, "{ i32: 1 }"),
         AnyOf("type.googleprod.com/graphport.text_test.EveryField", "< str: 'x' >"),
         AnyOf(kEveryUrl, ": { i32: 1 }"),
         AnyOf("type.googleapis.com/graphport.text_test.Legacy", "{ a: 1 s: 'x' }"),
         AnyOf(kEveryUrl, "{}"),
         AnyOf("type.example.com/graphport.text_test.EveryField", "{}"),
         AnyOf("type.googleapis.com/graphport.text_test.Nope", "{}"),
         AnyOf("type.googleapis.com/graphport.text_test", "{}"),
         "any { [" + kEveryUrl + "] {} [" + kEveryUrl + "] {} }",
         "any { type_url: 'x' [" + kEveryUrl + "] {} }",
         "any { type_url: '' [" + kEveryUrl + "] {} }",
         "any { [" + kEveryUrl + "] {} type_url: 'x' }",
         "any { [" + kEveryUrl + "] {} value: 'x' }",
         "any { [" + kEveryUrl + "] { i32: 1 } value: 'x' }",
         "any { [" + kEveryUrl + "] {}, }",
         "any { [" + kEveryUrl + "] {} ; }",
         "any { type_url: 'type.googleapis.com/x' value: '\\x08\\x01' }",
         AnyOf(kEveryUrl, "{ " + AnyOf(kEveryUrl, "{ i32: 5 }") + " }"),
         AnyOf(kEveryUrl,
               "{ r_i32: [1, 2] i32: 0 str: 'a' children {} by_name { key: 'z' } by_name { key: "
               "'a' value { i32: 3 } } by_name {} unpacked_i32: [3, 4] child { i32: 1 } "
               "choice_int: 0 fl: -0 db: 0 r_str: ['', 'x'] by_int { value: '' } b: false "
               "opt_i32: 0 r_by: '' color: 0 r_color: [0, NEGATIVE] u64: 0 }"),
         AnyOf(kEveryUrl, "{ by_name { key: 'a' } by_name { key: 'a' value { i32: 1 } } }"),
         AnyOf(kEveryUrl, "{ child { i32: 1 } i32: 2 child { } }"),
         AnyOf(kEveryUrl, "{ r_i32: 1 str: 'x' r_i32: 2 unpacked_db: [1] r_i32: [3] }"),
         AnyOf("type.googleapis.com/graphport.text_test.EveryField.ByNameEntry", "{ key: 'k' }"),
         AnyOf("type.googleapis.com/graphport.text_test.EveryField.ByIntEntry", "{ value: 'v' }"),
         AnyOf("type.googleapis.com/google.protobuf.Any",
               "{ [type.googleapis.com/graphport.text_test.Legacy] { a: 3 } }"),
         "anys: [{[type.googleapis.com/graphport.text_test.Legacy] {a: 1}}, {}]",
         "anys { [type.googleapis.com/graphport.text_test.Legacy] { shade: 3 } }",
         "anys { [type.googleapis.com/graphport.text_test.Legacy] { next { next { a: 1 } } s: "
         "'x' a: 2 } }",
         "anys { [type.googleapis.com/graphport.text_test.Legacy] { a: 0 shade: LIGHT f: 0 r: "
         "[1, 2] s: '' } }",
         AnyOf(kEveryUrl, ""),
         AnyOf(kEveryUrl, "}"),
         "any { [type.googleapis.com/] {} }",
         "any { [type.googleapis.com graphport.X] {} }",
         "any { [foo] {} }",
         "any { [] {} }",
         "any { [type.googleapis.com/a..b] {} }",
         AnyOf(kEveryUrl, "{ nosuch: 1 }"),
         AnyOf(kEveryUrl, "{ i32: 1 i32: 2 }"),
         "i32: 1 [type.googleapis.com/x] {}",
         "any { [" + kEveryUrl + "] 5 }",
         "any { [" + kEveryUrl + "]: 5 }",
         "any { [" + kEveryUrl + "] {",
         "any { [" + kEveryUrl,
         AnyOf(kEveryUrl, "{ gone: 1 }"),
         "any { [type . googleapis . com / graphport . text_test "
         ". EveryField] {} }"})));

INSTANTIATE_TEST_SUITE_P(
    TensorFlow, TextParseBattery,
    ::testing::Values(
        Case{"tensorflow.GraphDef",
             "node { name: 'a' op: 'Const' attr { key: 'value' value { tensor { dtype: DT_FLOAT "
             "tensor_shape { dim { size: 2 } } float_val: [1, 2] } } } attr { key: 'dtype' "
             "value { type: DT_FLOAT } } } versions { producer: 27 }"},
        Case{"tensorflow.GraphDef", "node { name: 'a' attr { key: 'x' value { s: '\\377' } } }"},
        Case{"tensorflow.GraphDef", "node { name: 'a' attr { key: 'x' value { list { } } } }"},
        Case{"tensorflow.GraphDef", "node { name: 'a' input: ['b', '^c'] device: '' }"},
        Case{"tensorflow.GraphDef", "node { name: 'a' } nodes { }"},
        Case{"tensorflow.SavedObjectGraph",
             "nodes { attributes { x: 1 } children { node_id: 1 } } nodes { optional_restore: 1 }"},
        Case{"tensorflow.MetaGraphDef",
             "collection_def { key: 'c' value { any_list { value { "
             "[type.googleapis.com/tensorflow.NodeDef] { name: 'n' attr { key: 'b' value { i: 2 "
             "} } attr { key: 'a' value { f: 1 } } } } } } }"},
        Case{"tensorflow.MetaGraphDef",
             "meta_info_def { any_info { [type.googleapis.com/tensorflow.GraphDef] { node { name: "
             "'x' } versions { producer: 1 } } } tags: 'serve' }"}));

// --- Strings that are not UTF-8 ---------------------------------------------------------------

struct Utf8Case {
  const char* type;
  std::string text;
  int line;
  int column;
  std::string names;  // in the message: the field and the path to it
};

void PrintTo(const Utf8Case& c, std::ostream* os) { *os << c.type << " <<" << c.text << ">>"; }

class TextParseUtf8 : public ::testing::TestWithParam<Utf8Case> {};

// libprotobuf 3.21 takes these; graphport refuses them where the string is, naming the field.
TEST_P(TextParseUtf8, RefusedAtTheStringNamingTheField) {
  const Utf8Case& c = GetParam();
  const Outcome want = Reference(c.type, c.text);
  ASSERT_TRUE(want.ok) << "libprotobuf takes it";
  EXPECT_TRUE(want.bad_utf8) << "and then logs it";
  for (std::vector<int> chunks : {std::vector<int>{}, std::vector<int>{1}}) {
    Outcome got = Ours(c.type, c.text, chunks);
    ASSERT_FALSE(got.ok);
    EXPECT_EQ(got.line, c.line) << got;
    EXPECT_EQ(got.column, c.column) << got;
    EXPECT_NE(got.message.find(c.names), std::string::npos) << got;
    EXPECT_NE(got.message.find("not valid UTF-8"), std::string::npos) << got;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Fields, TextParseUtf8,
    ::testing::Values(
        Utf8Case{"tensorflow.GraphDef", "node {\n  name: \"\\377\"\n}", 2, 9,
                 "'tensorflow.NodeDef.name' (node[0].name)"},
        Utf8Case{"tensorflow.GraphDef",
                 "node { attr { key: 'k' value { list { s: 'ok' } } } }\nnode { attr { key: "
                 "'\\377' } }",
                 2, 20, "(node[1].attr[#0].key)"},
        Utf8Case{"tensorflow.GraphDef", "node { attr { key: 'T' value { placeholder: '\\300' } } }",
                 1, 45, "(node[0].attr[\"T\"].value.placeholder)"},
        Utf8Case{"tensorflow.GraphDef", "node { attr { value { placeholder: '\\300' } key: 'T' } }",
                 1, 36, "(node[0].attr[#0].value.placeholder)"},
        Utf8Case{"tensorflow.GraphDef", "node { name: '\\ud800' }", 1, 14, "node[0].name"},
        Utf8Case{"tensorflow.MetaGraphDef",
                 "collection_def { key: 'c' value { any_list { value { "
                 "[type.googleapis.com/tensorflow.NodeDef] { name: '\\377' } } } } }",
                 1, 103, "(collection_def[\"c\"].value.any_list.value[0].value.name)"},
        Utf8Case{kEvery, "r_str: ['ok', '\\377']", 1, 15,
                 "'graphport.text_test.EveryField.r_str' (r_str[1])"},
        Utf8Case{kEvery, "by_int { key: -1 value: '\\377' }", 1, 25, "(by_int[-1].value)"},
        Utf8Case{kEvery, "str: '\\xc0\\xaf'", 1, 6, "(str)"},
        Utf8Case{kEvery, "str: 'a' '\\xed\\xa0\\x80'", 1, 6, "at byte 1 of the string"},
        Utf8Case{kEvery, "children {} children { child { str: '\\xff' } }", 1, 37,
                 "(children[1].child.str)"},
        Utf8Case{kEvery, AnyOf(kEveryUrl, "{ str: '\\377' }"), 1, 67, "(any.value.str)"}));

TEST(TextParseUtf8Rules, SplitSequencesAreOneStringAndBytesAreFree) {
  // Adjacent literals make one value: a sequence split across two of them is valid.
  EXPECT_TRUE(Ours("tensorflow.GraphDef", "node { name: '\\303' '\\251' }").ok);
  EXPECT_TRUE(Ours(kEvery, "by: '\\377' r_by: '\\300'").ok);
  EXPECT_TRUE(Ours(kLegacy, "s: '\\377'").ok) << "proto2 strings are not held to UTF-8";
}

TEST(TextParseUtf8Rules, AnyOtherErrorComesFirst) {
  // libprotobuf refuses these for another reason, later in the text: that error is reported.
  for (const char* text : {"node { name: '\\377' } node { name: 'a' op: }",
                           "node { name: '\\377' }\n}", "node { name: '\\377' } 1x"}) {
    const Outcome want = Reference("tensorflow.GraphDef", text);
    ASSERT_FALSE(want.ok) << text;
    EXPECT_TRUE(Same(want, Ours("tensorflow.GraphDef", text))) << text;
  }
}

// --- Nesting ----------------------------------------------------------------------------------

std::string Nested(const std::string& open, const std::string& close, int levels,
                   const std::string& middle = "") {
  std::string text;
  for (int i = 0; i < levels; ++i) text += open;
  text += middle;
  for (int i = 0; i < levels; ++i) text += close;
  return text;
}

TEST(TextParseNesting, TheLimitIsLibprotobufs) {
  for (int levels : {kMaxProtoNesting - 1, kMaxProtoNesting, kMaxProtoNesting + 1}) {
    SCOPED_TRACE(levels);
    ExpectLikeLibprotobuf(kEvery, Nested("child { ", "} ", levels, "i32: 1 "));
    ExpectLikeLibprotobuf(kEvery, Nested("children: [", "]", levels, "{}"));
    ExpectLikeLibprotobuf(kEvery, Nested("any { [" + kEveryUrl + "] { ", "} } ", levels));
    ExpectLikeLibprotobuf(kEvery, "gone " + Nested("{ x ", "} ", levels));
    ExpectLikeLibprotobuf(kEvery, "gone: " + Nested("[", "]", levels, "1"));
    ExpectLikeLibprotobuf(kEvery, "gone { x: " + Nested("[", "]", levels, "1") + "}");
  }
}

TEST(TextParseNesting, WhatParsesAtTheLimitThenParsesFromTheWire) {
  std::string wire;
  ASSERT_TRUE(Ours(kEvery, Nested("child { ", "} ", kMaxProtoNesting, "i32: 1 "), {}, &wire).ok);
  tensorflow::GraphDef graph;  // and the generated classes' parser, at the project's limit
  std::string text = testing::ReferenceText(testing::DeeplyNestedGraph(25));  // 3 + 4 * 24 levels
  TextParseError error;
  ASSERT_TRUE(ParseTextMessage(text, SchemaOf<tensorflow::GraphDef>(), &graph, &error))
      << error.message;
  EXPECT_TRUE(testing::MessagesEqual(testing::DeeplyNestedGraph(25), graph));
}

TEST(TextParseNesting, HostileDepthIsRefusedWithoutDeepRecursion) {
  for (const std::string& text :
       {Nested("child {", "}", 200000), Nested("children: [{", "}]", 200000),
        "gone: " + Nested("[", "]", 200000), "gone " + Nested("{ x ", "}", 200000)}) {
    Outcome got = Ours(kEvery, text);
    EXPECT_FALSE(got.ok);
    EXPECT_NE(got.message.find("recursion limit of 100"), std::string::npos) << got;
  }
}

// --- Real text ----------------------------------------------------------------------------------

std::string Printed(const pb::Message& message, int style) {
  pb::TextFormat::Printer printer;
  printer.SetExpandAny((style & 1) != 0);
  printer.SetSingleLineMode((style & 2) != 0);
  printer.SetUseShortRepeatedPrimitives((style & 4) != 0);
  std::string text;
  EXPECT_TRUE(printer.PrintToString(message, &text));
  return text;
}

TEST(TextParseCorpus, EveryTextFileLikeLibprotobuf) {
  ASSERT_TRUE(testing::CorpusPresent()) << testing::MissingCorpusMessage();
  int files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(testing::CorpusDir())) {
    if (entry.path().extension() != ".pbtxt") continue;
    ++files;
    SCOPED_TRACE(entry.path().string());
    const std::string text = testing::ReadFile(entry.path());
    const std::string type = "tensorflow.OpList";  // ops.pbtxt: TensorFlow's op registry
    const Outcome want = Reference(type, text);
    ASSERT_TRUE(want.ok) << want;
    EXPECT_TRUE(Same(want, Ours(type, text)));
    EXPECT_TRUE(Same(want, Ours(type, text, {1})));
    EXPECT_TRUE(Same(want, Ours(type, text, {4093, 1, 17})));
  }
  EXPECT_GE(files, 1);
}

// Every binary corpus file, printed by libprotobuf in each of its styles (Any expanded or not,
// one line or many, short lists), parsed back; also into the generated lite classes.
TEST(TextParseCorpus, LibprotobufsTextOfEveryBinaryFile) {
  int printed = 0;
  for (const testing::CorpusGraph& graph : testing::CorpusGraphs()) {
    ASSERT_TRUE(testing::CorpusPresent()) << testing::MissingCorpusMessage();
    SCOPED_TRACE(graph.relative);
    const std::string type =
        std::string(graph.kind == tf::TfKind::kSavedModel     ? "tensorflow.SavedModel"
                    : graph.kind == tf::TfKind::kMetaGraphDef ? "tensorflow.MetaGraphDef"
                                                              : "tensorflow.GraphDef");
    std::unique_ptr<pb::Message> message =
        ReferencePool::Tf().New(type, testing::ReadFile(graph.path()));
    for (int style = 0; style < 8; ++style) {
      SCOPED_TRACE(style);
      const std::string text = Printed(*message, style);
      ++printed;
      const Outcome want = Reference(type, text);
      ASSERT_TRUE(want.ok) << want;
      // The text is the binary's message (TensorFlow wrote its Any values' map entries in
      // hash order, so those are compared settled).
      std::unique_ptr<pb::Message> reread = ReferencePool::Tf().New(type);
      ASSERT_TRUE(pb::TextFormat::ParseFromString(text, reread.get()));
      EXPECT_EQ(Normalized(*reread, true).value_or("?"), Normalized(*message, true).value_or("?"));
      EXPECT_TRUE(Same(want, Ours(type, text)));
      EXPECT_TRUE(Same(want, Ours(type, text, {1})));
      std::unique_ptr<pb::MessageLite> generated(testing::NewRoot(graph.kind));
      TextParseError error;
      ASSERT_TRUE(ParseTextMessage(text, *tf::TfSchemas().Find(type), generated.get(), &error))
          << error.message;
      EXPECT_EQ(Normalized(*testing::ReferenceCopy(*generated)).value_or("?"), want.bytes);
    }
  }
  EXPECT_GT(printed, 40);
}

// Real text with one byte deleted, inserted or replaced, at many places: wherever libprotobuf
// refuses it, the same error; wherever it takes it, the same message.
TEST(TextParseCorpus, MutationsOfRealTextLikeLibprotobuf) {
  ASSERT_TRUE(testing::CorpusPresent()) << testing::MissingCorpusMessage();
  std::unique_ptr<pb::Message> meta = ReferencePool::Tf().New(
      "tensorflow.MetaGraphDef", testing::ReadCorpus(testing::kSessionBundleMeta));
  const std::string text = Printed(*meta, /*expand any, short lists=*/5);
  const std::string alphabet =
      std::string("{}<>[]:;,\"'\\#-.0x1eEfuU9 \n\t_aZ\xff\x01", 32) + std::string(1, '\0');
  uint64_t state = 0x9E3779B97F4A7C15ull;
  auto next = [&](uint64_t n) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state % n;
  };
  int refused = 0, taken = 0, not_utf8 = 0;
  for (int i = 0; i < 1500; ++i) {
    std::string mutated = text;
    const size_t at = next(mutated.size());
    const char c = alphabet[next(alphabet.size())];
    switch (next(3)) {
      case 0:
        mutated.erase(at, 1);
        break;
      case 1:
        mutated.insert(at, 1, c);
        break;
      default:
        mutated[at] = c;
    }
    const Outcome want = Reference("tensorflow.MetaGraphDef", mutated);
    (want.ok ? taken : refused)++;
    if (want.bad_utf8) {
      // libprotobuf takes a string that is not UTF-8; graphport refuses it.
      const Outcome got = Ours("tensorflow.MetaGraphDef", mutated);
      EXPECT_FALSE(got.ok);
      EXPECT_NE(got.message.find("is not valid UTF-8"), std::string::npos) << got;
      ++not_utf8;
      continue;
    }
    ASSERT_TRUE(Same(want, Ours("tensorflow.MetaGraphDef", mutated)))
        << "mutation " << i << " at byte " << at;
    if (i % 15 == 0) {
      ASSERT_TRUE(Same(want, Ours("tensorflow.MetaGraphDef", mutated, {1})))
          << "byte by byte, mutation " << i << " at byte " << at;
    }
  }
  EXPECT_GT(refused, 250);
  EXPECT_GT(taken, 150);
  EXPECT_GT(not_utf8, 1);
}

// --- The wire bytes -----------------------------------------------------------------------------

TEST(TextParseWire, SmallRecordsAreWrittenAsLibprotobufWritesThem) {
  // Fields in number order, no map, no default: exactly the serialization.
  std::unique_ptr<pb::Message> legacy = TestPool().New(kLegacy);
  const std::string text = "a: -1 s: 'x' shade: DARK r: [1, 300] next { a: 2 next { s: 'y' } }";
  ASSERT_TRUE(pb::TextFormat::ParseFromString(text, legacy.get()));
  std::string wire;
  ASSERT_TRUE(Ours(kLegacy, text, {}, &wire).ok);
  // proto2's repeated int32 is not packed; graphport packs runs, so compare without `r`.
  legacy->GetReflection()->ClearField(legacy.get(), legacy->GetDescriptor()->FindFieldByName("r"));
  std::string without_r;
  ASSERT_TRUE(
      Ours(kLegacy, "a: -1 s: 'x' shade: DARK next { a: 2 next { s: 'y' } }", {}, &without_r).ok);
  EXPECT_EQ(without_r, legacy->SerializeAsString());
  EXPECT_NE(wire.find("\x22\x03\x01\xac\x02", 0, 5), std::string::npos) << "r packed: [1, 300]";
}

TEST(TextParseWire, LongPayloadsKeepFiveByteLengths) {
  const std::string content(100000, 'z');
  const std::string text = "child { child { by: '" + content + "' } }";
  std::string wire;
  const Outcome got = Ours(kEvery, text, {}, &wire);
  ASSERT_TRUE(got.ok);
  EXPECT_EQ(got.bytes, Reference(kEvery, text).bytes);
  // Three records of 100 KB and more (tags of 2, 2 and 1 bytes), each length in 5 bytes.
  EXPECT_EQ(wire.size(), content.size() + (2 + 5) + (2 + 5) + (1 + 5));
  EXPECT_EQ(wire.substr(2, 5), std::string("\xad\x8d\x86\x80\x00", 5));
}

TEST(TextParseWire, ReplacesWhatTheOutputHeld) {
  std::string wire = "stale bytes";
  TextParseError error;
  pb::io::ArrayInputStream input("i32: 1", 6);
  ASSERT_TRUE(TextToWire(&input, *testing::TextTestSchemas().Find(kEvery), &wire, &error));
  EXPECT_EQ(wire, std::string("\x08\x01", 2));
}

TEST(TextParseWire, AGeneratedMessageFromText) {
  tensorflow::GraphDef graph;
  TextParseError error;
  ASSERT_TRUE(ParseTextMessage("node { name: 'a' op: 'NoOp' } versions { producer: 3 }",
                               SchemaOf<tensorflow::GraphDef>(), &graph, &error));
  EXPECT_EQ(graph.node(0).op(), "NoOp");
  EXPECT_EQ(graph.versions().producer(), 3);
  EXPECT_FALSE(
      ParseTextMessage("node { name: 'a' op: }", SchemaOf<tensorflow::GraphDef>(), &graph, &error));
  EXPECT_EQ(graph.node_size(), 0) << "a refused text leaves the message cleared";
  EXPECT_EQ(error.line, 1);
  EXPECT_EQ(error.column, 22);
  EXPECT_EQ(error.message, "Expected string, got: }");
}

// Big text: a long escaped tensor content, streamed in odd chunks, and how fast both are.
TEST(TextParseWire, AHugeEscapedStringStreams) {
  std::string content;
  for (int i = 0; i < (1 << 20); ++i) content += static_cast<char>(i * 7);
  tensorflow::GraphDef graph;
  tensorflow::NodeDef* node = graph.add_node();
  node->set_name("c");
  (*node->mutable_attr())["value"].mutable_tensor()->set_tensor_content(content);
  const std::string text = testing::ReferenceText(graph);
  const Outcome want = Reference("tensorflow.GraphDef", text);
  EXPECT_TRUE(Same(want, Ours("tensorflow.GraphDef", text, {65536, 1, 4095})));
  EXPECT_TRUE(Same(want, Ours("tensorflow.GraphDef", text, {1})));
}

}  // namespace
}  // namespace graphport::proto

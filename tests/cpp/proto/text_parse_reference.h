// The reference of the text-format parser's tests (text_parse_*_test.cc): proto::TextToWire
// against libprotobuf's own text parser (TextFormat::Parser, default settings, recursion
// limit kMaxProtoNesting) on DynamicMessages of the same schemas. Each run is summed up as an
// Outcome: the same inputs must be taken and give the same message, and the same inputs be
// refused at the same line and column with the same message.
#ifndef GRAPHPORT_TESTS_CPP_PROTO_TEXT_PARSE_REFERENCE_H_
#define GRAPHPORT_TESTS_CPP_PROTO_TEXT_PARSE_REFERENCE_H_

#include <google/protobuf/message.h>
#include <gtest/gtest.h>

#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "reference_pool.h"

namespace graphport::proto::text_parse_testing {

namespace pb = google::protobuf;
using testing::ReferencePool;

// libprotobuf's descriptors of the test schemas (tests/cpp/proto/text_parse/*.proto).
const ReferencePool& TestPool();

inline constexpr char kEvery[] = "graphport.text_test.EveryField";
inline constexpr char kLegacy[] = "graphport.text_test.Legacy";

struct Outcome {
  bool ok = false;
  int line = 0;  // 1-based
  int column = 0;
  std::string message;
  std::string bytes;      // when ok: the message, normalized
  bool bad_utf8 = false;  // when ok: it holds a proto3 string that is not UTF-8
};

std::ostream& operator<<(std::ostream& os, const Outcome& o);

// Deterministic bytes of what `message` parses back to (map entries sorted). An Any's value
// is compared as it is (libprotobuf's text parser writes its fields in number order and its
// map entries in the text's order), or, with `settle_anys`, in deterministic form too. Empty
// when it does not parse back: a proto3 string in it is not UTF-8.
std::optional<std::string> Normalized(const pb::Message& message, bool settle_anys = false);

// What libprotobuf's text parser makes of `text` as a message of `type`.
Outcome Reference(const std::string& type, std::string_view text);

// What TextToWire makes of it: fed whole, or in `chunks` of the given sizes, cycled ({1}: a
// byte at a time). When it is taken, its wire bytes go to `*wire_out`.
Outcome Ours(const std::string& type, std::string_view text, std::vector<int> chunks = {},
             std::string* wire_out = nullptr);

::testing::AssertionResult Same(const Outcome& want, const Outcome& got);

// Fed whole, a byte at a time and in uneven chunks, each the same as libprotobuf.
void ExpectLikeLibprotobuf(const std::string& type, std::string_view text);

// "any { [url] body }": an `any` field in its expanded form; kEveryUrl names an EveryField.
std::string AnyOf(const std::string& url, const std::string& body);
extern const std::string kEveryUrl;

}  // namespace graphport::proto::text_parse_testing

#endif  // GRAPHPORT_TESTS_CPP_PROTO_TEXT_PARSE_REFERENCE_H_

// The battery of the text-format parser's tests: short texts, each parsed by libprotobuf and
// by graphport and expected to give the same outcome (ExpectLikeLibprotobuf). Its one test,
// TextParseBattery.LikeLibprotobuf, is in text_parse_fields_test.cc; the cases are
// instantiated by theme there and in text_parse_values_test.cc, so the fixture is shared.
#ifndef GRAPHPORT_TESTS_CPP_PROTO_TEXT_PARSE_BATTERY_H_
#define GRAPHPORT_TESTS_CPP_PROTO_TEXT_PARSE_BATTERY_H_

#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "text_parse_reference.h"

namespace graphport::proto::text_parse_testing {

struct Case {
  const char* type;
  std::string text;
};

inline void PrintTo(const Case& c, std::ostream* os) { *os << c.type << " <<" << c.text << ">>"; }

class TextParseBattery : public ::testing::TestWithParam<Case> {};

inline std::vector<Case> Cases(const char* type, std::vector<std::string> texts) {
  std::vector<Case> out;
  for (std::string& t : texts) out.push_back({type, std::move(t)});
  return out;
}

}  // namespace graphport::proto::text_parse_testing

#endif  // GRAPHPORT_TESTS_CPP_PROTO_TEXT_PARSE_BATTERY_H_

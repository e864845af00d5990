#include "core/op_histogram.h"

#include <gtest/gtest.h>

#include <string>

namespace graphport {
namespace {

// A line as the summaries print it: the name padded to 28 columns, then the count.
std::string Line(const std::string& name, int count) {
  return "  " + name + std::string(28 - name.size(), ' ') + std::to_string(count) + "\n";
}

TEST(OpHistogramTest, MostFrequentFirstTiesInObjectOrder) {
  const nlohmann::json counts = {{"Add", 2}, {"Const", 5}, {"Mul", 2}};
  EXPECT_EQ(OpHistogramText(counts, " ops"), Line("Const", 5) + Line("Add", 2) + Line("Mul", 2));
}

TEST(OpHistogramTest, ListsTheTopAndCountsTheRest) {
  nlohmann::json counts = nlohmann::json::object();
  for (int i = 0; i < 15; ++i) counts["Op" + std::to_string(10 + i)] = 100 - i;
  const std::string text = OpHistogramText(counts, " ops");
  EXPECT_NE(text.find(Line("Op21", 89)), std::string::npos);
  EXPECT_EQ(text.find("Op22"), std::string::npos);
  EXPECT_NE(text.find("  ... 3 more ops\n"), std::string::npos);
  EXPECT_NE(OpHistogramText(counts, "").find("  ... 3 more\n"), std::string::npos);
}

TEST(OpHistogramTest, ALongNameKeepsOneSpace) {
  const std::string name(30, 'N');
  EXPECT_EQ(OpHistogramText({{name, 1}}, ""), "  " + name + " 1\n");
}

}  // namespace
}  // namespace graphport

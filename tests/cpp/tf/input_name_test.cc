#include "tf/input_name.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

namespace graphport::tf {
namespace {

TEST(InputNameTest, NodeOfEachFormOfInput) {
  using namespace std::literals;
  EXPECT_EQ(InputNodeName("^a/b"sv), "a/b");
  EXPECT_EQ(InputNodeName("a/b:2"sv), "a/b");
  EXPECT_EQ(InputNodeName("a"sv), "a");
  EXPECT_EQ(InputNodeName("a:0"sv), "a");
  EXPECT_EQ(InputNodeName(""sv), "");
}

TEST(InputNameTest, StringFormAgreesWithTheView) {
  // The passes that key maps by string take the string form; it must name the same node.
  for (std::string input : {"^x", "x:13", "scope/x:0", "x", "^scope/x"}) {
    EXPECT_EQ(InputNodeName(input), std::string(InputNodeName(std::string_view(input))));
  }
  EXPECT_EQ(InputNodeName(std::string("^scope/x")), "scope/x");
}

}  // namespace
}  // namespace graphport::tf

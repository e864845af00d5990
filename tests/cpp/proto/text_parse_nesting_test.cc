// Nesting: the recursion limit is libprotobuf's, counted as it counts, for kept messages,
// lists and skipped fields alike; hostile depth is refused without recursing as deep.
#include <gtest/gtest.h>

#include <string>

#include "core/limits.h"
#include "proto/schema.h"
#include "proto/text_parse.h"
#include "tensorflow/graph.pb.h"
#include "tensorflow/schemas.h"
#include "test_util.h"
#include "text_parse_reference.h"

namespace graphport::proto {
namespace {

using namespace text_parse_testing;  // NOLINT: the shared helpers of these tests

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

}  // namespace
}  // namespace graphport::proto

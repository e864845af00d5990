// proto::WireTextMemo hands back a map entry's text only for the very bytes, map field, indent
// and depth it was printed for; and the wire text printer, which copies from it, still prints
// exactly what TextFormat::Printer prints, through outputs that flush often or seldom.
#include "proto/wire_text_memo.h"

#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "proto/wire_text.h"
#include "proto_json_test.pb.h"
#include "tensorflow/graph.pb.h"
#include "test_util.h"

namespace graphport::proto {
namespace {

const uint8_t* Data(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }

std::string_view Find(const WireTextMemo& memo, const std::string& s,
                      const WireTextMemo::Context& at) {
  return memo.Find(Data(s), s.size(), WireTextMemo::Hash(Data(s), s.size(), at), at);
}

void Offer(WireTextMemo* memo, const std::string& s, const WireTextMemo::Context& at,
           const std::string& text) {
  memo->Offer(Data(s), s.size(), WireTextMemo::Hash(Data(s), s.size(), at), at, text);
}

const int kFieldA = 1, kFieldB = 2;  // two map fields, named by their addresses

TEST(WireTextMemoTest, RemembersOnTheSecondSightingOnly) {
  WireTextMemo memo;
  const std::string entry = "\n\x01T\x12\x02\x30\x01";  // attr T: DT_FLOAT
  const WireTextMemo::Context at{&kFieldA, 1, 1};
  const std::string text = "  attr {\n    key: \"T\"\n    value {\n      type: DT_FLOAT\n    }\n  }\n";
  EXPECT_TRUE(Find(memo, entry, at).empty());
  Offer(&memo, entry, at, text);
  EXPECT_TRUE(Find(memo, entry, at).empty());
  Offer(&memo, entry, at, text);
  std::string_view known = Find(memo, entry, at);
  EXPECT_EQ(known, text);
  // Whole-word copies read up to kPadding bytes past the text: they must be there.
  std::string past(known.data() + known.size(), WireTextMemo::kPadding);
  EXPECT_EQ(past.size(), WireTextMemo::kPadding);
}

TEST(WireTextMemoTest, TheFieldTheIndentAndTheDepthArePartOfTheKey) {
  WireTextMemo memo;
  const std::string entry = "\n\x01k\x12\x01v";
  const WireTextMemo::Context at{&kFieldA, 2, 1};
  Offer(&memo, entry, at, "a");
  Offer(&memo, entry, at, "a");
  ASSERT_EQ(Find(memo, entry, at), "a");
  EXPECT_TRUE(Find(memo, entry, {&kFieldB, 2, 1}).empty());
  EXPECT_TRUE(Find(memo, entry, {&kFieldA, 3, 1}).empty());
  EXPECT_TRUE(Find(memo, entry, {&kFieldA, 2, 2}).empty());
  // The same bytes remembered in a second place keep both texts apart.
  Offer(&memo, entry, {&kFieldA, 3, 2}, "b");
  Offer(&memo, entry, {&kFieldA, 3, 2}, "b");
  EXPECT_EQ(Find(memo, entry, at), "a");
  EXPECT_EQ(Find(memo, entry, {&kFieldA, 3, 2}), "b");
}

// Entries of every size the memo takes, each differing from the others in one byte: each is
// found with its own text, and bytes offered once or never are not found. Past its fixed
// sizes the memo keeps what it has and takes no more.
TEST(WireTextMemoTest, AnswersOnlyForTheBytesItRememberedAndStopsWhenFull) {
  std::mt19937 random(11);
  WireTextMemo memo;
  const WireTextMemo::Context at{&kFieldA, 1, 1};
  std::vector<std::string> kept, unseen;
  for (size_t size = 4; size <= 400; size += 7) {
    for (int k = 0; k < 30; ++k) {
      std::string s(size, 'a');
      s[random() % size] = static_cast<char>('b' + k);
      (k % 3 == 0 ? unseen : kept).push_back(s);
    }
  }
  for (const std::string& s : unseen) Offer(&memo, s, at, "once " + s);
  for (const std::string& s : kept) {
    Offer(&memo, s, at, "text of " + s);
    Offer(&memo, s, at, "text of " + s);
  }
  size_t found = 0;
  for (const std::string& s : kept) {
    std::string_view known = Find(memo, s, at);
    if (known.empty()) continue;  // offered after the memo was full
    EXPECT_EQ(known, "text of " + s);
    ++found;
  }
  EXPECT_GT(found, 100u);
  EXPECT_LT(found, kept.size());  // 128 KiB of entries: the later, larger ones did not fit
  for (const std::string& s : unseen) EXPECT_TRUE(Find(memo, s, at).empty()) << s.size();
}

std::string LibprotobufText(const google::protobuf::Message& message, int indent_level) {
  google::protobuf::TextFormat::Printer printer;
  printer.SetHideUnknownFields(true);
  printer.SetInitialIndentLevel(indent_level);
  std::string text;
  EXPECT_TRUE(printer.PrintToString(message, &text));
  return text;
}

std::string WireText(WireTextPrinter* printer, const std::string& bytes, int indent_level,
                     size_t chunk) {
  StringSink sink;
  TextOutput out(&sink, chunk);
  EXPECT_TRUE(printer->Print(bytes, indent_level, &out));
  out.Flush();
  return sink.Take();
}

// Nodes whose attrs repeat (what the memo is for) beside ones that do not, printed one by one
// through one printer, as the text export prints a graph: at two indents, through an output
// that flushes every 64 bytes (most entries cross a flush and are not remembered) and one
// that flushes seldom (nearly every entry after the first two comes from the memo).
TEST(WireTextMemoTest, RepeatedAttrsPrintAsLibprotobufPrintsThem) {
  tensorflow::GraphDef graph;
  for (int i = 0; i < 400; ++i) {
    tensorflow::NodeDef* node = graph.add_node();
    node->set_name("n" + std::to_string(i));
    node->set_op(i % 2 ? "Add" : "Const");
    (*node->mutable_attr())["T"].set_type(tensorflow::DT_FLOAT);
    auto* shape = (*node->mutable_attr())["_output_shapes"].mutable_list()->add_shape();
    shape->add_dim()->set_size(i % 3 == 0 ? i : 8);  // repeated, and now and then not
    (*node->mutable_attr())["unique"].set_s("v" + std::to_string(i));
  }
  for (size_t chunk : {size_t{64}, size_t{1} << 20}) {
    for (int indent : {1, 3}) {
      WireTextPrinter printer(tensorflow::NodeDef::descriptor());
      for (int pass = 0; pass < 2; ++pass) {
        for (const tensorflow::NodeDef& node : graph.node()) {
          ASSERT_EQ(WireText(&printer, testing::DeterministicBytes(node), indent, chunk),
                    LibprotobufText(node, indent))
              << node.name() << " chunk " << chunk << " indent " << indent;
        }
      }
    }
  }
}

// The same entry bytes as entries of one map field at different depths (a message's map and
// its child's), and of one map inside the other: each prints with its own indent.
TEST(WireTextMemoTest, TheSameEntryAtAnotherDepthKeepsItsOwnIndent) {
  graphport::test::Everything top;
  (*top.mutable_child_map())["k"];
  (*top.mutable_child()->mutable_child_map())["k"];
  (*top.mutable_child()->mutable_child()->mutable_child_map())["k"];
  (*top.mutable_str_map())["k"] = "v";
  (*(*top.mutable_child_map())["j"].mutable_str_map())["k"] = "v";
  const std::string bytes = testing::DeterministicBytes(top);
  WireTextPrinter printer(top.GetDescriptor());
  for (int pass = 0; pass < 3; ++pass) {
    EXPECT_EQ(WireText(&printer, bytes, 0, size_t{1} << 20), LibprotobufText(top, 0)) << pass;
    EXPECT_EQ(WireText(&printer, bytes, 2, size_t{1} << 20), LibprotobufText(top, 2)) << pass;
  }
}

}  // namespace
}  // namespace graphport::proto

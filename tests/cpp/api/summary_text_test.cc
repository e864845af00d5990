#include "api/summary_text.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "api/model.h"
#include "test_util.h"

namespace graphport {
namespace {

using testing::CorpusGraph;

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

bool HasLine(const std::vector<std::string>& lines, const std::string& line) {
  return std::find(lines.begin(), lines.end(), line) != lines.end();
}

std::string Summary(const std::string& bytes) {
  MemorySource source(bytes);
  return SummaryText(Model::Load(&source, LoadOptions{})->InspectJson());
}

class SummaryTextCorpusTest : public ::testing::TestWithParam<CorpusGraph> {};

TEST_P(SummaryTextCorpusTest, StatesTheCountsOfTheParsedProtobuf) {
  std::string bytes = testing::ReadFile(GetParam().path());
  auto reference = testing::ReferenceParse(GetParam().kind, bytes);
  ASSERT_NE(reference, nullptr);
  const tensorflow::MetaGraphDef* mg = nullptr;
  if (GetParam().kind == tf::TfKind::kSavedModel) {
    mg = &static_cast<const tensorflow::SavedModel&>(*reference).meta_graphs(0);
  } else if (GetParam().kind == tf::TfKind::kMetaGraphDef) {
    mg = static_cast<const tensorflow::MetaGraphDef*>(reference.get());
  }
  const tensorflow::GraphDef& graph =
      mg ? mg->graph_def() : static_cast<const tensorflow::GraphDef&>(*reference);
  std::map<std::string, int> ops;
  int consts = 0;
  for (const auto& node : graph.node()) {
    ++ops[node.op()];
    consts += node.op() == "Const";
  }
  int most = 0;
  for (const auto& [op, n] : ops) most = std::max(most, n);

  auto lines = Lines(Summary(bytes));
  ASSERT_GE(lines.size(), 6u);
  EXPECT_EQ(lines[0], "family:      tensorflow");
  EXPECT_EQ(lines[1], "format:      " + std::string(tf::KindName(GetParam().kind)) + " (binary, " +
                          std::to_string(bytes.size()) + " bytes)");
  std::string nodes = "nodes:       " + std::to_string(graph.node_size()) + " (" +
                      std::to_string(ops.size()) + " ops)";
  auto at = std::find(lines.begin(), lines.end(), nodes);
  ASSERT_NE(at, lines.end()) << nodes;
  ASSERT_NE(at + 1, lines.end());
  // The op lines follow, most frequent first.
  std::string first_op = *(at + 1);
  EXPECT_EQ(first_op.substr(first_op.find_last_of(' ') + 1), std::to_string(most)) << first_op;
  EXPECT_EQ(HasLine(lines,
                    "  ... " + std::to_string(ops.size() > 12 ? ops.size() - 12 : 0) + " more ops"),
            ops.size() > 12);
  bool constants_line = false;
  for (const auto& l : lines) {
    constants_line |= l.rfind("constants:   " + std::to_string(consts) + " (", 0) == 0;
  }
  EXPECT_TRUE(constants_line);
  EXPECT_TRUE(HasLine(lines, "functions:   " + std::to_string(graph.library().function_size())));
  std::set<std::string> scopes, top_level;
  for (const auto& node : graph.node()) {
    for (size_t slash = node.name().find('/'); slash != std::string::npos;
         slash = node.name().find('/', slash + 1)) {
      scopes.insert(node.name().substr(0, slash));
    }
    size_t first = node.name().find('/');
    if (first != std::string::npos) top_level.insert(node.name().substr(0, first));
  }
  std::string scopes_line = "scopes:      " + std::to_string(scopes.size());
  if (!top_level.empty()) scopes_line += " (top level: " + *top_level.begin();
  EXPECT_TRUE(std::any_of(lines.begin(), lines.end(), [&](const std::string& l) {
    return l.rfind(scopes_line, 0) == 0;
  })) << scopes_line;
  EXPECT_TRUE(HasLine(lines, "collections: " + std::to_string(mg ? mg->collection_def_size() : 0)));
  EXPECT_TRUE(HasLine(lines, "signatures:  " + std::to_string(mg ? mg->signature_def_size() : 0)));
  if (mg != nullptr) {
    for (const auto& [name, sig] : mg->signature_def()) {
      std::string line = "  " + name + " (" + sig.method_name() + ", " +
                         std::to_string(sig.inputs_size()) + " in, " +
                         std::to_string(sig.outputs_size()) + " out)";
      EXPECT_TRUE(HasLine(lines, line)) << line;
    }
  }
  EXPECT_EQ(HasLine(lines, "tags:        serve"), GetParam().kind == tf::TfKind::kSavedModel);
}

INSTANTIATE_TEST_SUITE_P(Corpus, SummaryTextCorpusTest,
                         ::testing::ValuesIn(testing::CorpusGraphs()), testing::CorpusTestName);

TEST(SummaryTextTest, SessionBundleCollections) {
  auto lines = Lines(Summary(testing::ReadCorpus(testing::kSessionBundleMeta)));
  // research/tensorflow.md §3.4: 57 nodes, 13 ops, 7 collections.
  EXPECT_TRUE(HasLine(lines, "nodes:       57 (13 ops)"));
  EXPECT_TRUE(HasLine(lines, "collections: 7"));
  EXPECT_TRUE(HasLine(lines, "  serving_graph (any_list, 1)"));
  EXPECT_TRUE(HasLine(lines, "  ... 1 more ops"));
}

TEST(SummaryTextTest, SeveralMetaGraphsAreListed) {
  tensorflow::SavedModel sm;
  ASSERT_TRUE(sm.ParseFromString(testing::ReadCorpus(testing::kMatrixSavedModel)));
  auto* second = sm.add_meta_graphs();
  *second = sm.meta_graphs(0);
  second->mutable_meta_info_def()->add_tags("gpu");
  second->mutable_graph_def()->mutable_node()->RemoveLast();
  auto lines = Lines(Summary(sm.SerializeAsString()));
  EXPECT_TRUE(HasLine(lines, "meta graphs: 2 (selected #0)"));
  EXPECT_TRUE(HasLine(
      lines, "  [serve] " + std::to_string(sm.meta_graphs(0).graph_def().node_size()) + " nodes"));
  EXPECT_TRUE(HasLine(
      lines,
      "  [serve, gpu] " + std::to_string(sm.meta_graphs(1).graph_def().node_size()) + " nodes"));
}

}  // namespace
}  // namespace graphport

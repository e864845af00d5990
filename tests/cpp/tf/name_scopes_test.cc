#include "tf/name_scopes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "test_util.h"
#include "tf/meta_graph/scope.h"
#include "tf/tf_model.h"

namespace graphport::tf {
namespace {

using testing::CorpusGraph;

tensorflow::GraphDef GraphOf(std::initializer_list<const char*> names) {
  tensorflow::GraphDef graph;
  for (const char* name : names) graph.add_node()->set_name(name);
  return graph;
}

std::map<std::string, uint64_t> AsMap(const NameScopeList& list) {
  std::map<std::string, uint64_t> out;
  for (const auto& s : list.scopes) out[s.name] = s.node_count;
  return out;
}

TEST(NameScopesTest, EveryPrefixBeforeASlashWithTheNodesInsideIt) {
  tensorflow::GraphDef graph =
      GraphOf({"a", "a/b", "a/b/c", "a/bc", "ab/x", "x//y", "z", "q/r/s", "/lead"});
  NameScopeList list = NameScopes(graph, 100);
  // "a" holds the node "a" itself and everything under "a/"; "ab/x" is not in "a"; "x//y"
  // is in "x" (exportScope reads "x/" as "x"); a leading "/" makes no scope.
  std::map<std::string, uint64_t> expected = {{"a", 4}, {"a/b", 2}, {"ab", 1},
                                              {"q", 1}, {"q/r", 1}, {"x", 1}};
  EXPECT_EQ(AsMap(list), expected);
  EXPECT_EQ(list.total, expected.size());
  ASSERT_EQ(list.scopes.size(), expected.size());
  EXPECT_EQ(list.scopes.front().name, "a");  // sorted by name
  EXPECT_EQ(list.scopes.back().name, "x");
}

TEST(NameScopesTest, ACappedListKeepsTheShallowestScopes) {
  tensorflow::GraphDef graph = GraphOf({"m/n/o/p", "b/c", "a/z/y", "c"});
  NameScopeList list = NameScopes(graph, 3);
  EXPECT_EQ(list.total, 6u);  // m, m/n, m/n/o, b, a, a/z
  std::map<std::string, uint64_t> expected = {{"a", 1}, {"b", 1}, {"m", 1}};
  EXPECT_EQ(AsMap(list), expected);
  EXPECT_TRUE(NameScopes(graph, 0).scopes.empty());
  EXPECT_TRUE(NameScopes(tensorflow::GraphDef(), 10).scopes.empty());
}

// Depth counts every "/": a leading one (which makes no scope) and a doubled one, so "/z/y"
// and "a//d" are as deep as "a/b/c" and not kept before "a/b".
TEST(NameScopesTest, DepthCountsLeadingAndDoubledSlashes) {
  tensorflow::GraphDef graph = GraphOf({"/z/y/x", "a/b/c", "a//d/e"});
  NameScopeList list = NameScopes(graph, 3);
  EXPECT_EQ(list.total, 5u);  // /z, /z/y, a, a/b, a//d
  std::map<std::string, uint64_t> expected = {{"/z", 1}, {"a", 2}, {"a/b", 1}};
  EXPECT_EQ(AsMap(list), expected);
}

// Every scope and count against a count by brute force, on names that leave and re-enter their
// scopes, share long prefixes, name a scope before or after its nodes, double their slashes,
// and make thousands of scopes.
TEST(NameScopesTest, AgreesWithACountByBruteForce) {
  std::vector<std::string> names;
  for (int i = 0; i < 3000; ++i) {
    const std::string block =
        "model/encoder/layers/stage_" + std::to_string(i % 7) + "/block_" + std::to_string(i / 3);
    names.push_back(block + "/w");
    if (i % 5 == 0) names.push_back(block);  // a node named as its scope, after its nodes
    if (i % 11 == 0) names.push_back("model//x" + std::to_string(i) + "//y/");
    if (i % 13 == 0) names.push_back("/lead/" + std::to_string(i));
    if (i % 17 == 0) names.push_back("model/encoder/layers/stage_" + std::to_string(i % 7));
    // Bytes past 0x7f order after ASCII, as std::string compares them.
    if (i % 19 == 0) names.push_back(std::string("model/\xc3\xa9") + std::to_string(i) + "/w");
  }
  names.push_back("model/encoder/layers/stage_1/block_5/w/deeper/still");
  names.push_back("");
  tensorflow::GraphDef graph;
  for (const auto& n : names) graph.add_node()->set_name(n);

  std::map<std::string, uint64_t> expected;
  for (const auto& n : names) {
    for (size_t i = 1; i < n.size(); ++i) {
      if (n[i] == '/' && n[i - 1] != '/') expected.emplace(n.substr(0, i), 0);
    }
  }
  for (auto& [scope, count] : expected) {
    for (const auto& n : names) count += Scope(scope).Contains(n) ? 1 : 0;
  }
  NameScopeList list = NameScopes(graph, 1 << 20);
  EXPECT_EQ(list.total, expected.size());
  EXPECT_EQ(AsMap(list), expected);
  EXPECT_GT(expected.size(), 2000u);  // the table grew several times
  std::vector<std::string> listed;
  for (const auto& s : list.scopes) listed.push_back(s.name);
  EXPECT_TRUE(std::is_sorted(listed.begin(), listed.end()));

  // Capped: the shallowest, then the first by name (bytes compared as unsigned).
  std::vector<std::pair<size_t, std::string>> by_depth;
  for (const auto& [scope, count] : expected) {
    by_depth.emplace_back(std::count(scope.begin(), scope.end(), '/'), scope);
  }
  std::sort(by_depth.begin(), by_depth.end());
  std::vector<std::string> kept;
  for (size_t i = 0; i < 500; ++i) kept.push_back(by_depth[i].second);
  std::sort(kept.begin(), kept.end());
  NameScopeList capped = NameScopes(graph, 500);
  EXPECT_EQ(capped.total, expected.size());
  std::vector<std::string> got;
  for (const auto& s : capped.scopes) got.push_back(s.name);
  EXPECT_EQ(got, kept);
}

class NameScopesCorpusTest : public ::testing::TestWithParam<CorpusGraph> {};

// The counts are exportScope's own membership rule (Scope::Contains) applied node by node, and
// no scope that an export would accept is missing.
TEST_P(NameScopesCorpusTest, CountsAreWhatExportScopeSelects) {
  const CorpusGraph& g = GetParam();
  std::string bytes = testing::ReadFile(g.path());
  MemorySource source(bytes);
  auto model = TfModel::Load(&source, TfLoadOptions{});
  const tensorflow::GraphDef& graph = model->graph();
  NameScopeList list = NameScopes(graph, 1 << 20);
  ASSERT_EQ(list.total, list.scopes.size());
  for (const auto& s : list.scopes) {
    Scope scope(s.name);
    uint64_t inside = 0;
    for (const auto& node : graph.node()) inside += scope.Contains(node.name()) ? 1 : 0;
    EXPECT_EQ(s.node_count, inside) << s.name;
    EXPECT_GT(inside, 0u) << s.name;
  }
  std::set<std::string> listed;
  for (const auto& s : list.scopes) listed.insert(s.name);
  for (const auto& node : graph.node()) {
    std::string parent = node.name().substr(0, node.name().rfind('/') + 1);
    while (!parent.empty() && parent.back() == '/') parent.pop_back();
    if (!parent.empty()) {
      EXPECT_TRUE(listed.count(parent)) << node.name();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, NameScopesCorpusTest, ::testing::ValuesIn(testing::CorpusGraphs()),
                         testing::CorpusTestName);

}  // namespace
}  // namespace graphport::tf

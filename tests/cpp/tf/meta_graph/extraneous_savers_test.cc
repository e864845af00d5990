// clear_extraneous_savers: which nodes belong to savers other than the exported one
// (TensorFlow's _find_extraneous_saver_nodes, tensorflow.md §1.5).
#include "tf/meta_graph/extraneous_savers.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "meta_graph_test_util.h"
#include "tf_test_graphs.h"

namespace graphport::tf {
namespace {

using mgtest::AddNode;
using mgtest::AddV2Saver;

// saver_test.py testClearExtraneousSavers: exporting saver1 drops exactly saver0's 10 nodes
// (29 nodes -> 19), and the other way round.
TEST(ExtraneousSaversTest, TheOtherSaversNodesExactly) {
  mgtest::TwoSaverGraph g = mgtest::MakeTwoSaverGraph();
  const tensorflow::GraphDef& graph = g.meta_graph.graph_def();
  ASSERT_EQ(graph.node_size(), 29);
  ASSERT_EQ(g.saver0_nodes.size(), size_t{mgtest::kSaverNodes});

  std::set<std::string> for_saver1 = FindExtraneousSaverNodes(graph, &g.saver1);
  EXPECT_EQ(for_saver1, testing::AsSet(g.saver0_nodes));
  EXPECT_EQ(graph.node_size() - static_cast<int>(for_saver1.size()), 19);

  std::set<std::string> for_saver0 = FindExtraneousSaverNodes(graph, &g.saver0);
  EXPECT_EQ(for_saver0, testing::AsSet(g.saver1_nodes));
}

TEST(ExtraneousSaversTest, WithoutASaverDefEverySaverScopeIsExtraneous) {
  mgtest::TwoSaverGraph g = mgtest::MakeTwoSaverGraph();
  std::set<std::string> expected = testing::AsSet(g.saver0_nodes);
  expected.insert(g.saver1_nodes.begin(), g.saver1_nodes.end());
  EXPECT_EQ(FindExtraneousSaverNodes(g.meta_graph.graph_def(), nullptr), expected);
}

TEST(ExtraneousSaversTest, AGraphWithOneSaverLosesNothing) {
  tensorflow::GraphDef graph;
  AddNode(&graph, "v", "VariableV2");
  tensorflow::SaverDef saver = AddV2Saver(&graph, "save", "v", "v");
  EXPECT_TRUE(FindExtraneousSaverNodes(graph, &saver).empty());
}

TEST(ExtraneousSaversTest, RetainedScopesComeFromTheSaveTensorAndTheRestoreOp) {
  tensorflow::GraphDef graph;
  AddNode(&graph, "v", "VariableV2");
  AddV2Saver(&graph, "a", "v", "v");
  AddV2Saver(&graph, "b", "v", "v");
  AddV2Saver(&graph, "c", "v", "v");
  // Save ops in one scope, the restore op in another: both scopes stay. The "^" and ":port"
  // spellings name the same ops.
  tensorflow::SaverDef split;
  split.set_save_tensor_name("a/control_dependency:0");
  split.set_restore_op_name("^b/restore_all");
  std::set<std::string> excluded = FindExtraneousSaverNodes(graph, &split);
  ASSERT_EQ(excluded.size(), size_t{mgtest::kSaverNodes});
  for (const auto& name : excluded) EXPECT_EQ(name.rfind("c/", 0), 0u) << name;
}

// A saver op at the top level has scope "" and so the pattern "/", which no name starts with.
TEST(ExtraneousSaversTest, TopLevelSaverOpExcludesNothing) {
  tensorflow::GraphDef graph;
  AddNode(&graph, "v", "VariableV2");
  AddNode(&graph, "SaveV2", "SaveV2", {"filename", "v"});
  AddNode(&graph, "filename", "Const");
  AddV2Saver(&graph, "save_1", "v", "v");
  std::set<std::string> excluded = FindExtraneousSaverNodes(graph, nullptr);
  EXPECT_EQ(excluded.size(), size_t{mgtest::kSaverNodes});
  EXPECT_EQ(excluded.count("SaveV2"), 0u);
  EXPECT_EQ(excluded.count("filename"), 0u);
  for (const auto& name : excluded) EXPECT_EQ(name.rfind("save_1/", 0), 0u) << name;
}

// TensorFlow removes from the saver scopes any scope that is itself the name of a saver op.
TEST(ExtraneousSaversTest, AScopeThatIsASaverOpNameIsNotASaverScope) {
  tensorflow::GraphDef graph;
  AddNode(&graph, "save", "SaveV2");
  AddNode(&graph, "save/RestoreV2", "RestoreV2");
  AddNode(&graph, "save/helper", "Const");
  EXPECT_TRUE(FindExtraneousSaverNodes(graph, nullptr).empty());
}

TEST(ExtraneousSaversTest, NestedSaverScopesAndNamePrefixes) {
  tensorflow::GraphDef graph;
  AddNode(&graph, "model/v", "VariableV2");
  tensorflow::SaverDef keep = AddV2Saver(&graph, "model/save", "model/v", "v");
  AddV2Saver(&graph, "model/save_1", "model/v", "v");
  // Not under "model/save_1/": a scope matches with its "/".
  AddNode(&graph, "model/save_10/x", "Const");
  AddNode(&graph, "model/save_1", "NoOp");
  std::set<std::string> excluded = FindExtraneousSaverNodes(graph, &keep);
  EXPECT_EQ(excluded.size(), size_t{mgtest::kSaverNodes});
  for (const auto& name : excluded) EXPECT_EQ(name.rfind("model/save_1/", 0), 0u) << name;
}

// Every op of TensorFlow's SAVE_AND_RESTORE_OPS list marks a saver scope; graphport reads its
// "SaveSlice" as the real V1 op "SaveSlices" (README: differences from TensorFlow).
TEST(ExtraneousSaversTest, EverySaveAndRestoreOpMarksASaverScope) {
  for (const char* op :
       {"SaveV2", "Save", "SaveSlices", "LegacySave", "LegacySaveSlice", "RestoreV2", "Restore",
        "RestoreSlice", "LegacyRestore", "LegacyRestoreSlice"}) {
    SCOPED_TRACE(op);
    tensorflow::GraphDef graph;
    AddNode(&graph, "save/op", op);
    AddNode(&graph, "save/Const", "Const");
    AddNode(&graph, "other/Const", "Const");
    EXPECT_EQ(FindExtraneousSaverNodes(graph, nullptr),
              (std::set<std::string>{"save/op", "save/Const"}));
  }
  for (const char* op : {"SaveSlice", "Const", "MergeV2Checkpoints", "ShardedFilename"}) {
    SCOPED_TRACE(op);
    tensorflow::GraphDef graph;
    AddNode(&graph, "save/op", op);
    EXPECT_TRUE(FindExtraneousSaverNodes(graph, nullptr).empty());
  }
}

// A V1 slice saver (SaveSlices + RestoreV2, saver_test.py testStrippedOpListDef's V1 list) beside
// a V2 one: the V1 saver is found and cleared when the V2 one is exported.
TEST(ExtraneousSaversTest, V1SliceSaverIsRecognised) {
  tensorflow::GraphDef graph;
  AddNode(&graph, "v", "VariableV2");
  tensorflow::SaverDef v2 = AddV2Saver(&graph, "save", "v", "v");
  AddNode(&graph, "save_1/Const", "Const");
  AddNode(&graph, "save_1/SaveSlices/tensor_names", "Const");
  AddNode(&graph, "save_1/SaveSlices/shapes_and_slices", "Const");
  AddNode(&graph, "save_1/SaveSlices", "SaveSlices",
          {"save_1/Const", "save_1/SaveSlices/tensor_names", "save_1/SaveSlices/shapes_and_slices",
           "v"});
  AddNode(&graph, "save_1/control_dependency", "Identity", {"save_1/Const", "^save_1/SaveSlices"});
  EXPECT_EQ(FindExtraneousSaverNodes(graph, &v2),
            (std::set<std::string>{"save_1/Const", "save_1/SaveSlices/tensor_names",
                                   "save_1/SaveSlices/shapes_and_slices", "save_1/SaveSlices",
                                   "save_1/control_dependency"}));
  tensorflow::SaverDef v1;
  v1.set_save_tensor_name("save_1/control_dependency:0");
  v1.set_restore_op_name("save_1/restore_all");
  std::set<std::string> excluded = FindExtraneousSaverNodes(graph, &v1);
  EXPECT_EQ(excluded.size(), size_t{mgtest::kSaverNodes});
  for (const auto& name : excluded) EXPECT_EQ(name.rfind("save/", 0), 0u) << name;
}

}  // namespace
}  // namespace graphport::tf

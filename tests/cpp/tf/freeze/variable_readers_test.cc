// Which signatures read each variable (inspect()'s readBy), on TF Serving's SavedModels.
#include "tf/freeze/variable_readers.h"

#include <gtest/gtest.h>

#include "freeze_test_util.h"

namespace graphport::testing {
namespace {

using Readers = std::vector<std::pair<std::string, std::string>>;

Readers Of(const std::vector<tf::VariableReader>& readers) {
  Readers out;
  for (const auto& r : readers) out.emplace_back(r.signature, r.node);
  return out;
}

// half_plus_two TF2: y = a·x + b (serving_default, regress_x_to_y, classify_x_to_y), y2 = a·x
// + c (regress_x2_to_y3, classify_x2_to_y3, regress_x_to_y2): a is read by all six, b and c
// by three each. No value is read, only the object graph.
TEST(VariableReaders, Tf2SignaturesThroughTheirCaptures) {
  if (!CorpusPresent()) FAIL() << MissingCorpusMessage();
  tensorflow::SavedModel model = ReadSavedModel(CorpusDir() / kHalfPlusTwoTf2);
  const tensorflow::MetaGraphDef& meta = model.meta_graphs(0);
  MapStore store = HalfPlusTwoTf2Store(meta);
  auto readers = tf::VariableReaders(meta, meta.graph_def(), &store);
  EXPECT_TRUE(store.reads.empty());
  ASSERT_EQ(readers.size(), 3u);
  auto signatures = [](const Readers& r) {
    std::vector<std::string> out;
    for (const auto& [signature, node] : r) out.push_back(signature);
    return out;
  };
  EXPECT_EQ(signatures(Of(readers["a/.ATTRIBUTES/VARIABLE_VALUE"])),
            (std::vector<std::string>{"classify_x2_to_y3", "classify_x_to_y", "regress_x2_to_y3",
                                      "regress_x_to_y", "regress_x_to_y2", "serving_default"}));
  EXPECT_EQ(signatures(Of(readers["b/.ATTRIBUTES/VARIABLE_VALUE"])),
            (std::vector<std::string>{"classify_x_to_y", "regress_x_to_y", "serving_default"}));
  EXPECT_EQ(signatures(Of(readers["c/.ATTRIBUTES/VARIABLE_VALUE"])),
            (std::vector<std::string>{"classify_x2_to_y3", "regress_x2_to_y3", "regress_x_to_y2"}));
  // The node is the capture's Placeholder, which the freeze makes the Const.
  EXPECT_EQ(Of(readers["b/.ATTRIBUTES/VARIABLE_VALUE"]).back(),
            (std::pair<std::string, std::string>{"serving_default", "unknown_0"}));
}

// half_plus_two TF1: the variables a and b through the restore subgraph's keys.
TEST(VariableReaders, Tf1SignaturesThroughTheirVariableNodes) {
  if (!CorpusPresent()) FAIL() << MissingCorpusMessage();
  tensorflow::SavedModel model = ReadSavedModel(CorpusDir() / kHalfPlusTwoTf1);
  const tensorflow::MetaGraphDef& meta = model.meta_graphs(0);
  MapStore store;
  store.scalars = {{"a", 0.5f}, {"b", 2.0f}, {"c", 3.0f}};
  auto readers = tf::VariableReaders(meta, meta.graph_def(), &store);
  EXPECT_TRUE(store.reads.empty());
  ASSERT_EQ(readers.count("a"), 1u);
  Readers a = Of(readers["a"]);
  EXPECT_NE(
      std::find(a.begin(), a.end(), std::pair<std::string, std::string>{"serving_default", "a"}),
      a.end());
  for (const auto& [key, list] : readers) {
    for (const auto& r : list) EXPECT_EQ(r.node, key) << r.signature;
  }
}

}  // namespace
}  // namespace graphport::testing

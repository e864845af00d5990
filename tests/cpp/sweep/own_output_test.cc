// Every output graphport writes loads back with format "auto" to an equal message (issue 11,
// fault 3): a property over the corpus's graphs, each exported as every kind in both
// encodings, and the damaged input the sweep found it with.
#include <gtest/gtest.h>

#include "harness/exercise.h"
#include "test_util.h"

namespace graphport {
namespace {

class OwnOutputTest : public ::testing::TestWithParam<testing::CorpusGraph> {};

TEST_P(OwnOutputTest, EveryExportLoadsBackAsItself) {
  std::string bytes = testing::ReadFile(GetParam().path());
  MemorySource source(bytes);
  auto model = tf::TfModel::Load(&source, {});
  for (tf::TfKind to :
       {tf::TfKind::kGraphDef, tf::TfKind::kMetaGraphDef, tf::TfKind::kSavedModel}) {
    for (bool as_text : {false, true}) {
      EXPECT_EQ(harness::CheckExportReloads(model.get(), to, as_text), "");
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, OwnOutputTest, ::testing::ValuesIn(testing::CorpusGraphs()),
                         testing::CorpusTestName);

// A SavedModel whose MetaGraphDef holds, deep inside, a known field with another wire type:
// libprotobuf loads it (the field is kept as unknown) and the export writes it back, one level
// nearer the top. Detection used to rule the export out on it.
TEST(OwnOutputTest, AFieldWithAnotherWireTypeDoesNotMakeTheExportUnreadable) {
  tensorflow::SavedModel saved;
  auto* mg = saved.add_meta_graphs();
  mg->mutable_meta_info_def()->add_tags("serve");
  // Twenty nodes: in a graph that small one such field already weighs little against the
  // fields that fit (in a tiny protobuf of another kind it would rule GraphDef out).
  for (int i = 0; i < 20; ++i) {
    auto* node = mg->mutable_graph_def()->add_node();
    node->set_name("n" + std::to_string(i));
    node->set_op("NoOp");
  }
  // NodeDef field 2 (op, a string) as a varint, on the last node: an unknown field to
  // libprotobuf.
  auto* last = mg->mutable_graph_def()->mutable_node(19);
  last->clear_op();
  testing::AddUnknownVarint(last, 2, 7);
  std::string bytes = saved.SerializeAsString();
  MemorySource source(bytes);
  auto model = tf::TfModel::Load(&source, {});
  ASSERT_EQ(model->format().kind, tf::TfKind::kSavedModel);
  for (tf::TfKind to :
       {tf::TfKind::kGraphDef, tf::TfKind::kMetaGraphDef, tf::TfKind::kSavedModel}) {
    EXPECT_EQ(harness::CheckExportReloads(model.get(), to, /*as_text=*/false), "");
  }
}

// A tiny graph with more unknown fields than a score would forgive still reads as a GraphDef,
// since at least as many of its fields are known.
TEST(OwnOutputTest, AGraphWithManyUnknownFieldsStillLoadsAsAGraphDef) {
  tensorflow::GraphDef graph;
  auto* node = graph.add_node();
  node->set_name("a");
  node->set_op("NoOp");
  testing::AddUnknownVarint(node, 9, 1);
  testing::AddUnknownLengthDelimited(&graph, 99, "x");
  std::string bytes = graph.SerializeAsString();
  MemorySource source(bytes);
  auto model = tf::TfModel::Load(&source, {});
  EXPECT_EQ(model->format().kind, tf::TfKind::kGraphDef);
  EXPECT_EQ(harness::CheckExportReloads(model.get(), tf::TfKind::kGraphDef, false), "");
}

}  // namespace
}  // namespace graphport

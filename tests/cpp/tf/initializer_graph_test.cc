#include "tf/initializer_graph.h"

#include <gtest/gtest.h>

namespace graphport::tf {
namespace {

void AddToCollection(tensorflow::MetaGraphDef* meta, const char* key, const std::string& value) {
  (*meta->mutable_collection_def())[key].mutable_node_list()->add_value(value);
}

TEST(CollectionNodeList, ListsTheNodeListOrNothing) {
  tensorflow::MetaGraphDef meta;
  EXPECT_TRUE(CollectionNodeList(meta, kTableInitializerCollection).empty());
  AddToCollection(&meta, kTableInitializerCollection, "init_a");
  AddToCollection(&meta, kTableInitializerCollection, "init_b");
  EXPECT_EQ(CollectionNodeList(meta, kTableInitializerCollection),
            std::vector<std::string>({"init_a", "init_b"}));
  // A bytes_list collection holds no nodes.
  (*meta.mutable_collection_def())["other"].mutable_bytes_list()->add_value("x");
  EXPECT_TRUE(CollectionNodeList(meta, "other").empty());
}

// The loader's order: the __saved_model_init_op signature, then saved_model_main_op, then
// legacy_init_op; each gives its node's name.
TEST(LoaderInitOp, FollowsTheLoadersOrder) {
  tensorflow::MetaGraphDef meta;
  EXPECT_EQ(LoaderInitOp(meta), "");
  AddToCollection(&meta, kLegacyInitOpCollection, "^legacy");
  EXPECT_EQ(LoaderInitOp(meta), "legacy");
  AddToCollection(&meta, kMainOpCollection, "main_op:0");
  EXPECT_EQ(LoaderInitOp(meta), "main_op");
  tensorflow::SignatureDef& signature = (*meta.mutable_signature_def())[kInitOpSignatureKey];
  EXPECT_EQ(LoaderInitOp(meta), "main_op");  // a signature without the output names none
  (*signature.mutable_outputs())[kInitOpSignatureKey].set_name("init_all:0");
  EXPECT_EQ(LoaderInitOp(meta), "init_all");
}

}  // namespace
}  // namespace graphport::tf

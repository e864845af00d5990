#include "tf/freeze/function_tensors.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "freeze_test_util.h"
#include "test_graphs.h"

namespace graphport::testing {
namespace {

using tf::FunctionTensors;

TEST(FunctionTensors, ResolvesOutputArgsOfARealFunctionByItsOpDefs) {
  if (!CorpusPresent()) FAIL() << MissingCorpusMessage();
  tensorflow::SavedModel model = ReadSavedModel(CorpusDir() / kHalfPlusTwoTf2);
  const auto& meta = model.meta_graphs(0);
  tf::OpRegistry registry;
  registry.AddLayer(&meta.meta_info_def().stripped_op_list(), "stripped", true);
  const tensorflow::FunctionDef* predict = nullptr;
  for (const auto& f : meta.graph_def().library().function()) {
    if (f.signature().name() == "__inference_predict_235") predict = &f;
  }
  ASSERT_NE(predict, nullptr);
  FunctionTensors tensors(*predict, registry, meta.graph_def().library());
  FunctionTensors::Tensor mul = tensors.Resolve("Mul:z:0");
  EXPECT_EQ(mul.node, "Mul");
  EXPECT_EQ(mul.index, 0);
  FunctionTensors::Tensor read = tensors.Resolve("Mul/ReadVariableOp:value:0");
  EXPECT_EQ(read.node, "Mul/ReadVariableOp");
  EXPECT_EQ(read.index, 0);
  FunctionTensors::Tensor arg = tensors.Resolve("x");
  EXPECT_EQ(arg.node, "x");
  EXPECT_EQ(arg.index, -1);
}

TEST(FunctionTensors, ListOutputsCountTheirLengthFromNumberAndTypeListAttrs) {
  tensorflow::OpList ops = TestOps();
  tf::OpRegistry registry;
  registry.AddLayer(&ops, "test", true);
  tensorflow::NodeDef split = Node("split", "Split", {"x"});
  (*split.mutable_attr())["num_split"].set_i(3);
  tensorflow::NodeDef idn = Node("idn", "IdentityN", {"x", "x"});
  SetTypeList(&idn, "T", {tensorflow::DT_FLOAT, tensorflow::DT_INT32});
  tensorflow::FunctionDef f = Function("f", {"x"}, {{"y", "idn:output:1"}}, {split, idn});
  tensorflow::FunctionDefLibrary library;
  FunctionTensors tensors(f, registry, library);
  EXPECT_EQ(tensors.Resolve("split:output:2").index, 2);
  EXPECT_EQ(tensors.Resolve("idn:output:1").index, 1);
  // Past the list's length, an unknown arg, an unknown node: each a parse error.
  for (const char* bad : {"split:output:3", "split:nope:0", "missing:output:0", "split:output:x"}) {
    try {
      tensors.Resolve(bad);
      ADD_FAILURE() << bad << " resolved";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kParseError) << bad << ": " << e.what();
    }
  }
}

TEST(FunctionTensors, WithoutAnOpDefTensorFlowsRegistrySaysWhichOpsHaveSeveralOutputs) {
  // SavedModels leave their functions' ops out of stripped_op_list: an empty registry here.
  tensorflow::OpList none;
  tf::OpRegistry registry;
  registry.AddLayer(&none, "empty", true);
  tensorflow::NodeDef bn = Node("bn", "FusedBatchNormV3", {"x", "s", "o", "m", "v"});
  tensorflow::NodeDef split = Node("split", "Split", {"d", "x"});
  (*split.mutable_attr())["num_split"].set_i(2);
  tensorflow::NodeDef odd = Node("odd", "SomeCustomOp", {"x"});
  tensorflow::FunctionDef f = Function("f", {"x"}, {{"y", "odd:out:0"}}, {bn, split, odd});
  tensorflow::FunctionDefLibrary library;
  FunctionTensors tensors(f, registry, library);
  EXPECT_EQ(tensors.Resolve("bn:y:0").index, 0);
  EXPECT_EQ(tensors.Resolve("bn:batch_mean:0").index, 1);
  EXPECT_EQ(tensors.Resolve("bn:reserve_space_3:0").index, 5);
  EXPECT_EQ(tensors.Resolve("split:output:1").index, 1);
  // An op the registry lacks, or one with a single output: its one tensor.
  EXPECT_EQ(tensors.Resolve("odd:out:0").index, 0);
  for (const char* bad : {"odd:out:1", "bn:nope:0", "split:output:2"}) {
    try {
      tensors.Resolve(bad);
      ADD_FAILURE() << bad << " resolved";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kParseError) << bad << ": " << e.what();
    }
  }
}

TEST(FunctionTensors, ACallOfALibraryFunctionHasOneOutputPerOutputArg) {
  tensorflow::OpList ops = TestOps();
  tf::OpRegistry registry;
  registry.AddLayer(&ops, "test", true);
  tensorflow::FunctionDefLibrary library;
  *library.add_function() =
      Function("two", {"a"}, {{"first", "n:y:0"}, {"second", "n:y:0"}}, {Node("n", "Neg", {"a"})});
  tensorflow::FunctionDef f =
      Function("f", {"x"}, {{"y", "c:second:0"}}, {Node("c", "two", {"x"})});
  FunctionTensors tensors(f, registry, library);
  EXPECT_EQ(tensors.Resolve("c:second:0").index, 1);
  EXPECT_EQ(tensors.Resolve("c:first:0").index, 0);
}

}  // namespace
}  // namespace graphport::testing

// The ops the constant folder evaluates, each against values worked out by hand.
#include "tf/optimize/constant_ops.h"

#include <gtest/gtest.h>

#include <cstring>

namespace graphport::tf {
namespace {

template <typename T>
DenseTensor Tensor(tensorflow::DataType dtype, std::vector<int64_t> shape, std::vector<T> values) {
  DenseTensor t;
  t.dtype = dtype;
  t.shape = std::move(shape);
  t.bytes.assign(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
  return t;
}

DenseTensor Ints(std::vector<int64_t> shape, std::vector<int32_t> values) {
  return Tensor(tensorflow::DT_INT32, std::move(shape), std::move(values));
}

DenseTensor Floats(std::vector<int64_t> shape, std::vector<float> values) {
  return Tensor(tensorflow::DT_FLOAT, std::move(shape), std::move(values));
}

std::vector<float> FloatsOf(const DenseTensor& t) {
  std::vector<float> out(t.bytes.size() / 4);
  std::memcpy(out.data(), t.bytes.data(), t.bytes.size());
  return out;
}

tensorflow::NodeDef Node(const std::string& op) {
  tensorflow::NodeDef node;
  node.set_op(op);
  return node;
}

TEST(ConstantOps, ExpandDimsInsertsAOneAtTheAxisNegativeCountingFromTheEnd) {
  DenseTensor out;
  DenseTensor w = Floats({2, 3}, {1, 2, 3, 4, 5, 6});
  ASSERT_TRUE(EvaluateConstantOp(Node("ExpandDims"), {w, Ints({}, {0})}, &out));
  EXPECT_EQ(out.shape, (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(out.bytes, w.bytes);
  ASSERT_TRUE(EvaluateConstantOp(Node("ExpandDims"), {w, Ints({}, {-1})}, &out));
  EXPECT_EQ(out.shape, (std::vector<int64_t>{2, 3, 1}));
  EXPECT_FALSE(EvaluateConstantOp(Node("ExpandDims"), {w, Ints({}, {3})}, &out));
}

TEST(ConstantOps, SqueezeDropsTheOnesOrTheNamedOnes) {
  DenseTensor out;
  DenseTensor x = Floats({1, 2, 1}, {7, 8});
  ASSERT_TRUE(EvaluateConstantOp(Node("Squeeze"), {x}, &out));
  EXPECT_EQ(out.shape, (std::vector<int64_t>{2}));
  tensorflow::NodeDef named = Node("Squeeze");
  (*named.mutable_attr())["squeeze_dims"].mutable_list()->add_i(-1);
  ASSERT_TRUE(EvaluateConstantOp(named, {x}, &out));
  EXPECT_EQ(out.shape, (std::vector<int64_t>{1, 2}));
  (*named.mutable_attr())["squeeze_dims"].mutable_list()->set_i(0, 1);  // size 2
  EXPECT_FALSE(EvaluateConstantOp(named, {x}, &out));
}

TEST(ConstantOps, ReshapeInfersOneDimensionAndChecksTheCount) {
  DenseTensor out;
  DenseTensor x = Floats({2, 3}, {1, 2, 3, 4, 5, 6});
  ASSERT_TRUE(EvaluateConstantOp(Node("Reshape"), {x, Ints({2}, {3, -1})}, &out));
  EXPECT_EQ(out.shape, (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(out.bytes, x.bytes);
  EXPECT_FALSE(EvaluateConstantOp(Node("Reshape"), {x, Ints({2}, {4, -1})}, &out));
  EXPECT_FALSE(EvaluateConstantOp(Node("Reshape"), {x, Ints({2}, {-1, -1})}, &out));
}

TEST(ConstantOps, TransposeMovesEachElement) {
  DenseTensor out;
  // [[1 2 3] [4 5 6]] -> [[1 4] [2 5] [3 6]]
  ASSERT_TRUE(EvaluateConstantOp(Node("Transpose"),
                                 {Floats({2, 3}, {1, 2, 3, 4, 5, 6}), Ints({2}, {1, 0})}, &out));
  EXPECT_EQ(out.shape, (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(FloatsOf(out), (std::vector<float>{1, 4, 2, 5, 3, 6}));
  // A 3-D permutation: x[i][j][k] = 100i + 10j + k, shape [2, 2, 3], perm [2, 0, 1]:
  // out[k][i][j] = x[i][j][k].
  std::vector<float> x;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 3; ++k) x.push_back(100 * i + 10 * j + k);
  ASSERT_TRUE(
      EvaluateConstantOp(Node("Transpose"), {Floats({2, 2, 3}, x), Ints({3}, {2, 0, 1})}, &out));
  EXPECT_EQ(out.shape, (std::vector<int64_t>{3, 2, 2}));
  EXPECT_EQ(FloatsOf(out), (std::vector<float>{0, 10, 100, 110, 1, 11, 101, 111, 2, 12, 102, 112}));
  EXPECT_FALSE(EvaluateConstantOp(Node("Transpose"), {Floats({2, 3}, x), Ints({2}, {0, 0})}, &out));
}

TEST(ConstantOps, ConcatV2JoinsAlongTheAxisInOrder) {
  DenseTensor out;
  DenseTensor a = Floats({2, 1}, {1, 2});
  DenseTensor b = Floats({2, 2}, {3, 4, 5, 6});
  ASSERT_TRUE(EvaluateConstantOp(Node("ConcatV2"), {a, b, Ints({}, {1})}, &out));
  EXPECT_EQ(out.shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(FloatsOf(out), (std::vector<float>{1, 3, 4, 2, 5, 6}));
  // Keras's Tensordot: free [0, 1] and axes [2] give the permutation [0, 1, 2].
  ASSERT_TRUE(EvaluateConstantOp(Node("ConcatV2"),
                                 {Ints({2}, {0, 1}), Ints({1}, {2}), Ints({}, {0})}, &out));
  EXPECT_EQ(out.dtype, tensorflow::DT_INT32);
  EXPECT_EQ(out.bytes, Ints({3}, {0, 1, 2}).bytes);
  EXPECT_FALSE(EvaluateConstantOp(Node("ConcatV2"), {a, b, Ints({}, {0})}, &out));  // 1 vs 2
  EXPECT_FALSE(
      EvaluateConstantOp(Node("ConcatV2"), {a, Ints({2, 1}, {1, 2}), Ints({}, {0})}, &out));
}

TEST(ConstantOps, PackStacksOnANewAxis) {
  DenseTensor out;
  tensorflow::NodeDef pack = Node("Pack");
  (*pack.mutable_attr())["axis"].set_i(1);
  ASSERT_TRUE(EvaluateConstantOp(pack, {Floats({2}, {1, 2}), Floats({2}, {3, 4})}, &out));
  EXPECT_EQ(out.shape, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(FloatsOf(out), (std::vector<float>{1, 3, 2, 4}));
}

TEST(ConstantOps, ShapeIsInt32UnlessAskedForInt64) {
  DenseTensor out;
  ASSERT_TRUE(EvaluateConstantOp(Node("Shape"), {Floats({2, 3}, {1, 2, 3, 4, 5, 6})}, &out));
  EXPECT_EQ(out.bytes, Ints({2}, {2, 3}).bytes);
  tensorflow::NodeDef wide = Node("Shape");
  (*wide.mutable_attr())["out_type"].set_type(tensorflow::DT_INT64);
  ASSERT_TRUE(EvaluateConstantOp(wide, {Floats({4}, {1, 2, 3, 4})}, &out));
  EXPECT_EQ(out.dtype, tensorflow::DT_INT64);
  EXPECT_EQ(out.bytes.size(), 8u);
}

TEST(ConstantOps, OtherOpsAreNotEvaluated) {
  DenseTensor out;
  EXPECT_FALSE(IsFoldableOp("Mul"));
  EXPECT_FALSE(EvaluateConstantOp(Node("Mul"), {Floats({1}, {2}), Floats({1}, {3})}, &out));
}

// Typed value lists: a shorter list repeats its last value; none at all is zeros.
TEST(DenseTensor, TypedListsFillTheShapeAsTensorFlowReadsThem) {
  tensorflow::TensorProto proto;
  proto.set_dtype(tensorflow::DT_INT32);
  proto.mutable_tensor_shape()->add_dim()->set_size(3);
  proto.add_int_val(7);
  DenseTensor t;
  ASSERT_TRUE(ReadDenseTensor(proto, &t));
  EXPECT_EQ(t.bytes, Ints({3}, {7, 7, 7}).bytes);
  proto.clear_int_val();
  ASSERT_TRUE(ReadDenseTensor(proto, &t));
  EXPECT_EQ(t.bytes, Ints({3}, {0, 0, 0}).bytes);
  proto.set_tensor_content(std::string(5, '\0'));  // 5 bytes for 3 int32s
  EXPECT_FALSE(ReadDenseTensor(proto, &t));
  proto.set_dtype(tensorflow::DT_STRING);
  EXPECT_FALSE(ReadDenseTensor(proto, &t));
  // One value standing for 2^30 floats is not made real.
  proto.Clear();
  proto.set_dtype(tensorflow::DT_FLOAT);
  proto.mutable_tensor_shape()->add_dim()->set_size(int64_t{1} << 30);
  proto.add_float_val(0);
  EXPECT_FALSE(ReadDenseTensor(proto, &t));
}

}  // namespace
}  // namespace graphport::tf

#include "tf/wire_tensor.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "test_util.h"
#include "tf/inspect.h"
#include "tf/tf_model.h"

namespace graphport::tf {
namespace {

using testing::CorpusGraph;

// What inspect() counts for a Const node read from its canonical bytes, next to what it counts
// for the same node parsed.
void ExpectSameAsParsed(const tensorflow::NodeDef& node, const std::string& what) {
  const std::string bytes = testing::DeterministicBytes(node);
  auto it = node.attr().find("value");
  const uint64_t parsed = it != node.attr().end() && it->second.has_tensor()
                              ? TensorPayloadBytes(it->second.tensor())
                              : 0;
  EXPECT_EQ(CanonicalConstPayloadBytes(bytes), parsed) << what;
}

tensorflow::NodeDef Const(tensorflow::DataType dtype, std::initializer_list<int64_t> dims) {
  tensorflow::NodeDef node;
  node.set_name("scope/const");
  node.set_op("Const");
  node.set_device("/device:CPU:0");
  (*node.mutable_attr())["dtype"].set_type(dtype);
  tensorflow::TensorProto* t = (*node.mutable_attr())["value"].mutable_tensor();
  t->set_dtype(dtype);
  for (int64_t d : dims) t->mutable_tensor_shape()->add_dim()->set_size(d);
  return node;
}

tensorflow::TensorProto* TensorOf(tensorflow::NodeDef* node) {
  return (*node->mutable_attr())["value"].mutable_tensor();
}

TEST(CanonicalConstPayloadBytesTest, TypedValuesCountTheWholeShape) {
  tensorflow::NodeDef scalar = Const(tensorflow::DT_FLOAT, {});
  TensorOf(&scalar)->add_float_val(0.5f);
  ExpectSameAsParsed(scalar, "scalar");
  EXPECT_EQ(CanonicalConstPayloadBytes(testing::DeterministicBytes(scalar)), 4u);

  tensorflow::NodeDef splat = Const(tensorflow::DT_INT64, {2, 3, 300});
  TensorOf(&splat)->add_int64_val(7);
  ExpectSameAsParsed(splat, "splat");
  EXPECT_EQ(CanonicalConstPayloadBytes(testing::DeterministicBytes(splat)), 8u * 2 * 3 * 300);

  tensorflow::NodeDef empty_dim = Const(tensorflow::DT_FLOAT, {4, 0});
  TensorOf(&empty_dim)->add_float_val(1);
  ExpectSameAsParsed(empty_dim, "a zero dim");

  tensorflow::NodeDef no_values = Const(tensorflow::DT_FLOAT, {4});
  ExpectSameAsParsed(no_values, "no values");
  EXPECT_EQ(CanonicalConstPayloadBytes(testing::DeterministicBytes(no_values)), 0u);
}

TEST(CanonicalConstPayloadBytesTest, ContentAndStrings) {
  tensorflow::NodeDef content = Const(tensorflow::DT_UINT8, {10});
  TensorOf(&content)->set_tensor_content(std::string(10, 'x'));
  ExpectSameAsParsed(content, "tensor_content");

  tensorflow::NodeDef large = Const(tensorflow::DT_FLOAT, {100, 100});
  TensorOf(&large)->set_tensor_content(std::string(40000, '\0'));  // lengths of 3 bytes
  ExpectSameAsParsed(large, "large tensor_content");

  tensorflow::NodeDef strings = Const(tensorflow::DT_STRING, {2});
  TensorOf(&strings)->add_string_val("abc");
  TensorOf(&strings)->add_string_val(std::string(200, 'y'));
  ExpectSameAsParsed(strings, "string_val");
}

// Shapes the bytes are not read for (a dim name, a negative size) are parsed: the verdict is
// libprotobuf's.
TEST(CanonicalConstPayloadBytesTest, UnusualShapesAgreeWithTheParse) {
  tensorflow::NodeDef named = Const(tensorflow::DT_INT32, {4});
  TensorOf(&named)->mutable_tensor_shape()->mutable_dim(0)->set_name("batch");
  TensorOf(&named)->add_int_val(1);
  ExpectSameAsParsed(named, "a named dim");
  EXPECT_EQ(CanonicalConstPayloadBytes(testing::DeterministicBytes(named)), 16u);

  tensorflow::NodeDef negative = Const(tensorflow::DT_INT32, {-1, 3});
  TensorOf(&negative)->add_int_val(1);
  ExpectSameAsParsed(negative, "a negative dim");

  tensorflow::NodeDef unknown = Const(tensorflow::DT_INT32, {3});
  TensorOf(&unknown)->mutable_tensor_shape()->set_unknown_rank(true);
  TensorOf(&unknown)->add_int_val(1);
  ExpectSameAsParsed(unknown, "unknown rank");

  tensorflow::NodeDef overflow = Const(tensorflow::DT_INT32, {int64_t{1} << 62, 4, 0});
  TensorOf(&overflow)->add_int_val(1);
  ExpectSameAsParsed(overflow, "an element count past int64");
}

TEST(CanonicalConstPayloadBytesTest, ANodeWithoutAValueHasNone) {
  tensorflow::NodeDef node;
  node.set_name("c");
  node.set_op("Const");
  (*node.mutable_attr())["dtype"].set_type(tensorflow::DT_FLOAT);
  ExpectSameAsParsed(node, "no value attr");
  (*node.mutable_attr())["value"].set_i(3);
  ExpectSameAsParsed(node, "a value that is no tensor");
  EXPECT_EQ(CanonicalConstPayloadBytes(testing::DeterministicBytes(node)), 0u);
}

class CanonicalConstCorpusTest : public ::testing::TestWithParam<CorpusGraph> {};

TEST_P(CanonicalConstCorpusTest, EveryConstAgreesWithItsParse) {
  std::string bytes = testing::ReadFile(GetParam().path());
  MemorySource source(bytes);
  auto model = TfModel::Load(&source, TfLoadOptions{});
  for (const auto& node : model->graph().node()) {
    if (node.op() == "Const") ExpectSameAsParsed(node, node.name());
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, CanonicalConstCorpusTest,
                         ::testing::ValuesIn(testing::CorpusGraphs()), testing::CorpusTestName);

}  // namespace
}  // namespace graphport::tf

// The generated code of the MegEngine schemas (src/mge/schema/) verifies and reads the real
// corpus files as the research describes them (megengine.md §2.2, §4).

#include "schema_test_util.h"

namespace graphport::mge {
namespace {

using namespace schema_testing;  // NOLINT: the shared helpers of this suite

TEST(MgeSchemaCorpusTest, ConvolutionBackwardFilterFileVerifiesAndReads) {
  V1File file = LoadMgbs(kConvFile);
  ASSERT_EQ(file.bytes.size(), 1324u);
  ASSERT_TRUE(VerifiesAsGraph(file));
  EXPECT_TRUE(fbs::SizePrefixedGraphBufferHasIdentifier(file.data()));
  const fbs::Graph& graph = *file.graph();
  EXPECT_EQ(graph.mgb_version(), 1799900u);
  EXPECT_EQ(graph.hash(), 0x9e62dbf156949217ull);
  EXPECT_EQ(graph.metadata(), nullptr);
  EXPECT_EQ(graph.nr_shared_tensor(), 0u);
  EXPECT_EQ(file.blob_size, 204u);
  EXPECT_EQ(TensorValueBytes(graph), file.blob_size);

  ASSERT_EQ(graph.oprs()->size(), 11u);
  std::map<uint64_t, int> expected = {{kHost2DeviceCopy, 1}, {kImmutableTensor, 3},
                                      {kConvolution, 1},     {kElemwise, 1},
                                      {kGetVarShape, 2},     {kBroadcast, 1},
                                      {kReduce, 1},          {kConvolutionBackwardFilter, 1}};
  EXPECT_EQ(TypeIdCounts(graph), expected);

  for (const fbs::Operator* opr : *graph.oprs()) {
    switch (opr->type_id()) {
      case kHost2DeviceCopy: {
        ASSERT_NE(opr->param_as_param_Host2DeviceCopy(), nullptr);
        ASSERT_EQ(opr->tensors()->size(), 1u);
        const fbs::Tensor& input = *opr->tensors()->Get(0);
        EXPECT_EQ(input.name()->str(), "arg_0");
        EXPECT_EQ(Shape(input), (std::vector<uint32_t>{8, 1, 32, 32}));
        ASSERT_NE(input.dtype(), nullptr);
        EXPECT_EQ(input.dtype()->type(), fbs::DTypeEnum_Float32);
        EXPECT_EQ(input.data_size(), 0u);  // an input: no value
        break;
      }
      case kImmutableTensor:
        EXPECT_EQ(opr->param_type(), fbs::OperatorParam_NONE);
        ASSERT_EQ(opr->tensors()->size(), 1u);
        EXPECT_EQ(opr->tensors()->Get(0)->name(), nullptr);  // constants are anonymous
        EXPECT_GT(opr->tensors()->Get(0)->data_size(), 0u);
        break;
      case kConvolution:
      case kConvolutionBackwardFilter:
        // Convolution param, then ExecutionPolicy as the one additional param (§2.10).
        ASSERT_NE(opr->param_as_param_Convolution(), nullptr);
        ASSERT_NE(opr->additional_params_type(), nullptr);
        ASSERT_EQ(opr->additional_params_type()->size(), 1u);
        EXPECT_EQ(opr->additional_params_type()->Get(0), fbs::OperatorParam_param_ExecutionPolicy);
        break;
      case kElemwise:
        ASSERT_NE(opr->param_as_param_Elemwise(), nullptr);
        EXPECT_EQ(opr->param_as_param_Elemwise()->mode(), param::ElemwiseMode_ADD);
        EXPECT_EQ(opr->inputs()->size(), 2u);
        break;
      case kGetVarShape:
        ASSERT_NE(opr->param_as_param_OptionalAxisV1(), nullptr);
        break;
      case kBroadcast:
        ASSERT_NE(opr->param_as_param_Empty(), nullptr);
        break;
      case kReduce:
        ASSERT_NE(opr->param_as_param_Reduce(), nullptr);
        EXPECT_EQ(opr->param_as_param_Reduce()->mode(), param::ReduceMode_SUM);
        break;
    }
  }
  const fbs::Operator& output = OutputOperator(graph);
  EXPECT_EQ(output.type_id(), kConvolutionBackwardFilter);
  ASSERT_NE(output.output_name(), nullptr);
  ASSERT_EQ(output.output_name()->size(), 1u);
  EXPECT_EQ(output.output_name()->Get(0)->str(), "OprAttr");
}

TEST(MgeSchemaCorpusTest, ReshapeFileVerifiesAndReads) {
  V1File file = LoadMgbs(kReshapeFile);
  ASSERT_EQ(file.bytes.size(), 840u);
  ASSERT_TRUE(VerifiesAsGraph(file));
  const fbs::Graph& graph = *file.graph();
  EXPECT_EQ(graph.mgb_version(), 1799900u);
  EXPECT_EQ(graph.hash(), 0x0f003fe0f89b6571ull);
  EXPECT_EQ(TensorValueBytes(graph), file.blob_size);

  ASSERT_EQ(graph.oprs()->size(), 7u);
  std::map<uint64_t, int> expected = {{kHost2DeviceCopy, 1}, {kImmutableTensor, 3}, {kReshape, 3}};
  EXPECT_EQ(TypeIdCounts(graph), expected);
  for (const fbs::Operator* opr : *graph.oprs()) {
    if (opr->type_id() == kHost2DeviceCopy) {
      const fbs::Tensor& input = *opr->tensors()->Get(0);
      EXPECT_EQ(input.name()->str(), "data");
      EXPECT_EQ(Shape(input), (std::vector<uint32_t>{1, 2, 3, 4}));
      EXPECT_EQ(input.dtype()->type(), fbs::DTypeEnum_Float32);
    } else if (opr->type_id() == kImmutableTensor) {
      // The target shapes: int32 vectors, 4 bytes per element.
      const fbs::Tensor& shape = *opr->tensors()->Get(0);
      EXPECT_EQ(shape.dtype()->type(), fbs::DTypeEnum_Int32);
      ASSERT_EQ(Shape(shape).size(), 1u);
      EXPECT_EQ(shape.data_size(), 4u * Shape(shape)[0]);
    } else {
      EXPECT_NE(opr->param_as_param_OptionalAxisV1(), nullptr);
      EXPECT_EQ(opr->inputs()->size(), 2u);
    }
  }
  const fbs::Operator& output = OutputOperator(graph);
  EXPECT_EQ(output.type_id(), kReshape);
  ASSERT_NE(output.output_name(), nullptr);
  EXPECT_EQ(output.output_name()->Get(0)->str(), "reshape(reshape[8])[12]");
}

// A byte flipped in the root offset, or a size prefix that overstates the bytes, must not
// verify: the verifier guards every read of an untrusted file.
TEST(MgeSchemaCorpusTest, DamagedBuffersDoNotVerify) {
  V1File file = LoadMgbs(kReshapeFile);
  ASSERT_TRUE(VerifiesAsGraph(file));
  V1File bad_root = file;
  reinterpret_cast<uint8_t*>(bad_root.flatbuffer.data())[4] = 0xff;
  reinterpret_cast<uint8_t*>(bad_root.flatbuffer.data())[5] = 0xff;
  EXPECT_FALSE(VerifiesAsGraph(bad_root));
  V1File truncated = file;
  truncated.flatbuffer_size -= 8;
  EXPECT_FALSE(VerifiesAsGraph(truncated));
  V1File bad_identifier = file;
  reinterpret_cast<uint8_t*>(bad_identifier.flatbuffer.data())[8] = 'x';
  EXPECT_FALSE(VerifiesAsGraph(bad_identifier));
}

// The generated verifier rejects the flatbuffer of both files cut at every byte.
TEST(MgeSchemaCorpusTest, EveryTruncationFailsVerification) {
  for (const char* name : {kConvFile, kReshapeFile}) {
    V1File file = LoadMgbs(name);
    ASSERT_TRUE(VerifiesAsGraph(file)) << name;
    for (size_t size = 0; size < file.flatbuffer_size; ++size) {
      flatbuffers::Verifier verifier(file.data(), size);
      EXPECT_FALSE(fbs::VerifySizePrefixedGraphBuffer(verifier)) << name << " cut at " << size;
    }
  }
}

}  // namespace
}  // namespace graphport::mge

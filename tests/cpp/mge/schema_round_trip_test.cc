// A buffer built with the generated builders reads back by field name through reflection, and
// older releases' param layouts (megengine_params.md §7) decode through theirs.

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "schema_test_util.h"

namespace graphport::mge {
namespace {

using namespace schema_testing;  // NOLINT: the shared helpers of this suite

// --- Builder and reflection agree ----------------------------------------------------------------

// Reads a scalar param field by name through reflection, the way a generic decoder does.
int64_t SignedByName(const reflection::Object& object, const flatbuffers::Table& table,
                     const char* name) {
  const reflection::Field& field = FieldOf(object, name);
  switch (field.type()->base_type()) {
    case reflection::Bool:
    case reflection::UByte:
      return flatbuffers::GetFieldI<uint8_t>(table, field);
    case reflection::Byte:
      return flatbuffers::GetFieldI<int8_t>(table, field);
    case reflection::Int:
      return flatbuffers::GetFieldI<int32_t>(table, field);
    case reflection::UInt:
      return flatbuffers::GetFieldI<uint32_t>(table, field);
    default:
      ADD_FAILURE() << name << " is not a small integer field";
      return 0;
  }
}

std::string EnumNameByField(const reflection::Schema& schema, const reflection::Object& object,
                            const flatbuffers::Table& table, const char* name) {
  const reflection::Field& field = FieldOf(object, name);
  const reflection::Enum* e = schema.enums()->Get(field.type()->index());
  const reflection::EnumVal* value = e->values()->LookupByKey(SignedByName(object, table, name));
  return value ? value->name()->str() : "?";
}

TEST(MgeSchemaRoundTripTest, GeneratedBuilderOutputReadsBackByFieldName) {
  flatbuffers::FlatBufferBuilder builder;
  std::vector<flatbuffers::Offset<fbs::v2::Operator>> oprs;

  auto conv =
      param::CreateConvolution(builder, param::ConvolutionV0Mode_CONVOLUTION, 2, 0, 1, 3, 1, 1,
                               param::ConvolutionV0Sparse_GROUP, param::ConvolutionFormat_NHWC,
                               param::ConvolutionV1ComputeMode_FLOAT32);
  auto policy = param::CreateExecutionPolicy(
      builder,
      static_cast<param::ExecutionPolicyStrategy>(param::ExecutionPolicyStrategy_PROFILE |
                                                  param::ExecutionPolicyStrategy_REPRODUCIBLE),
      uint64_t{1} << 40);
  std::vector<uint8_t> extra_types = {fbs::v2::OperatorParam_param_ExecutionPolicy};
  std::vector<flatbuffers::Offset<void>> extra = {policy.Union()};
  oprs.push_back(fbs::v2::CreateOperator(
      builder, builder.CreateSharedString("ConvolutionForward"), 0xbc193eef48c27b7eull, 0,
      fbs::v2::OperatorParam_param_Convolution, conv.Union(), builder.CreateVector(extra_types),
      builder.CreateVector(extra)));

  auto reduce =
      param::CreateReduce(builder, param::ReduceMode_MEAN, 1, param::ReduceDataType_FLOAT_O32xC32);
  oprs.push_back(fbs::v2::CreateOperator(builder, 0, 0, 0, fbs::v2::OperatorParam_param_Reduce,
                                         reduce.Union()));
  std::vector<int32_t> pattern = {0, -1, 1};
  auto dimshuffle = param::CreateDimshuffleDirect(builder, &pattern, 2);
  oprs.push_back(fbs::v2::CreateOperator(builder, 0, 0, 0, fbs::v2::OperatorParam_param_Dimshuffle,
                                         dimshuffle.Union()));
  auto qdtype = fbs::CreateDType(builder, fbs::DTypeEnum_Quantized8Asymm,
                                 fbs::DTypeParam_LinearQuantizationParam,
                                 fbs::CreateLinearQuantizationParam(builder, 0.5f, 128).Union());
  oprs.push_back(
      fbs::v2::CreateOperator(builder, 0, 0, 0, fbs::v2::OperatorParam_DType, qdtype.Union()));
  auto model = fbs::v2::CreateModel(builder, 1099900, 2, builder.CreateVector(oprs));
  fbs::v2::FinishSizePrefixedModelBuffer(builder, model);

  flatbuffers::Verifier verifier(builder.GetBufferPointer(), builder.GetSize());
  ASSERT_TRUE(fbs::v2::VerifySizePrefixedModelBuffer(verifier));
  ASSERT_EQ(std::string(reinterpret_cast<const char*>(builder.GetBufferPointer()) + 8, 4), "mgv2");

  const reflection::Schema& schema = ModelV2Schema();
  const reflection::Object& model_object = *schema.root_table();
  auto* root = flatbuffers::GetAnyRoot(builder.GetBufferPointer() + sizeof(flatbuffers::uoffset_t));
  auto* opr_vector = flatbuffers::GetFieldV<flatbuffers::Offset<flatbuffers::Table>>(
      *root, FieldOf(model_object, "oprs"));
  ASSERT_NE(opr_vector, nullptr);
  ASSERT_EQ(opr_vector->size(), 4u);
  const reflection::Object& opr_object = Table(schema, "mgb.serialization.fbs.v2.Operator");
  auto param_of = [&](const flatbuffers::Table& opr) -> const flatbuffers::Table* {
    return flatbuffers::GetFieldT(opr, FieldOf(opr_object, "param"));
  };
  auto param_type_of = [&](const flatbuffers::Table& opr) {
    return flatbuffers::GetFieldI<uint8_t>(opr, FieldOf(opr_object, "param_type"));
  };

  // Convolution: non-default fields as set, omitted ones as the schema's defaults.
  const flatbuffers::Table& conv_opr = *opr_vector->Get(0);
  EXPECT_EQ(flatbuffers::GetFieldS(conv_opr, FieldOf(opr_object, "type"))->str(),
            "ConvolutionForward");
  const reflection::Object* conv_object = OperatorParamTable(schema, param_type_of(conv_opr));
  ASSERT_NE(conv_object, nullptr);
  EXPECT_EQ(conv_object->name()->str(), "mgb.serialization.fbs.param.Convolution");
  const flatbuffers::Table& conv_table = *param_of(conv_opr);
  EXPECT_EQ(EnumNameByField(schema, *conv_object, conv_table, "mode"), "CONVOLUTION");
  EXPECT_EQ(SignedByName(*conv_object, conv_table, "pad_h"), 2);
  EXPECT_EQ(SignedByName(*conv_object, conv_table, "pad_w"), 0);
  EXPECT_EQ(SignedByName(*conv_object, conv_table, "stride_h"), 1);
  EXPECT_EQ(SignedByName(*conv_object, conv_table, "stride_w"), 3);
  EXPECT_EQ(SignedByName(*conv_object, conv_table, "dilate_h"), 1);
  EXPECT_EQ(EnumNameByField(schema, *conv_object, conv_table, "sparse"), "GROUP");
  EXPECT_EQ(EnumNameByField(schema, *conv_object, conv_table, "format"), "NHWC");
  EXPECT_EQ(EnumNameByField(schema, *conv_object, conv_table, "compute_mode"), "FLOAT32");

  // Its additional param: ExecutionPolicy through the vector of unions.
  auto* extra_type_vector =
      flatbuffers::GetFieldV<uint8_t>(conv_opr, FieldOf(opr_object, "additional_params_type"));
  auto* extra_vector = flatbuffers::GetFieldV<flatbuffers::Offset<flatbuffers::Table>>(
      conv_opr, FieldOf(opr_object, "additional_params"));
  ASSERT_NE(extra_type_vector, nullptr);
  ASSERT_NE(extra_vector, nullptr);
  ASSERT_EQ(extra_type_vector->size(), 1u);
  const reflection::Object* policy_object = OperatorParamTable(schema, extra_type_vector->Get(0));
  ASSERT_NE(policy_object, nullptr);
  EXPECT_EQ(policy_object->name()->str(), "mgb.serialization.fbs.param.ExecutionPolicy");
  EXPECT_EQ(SignedByName(*policy_object, *extra_vector->Get(0), "strategy"), 2 | 4);
  EXPECT_EQ(flatbuffers::GetFieldI<uint64_t>(*extra_vector->Get(0),
                                             FieldOf(*policy_object, "workspace_limit")),
            uint64_t{1} << 40);

  // Reduce.
  const flatbuffers::Table& reduce_opr = *opr_vector->Get(1);
  const reflection::Object* reduce_object = OperatorParamTable(schema, param_type_of(reduce_opr));
  ASSERT_NE(reduce_object, nullptr);
  EXPECT_EQ(EnumNameByField(schema, *reduce_object, *param_of(reduce_opr), "mode"), "MEAN");
  EXPECT_EQ(SignedByName(*reduce_object, *param_of(reduce_opr), "axis"), 1);
  EXPECT_EQ(EnumNameByField(schema, *reduce_object, *param_of(reduce_opr), "data_type"),
            "FLOAT_O32xC32");

  // Dimshuffle: a vector field and a scalar.
  const flatbuffers::Table& dimshuffle_opr = *opr_vector->Get(2);
  const reflection::Object* dimshuffle_object =
      OperatorParamTable(schema, param_type_of(dimshuffle_opr));
  ASSERT_NE(dimshuffle_object, nullptr);
  auto* read_pattern = flatbuffers::GetFieldV<int32_t>(*param_of(dimshuffle_opr),
                                                       FieldOf(*dimshuffle_object, "pattern"));
  ASSERT_NE(read_pattern, nullptr);
  EXPECT_EQ(std::vector<int32_t>(read_pattern->begin(), read_pattern->end()), pattern);
  EXPECT_EQ(SignedByName(*dimshuffle_object, *param_of(dimshuffle_opr), "ndim"), 2);

  // TypeCvt's param is dtype.fbs's DType (67), with a nested union.
  const flatbuffers::Table& cvt_opr = *opr_vector->Get(3);
  const reflection::Object* dtype_object = OperatorParamTable(schema, param_type_of(cvt_opr));
  ASSERT_NE(dtype_object, nullptr);
  EXPECT_EQ(dtype_object->name()->str(), "mgb.serialization.fbs.DType");
  EXPECT_EQ(EnumNameByField(schema, *dtype_object, *param_of(cvt_opr), "type"), "Quantized8Asymm");
  const flatbuffers::Table* quant =
      flatbuffers::GetFieldT(*param_of(cvt_opr), FieldOf(*dtype_object, "param"));
  ASSERT_NE(quant, nullptr);
  const reflection::Object& quant_object =
      Table(schema, "mgb.serialization.fbs.LinearQuantizationParam");
  EXPECT_FLOAT_EQ(flatbuffers::GetFieldF<float>(*quant, FieldOf(quant_object, "scale")), 0.5f);
  EXPECT_EQ(SignedByName(quant_object, *quant, "zero_point"), 128);
}

// MegEngine writes V2 params with its v1 union numbers (megengine.md §2.8), so a V2 file can
// hold ExponentialRNG (98), which schema_v2 does not declare: it still verifies, and decodes
// through the v1 schema's table.
TEST(MgeSchemaRoundTripTest, V2FileWithAV1OnlyParamVerifiesAndDecodesThroughV1) {
  flatbuffers::FlatBufferBuilder builder;
  auto rng = param::CreateExponentialRNG(builder, 12345);
  std::vector<flatbuffers::Offset<fbs::v2::Operator>> oprs = {fbs::v2::CreateOperator(
      builder, 0, 0, 0,
      static_cast<fbs::v2::OperatorParam>(fbs::OperatorParam_param_ExponentialRNG), rng.Union())};
  fbs::v2::FinishSizePrefixedModelBuffer(
      builder, fbs::v2::CreateModel(builder, 0, 2, builder.CreateVector(oprs)));
  flatbuffers::Verifier verifier(builder.GetBufferPointer(), builder.GetSize());
  ASSERT_TRUE(fbs::v2::VerifySizePrefixedModelBuffer(verifier));

  const fbs::v2::Operator& opr =
      *fbs::v2::GetSizePrefixedModel(builder.GetBufferPointer())->oprs()->Get(0);
  EXPECT_EQ(OperatorParamTable(ModelV2Schema(), opr.param_type()), nullptr);
  const reflection::Object* object = OperatorParamTable(GraphV1Schema(), opr.param_type());
  ASSERT_NE(object, nullptr);
  EXPECT_EQ(object->name()->str(), "mgb.serialization.fbs.param.ExponentialRNG");
  const auto& table = *reinterpret_cast<const flatbuffers::Table*>(opr.param());
  EXPECT_EQ(flatbuffers::GetFieldI<uint64_t>(table, FieldOf(*object, "seed")), 12345u);
}

// The same bytes through the v1 schema: a corpus operator's params by field name.
TEST(MgeSchemaRoundTripTest, CorpusParamsReadByFieldName) {
  V1File file = LoadMgbs(kConvFile);
  ASSERT_TRUE(VerifiesAsGraph(file));
  const reflection::Schema& schema = GraphV1Schema();
  int seen = 0;
  for (const fbs::Operator* opr : *file.graph()->oprs()) {
    if (opr->type_id() != kElemwise && opr->type_id() != kReduce) continue;
    const reflection::Object* object = OperatorParamTable(schema, opr->param_type());
    ASSERT_NE(object, nullptr);
    const auto& table = *reinterpret_cast<const flatbuffers::Table*>(opr->param());
    EXPECT_EQ(EnumNameByField(schema, *object, table, "mode"),
              opr->type_id() == kElemwise ? "ADD" : "SUM");
    ++seen;
  }
  EXPECT_EQ(seen, 2);
}

// --- Layouts of older releases (megengine_params.md §7) ------------------------------------------

std::string LayoutTable(const reflection::Schema& schema, uint8_t type, uint32_t version) {
  ParamLayout layout = ParamLayoutAsWritten(schema, type, version);
  return layout.table ? layout.table->name()->str() : "";
}

// Writer versions: v0.3.1 = 8.3.0, v1.1.0 = 8.8.0, v1.2.0 = 8.9.0, v1.3.0 = 8.10.0, v1.4.0 =
// 8.11.0 (MegBrain's numbers); 8.9999.0 is ambiguous; 1.12.3 and later are the releases.
TEST(MgeSchemaHistoryTest, EachReleasesMembersMapToTheLayoutItWrote) {
  const reflection::Schema& v1 = GraphV1Schema();
  const std::string p = "mgb.serialization.fbs.param.";
  const std::string h = "graphport.mge.history.";
  // Up to v1.2.0 the format-carrying members had today's legacy layouts.
  EXPECT_EQ(LayoutTable(v1, 3, 800800), p + "ConvolutionV1");
  EXPECT_EQ(LayoutTable(v1, 6, 800900), p + "ConvBiasV3");
  EXPECT_EQ(LayoutTable(v1, 9, 800300), p + "PoolingV0");
  EXPECT_EQ(LayoutTable(v1, 72, 800800), p + "DctChannelSelectV0");
  EXPECT_EQ(LayoutTable(v1, 55, 800900), p + "ExecutionPolicyV0");
  EXPECT_EQ(LayoutTable(v1, 21, 800800), h + "Winograd");
  EXPECT_EQ(LayoutTable(v1, 21, 800900), "mgb.serialization.fbs.DeprecatedParam");
  EXPECT_EQ(LayoutTable(v1, 8, 801000), h + "Images2NeibsV1_3");
  EXPECT_EQ(LayoutTable(v1, 8, 801100), p + "Images2Neibs");
  EXPECT_EQ(LayoutTable(v1, 3, 801000), p + "Convolution");
  EXPECT_EQ(LayoutTable(ModelV2Schema(), 95, 101203), h + "MultiHeadAttnV1_12_3");
  EXPECT_EQ(LayoutTable(ModelV2Schema(), 95, 101204), p + "MultiHeadAttn");
  // Unchanged members, current and development versions: the current table.
  EXPECT_EQ(LayoutTable(v1, 17, 800300), p + "Elemwise");
  EXPECT_EQ(LayoutTable(v1, 3, 101302), p + "Convolution");
  EXPECT_EQ(LayoutTable(v1, 3, 1099900), p + "Convolution");
  EXPECT_EQ(ParamLayoutAsWritten(v1, 0, 800300).table, nullptr);
  EXPECT_EQ(ParamLayoutAsWritten(ModelV2Schema(), 98, 101302).table, nullptr);

  // 8.9999.0 (both corpus files): today's layout, flagged where the candidates differed.
  ParamLayout conv = ParamLayoutAsWritten(v1, 3, kAmbiguousWriterVersion);
  EXPECT_EQ(conv.table->name()->str(), p + "Convolution");
  EXPECT_TRUE(conv.ambiguous);
  EXPECT_TRUE(ParamLayoutAsWritten(v1, 75, kAmbiguousWriterVersion).ambiguous);
  EXPECT_TRUE(ParamLayoutAsWritten(v1, 8, kAmbiguousWriterVersion).ambiguous);
  EXPECT_FALSE(ParamLayoutAsWritten(v1, 17, kAmbiguousWriterVersion).ambiguous);
  EXPECT_FALSE(ParamLayoutAsWritten(v1, 54, kAmbiguousWriterVersion).ambiguous);
  EXPECT_FALSE(ParamLayoutAsWritten(v1, 3, 800900).ambiguous);
}

std::string FormatNameAsWritten(uint8_t type, uint32_t version, int64_t value) {
  const reflection::Schema& v1 = GraphV1Schema();
  ParamLayout layout = ParamLayoutAsWritten(v1, type, version);
  const reflection::Enum& e = EnumAsWritten(v1, layout, FieldOf(*layout.table, "format"));
  const reflection::EnumVal* named = e.values()->LookupByKey(value);
  return named ? named->name()->str() : "?";
}

// ConvolutionV0Format was numbered three other ways before v1.2.0; values 0-6 never changed.
TEST(MgeSchemaHistoryTest, OldFormatNumberingNamesOldValues) {
  EXPECT_EQ(FormatNameAsWritten(3, 800300, 7), "NCHW_WINOGRAD");  // v0.3.1
  EXPECT_EQ(FormatNameAsWritten(3, 800300, 9), "CHWN4");
  EXPECT_EQ(FormatNameAsWritten(3, 800301, 7), "NCHW44");  // v0.3.2 - v0.4.0
  EXPECT_EQ(FormatNameAsWritten(3, 800301, 11), "CHWN4");
  EXPECT_EQ(FormatNameAsWritten(9, 800401, 8), "NCHW44_DOT");  // v0.5.0 - v1.1.0
  EXPECT_EQ(FormatNameAsWritten(9, 800800, 12), "CHWN4");
  EXPECT_EQ(FormatNameAsWritten(6, 800800, 6), "NCHW88");
  EXPECT_EQ(FormatNameAsWritten(6, 800900, 12), "NCHW4_NCHW32");  // v1.2.0: today's V0
  EXPECT_EQ(FormatNameAsWritten(6, 800900, 18), "CHWN4");
  EXPECT_EQ(FormatNameAsWritten(6, 801100, 15), "CHWN4");  // v1.4.0: ConvolutionFormat
  // Non-format enum fields keep their own enum.
  const reflection::Schema& v1 = GraphV1Schema();
  ParamLayout layout = ParamLayoutAsWritten(v1, 6, 800300);
  EXPECT_EQ(EnumAsWritten(v1, layout, FieldOf(*layout.table, "nonlineMode")).name()->str(),
            "mgb.serialization.fbs.param.ConvBiasV0NonlineMode");
}

// A ConvBias param as v1.2.0 wrote it (12 slots: output_block_size, then compute_mode) reads
// right through its layout and wrong through today's, which has compute_mode at that slot.
TEST(MgeSchemaHistoryTest, AnOldConvBiasDecodesThroughItsLayout) {
  flatbuffers::FlatBufferBuilder builder;
  builder.Finish(param::CreateConvBiasV3(
      builder, param::ConvBiasV0NonlineMode_RELU, param::ConvolutionV0Mode_CROSS_CORRELATION,
      param::ConvolutionV0Sparse_DENSE, param::ConvolutionV0Format_NCHW4, 1, 1, 1, 1, 1, 1, 4,
      param::ConvolutionV1ComputeMode_FLOAT32));
  const auto& table = *flatbuffers::GetAnyRoot(builder.GetBufferPointer());
  const reflection::Schema& v1 = GraphV1Schema();
  ParamLayout old_layout = ParamLayoutAsWritten(v1, fbs::OperatorParam_param_ConvBias, 800900);
  EXPECT_EQ(SignedByName(*old_layout.table, table, "output_block_size"), 4);
  EXPECT_EQ(EnumNameByField(v1, *old_layout.table, table, "compute_mode"), "FLOAT32");
  EXPECT_EQ(EnumNameByField(v1, *old_layout.table, table, "nonlineMode"), "RELU");
  const reflection::Object& today = *OperatorParamTable(v1, fbs::OperatorParam_param_ConvBias);
  EXPECT_EQ(SignedByName(today, table, "compute_mode"), 4);  // output_block_size, misread
}

// graphport_xxhash: xxhash.h from the build's header mirror, header-only. The two ids of
// Elemwise (megengine.md §2.9): XXH64 seed 20160701 over the token without and with its NUL.
TEST(MgeSchemaBuildTest, XxhashIsUsableHeaderOnly) {
  EXPECT_EQ(XXH64("Elemwise", 8, 20160701), 0xd6c488c11172ec08ull);
  EXPECT_EQ(XXH64("Elemwise", 9, 20160701), 0xebb39bdd9278b6daull);
}

}  // namespace
}  // namespace graphport::mge

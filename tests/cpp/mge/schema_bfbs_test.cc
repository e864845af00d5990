// The embedded binary schemas hold the union, tables, enums and defaults of
// megengine_params.md, at MegEngine's numbers and slots.

#include "schema_test_util.h"

namespace graphport::mge {
namespace {

using namespace schema_testing;  // NOLINT: the shared helpers of this suite

// --- The binary schemas ------------------------------------------------------------------------

bool VerifiesAsSchema(std::string_view bfbs) {
  flatbuffers::Verifier verifier(reinterpret_cast<const uint8_t*>(bfbs.data()), bfbs.size());
  return reflection::VerifySchemaBuffer(verifier);
}

TEST(MgeSchemaBfbsTest, BothSchemasLoad) {
  ASSERT_TRUE(VerifiesAsSchema(GraphV1Bfbs()));
  ASSERT_TRUE(VerifiesAsSchema(ModelV2Bfbs()));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(GraphV1Bfbs().data()) % 8, 0u);
  const reflection::Schema& v1 = GraphV1Schema();
  EXPECT_EQ(v1.file_ident()->str(), "mgb1");
  EXPECT_EQ(v1.root_table()->name()->str(), "mgb.serialization.fbs.Graph");
  const reflection::Schema& v2 = ModelV2Schema();
  EXPECT_EQ(v2.file_ident()->str(), "mgv2");
  EXPECT_EQ(v2.root_table()->name()->str(), "mgb.serialization.fbs.v2.Model");
}

// megengine_params.md §2: the member of each number. 21 and 57 are the schema-local
// placeholders; 67 is dtype.fbs's DType, not param.DType (51).
const std::map<int, std::string>& ExpectedUnion() {
  static const auto* members = new std::map<int, std::string>{{1, "Empty"},
                                                              {2, "Axis"},
                                                              {3, "Convolution"},
                                                              {4, "MaskPropagate"},
                                                              {5, "ConvPooling"},
                                                              {6, "ConvBias"},
                                                              {7, "SeparableConv"},
                                                              {8, "Images2Neibs"},
                                                              {9, "Pooling"},
                                                              {10, "LRN"},
                                                              {11, "BN"},
                                                              {12, "ROIPooling"},
                                                              {13, "WarpPerspective"},
                                                              {14, "SpatialTfGridGenerator"},
                                                              {15, "SpatialTfSampler"},
                                                              {16, "MGBAddUpdate"},
                                                              {17, "Elemwise"},
                                                              {18, "ElemwiseMultiType"},
                                                              {19, "PowC"},
                                                              {20, "MatrixMul"},
                                                              {21, "@DeprecatedParam"},
                                                              {22, "SVD"},
                                                              {23, "Reduce"},
                                                              {24, "Cumsum"},
                                                              {25, "CondTake"},
                                                              {26, "Argsort"},
                                                              {27, "IndexingRemap"},
                                                              {28, "MGBSleep"},
                                                              {29, "Linspace"},
                                                              {30, "LinspaceFull"},
                                                              {31, "Eye"},
                                                              {32, "UniformRNG"},
                                                              {33, "GaussianRNG"},
                                                              {34, "Flip"},
                                                              {35, "Rotate"},
                                                              {36, "ROICopy"},
                                                              {37, "CvtColor"},
                                                              {38, "WarpAffine"},
                                                              {39, "GaussianBlur"},
                                                              {40, "Resize"},
                                                              {41, "Convolution3D"},
                                                              {42, "Conv3DBias"},
                                                              {43, "SeparableConv3D"},
                                                              {44, "TopK"},
                                                              {45, "RelayoutFormat"},
                                                              {46, "SeparableFilter"},
                                                              {47, "LocalShare"},
                                                              {48, "ROIAlign"},
                                                              {49, "DeformablePSROIPooling"},
                                                              {50, "BatchConvBias"},
                                                              {51, "DType"},
                                                              {52, "PersistentOutputStorage"},
                                                              {53, "OptionalAxis"},
                                                              {54, "OptionalAxisV1"},
                                                              {55, "ExecutionPolicy"},
                                                              {56, "AssertEqual"},
                                                              {57, "@Reserved0"},
                                                              {58, "CollectiveComm"},
                                                              {59, "CondExecPred"},
                                                              {60, "CondExecPredLogical"},
                                                              {61, "CondExecMark"},
                                                              {62, "CondExecMerge"},
                                                              {63, "Host2DeviceCopy"},
                                                              {64, "Dimshuffle"},
                                                              {65, "AxisAddRemove"},
                                                              {66, "IndexDescMaskDump"},
                                                              {67, "!DType"},
                                                              {68, "Remap"},
                                                              {69, "NMSKeep"},
                                                              {70, "AdaptivePooling"},
                                                              {71, "NvOf"},
                                                              {72, "DctChannelSelect"},
                                                              {73, "FakeQuant"},
                                                              {74, "TQT"},
                                                              {75, "Correlation"},
                                                              {76, "LSQ"},
                                                              {77, "GammaRNG"},
                                                              {78, "PoissonRNG"},
                                                              {79, "PermutationRNG"},
                                                              {80, "BetaRNG"},
                                                              {81, "SlidingWindowTranspose"},
                                                              {82, "Padding"},
                                                              {83, "ShuffleRNG"},
                                                              {84, "CheckNonFinite"},
                                                              {85, "LayerNorm"},
                                                              {86, "Dropout"},
                                                              {87, "RNNCell"},
                                                              {88, "RNN"},
                                                              {89, "LSTM"},
                                                              {90, "Softmax"},
                                                              {91, "Diag"},
                                                              {92, "GroupNorm"},
                                                              {93, "Fill"},
                                                              {94, "GeneralNorm"},
                                                              {95, "MultiHeadAttn"},
                                                              {96, "Resize3D"},
                                                              {97, "Cross"},
                                                              {98, "ExponentialRNG"},
                                                              {99, "MultinomialRNG"}};
  return *members;
}

// The full table name a member of ExpectedUnion() stands for in a schema whose own namespace
// is `ns`: "@X" is declared by the schema itself, "!X" by dtype.fbs, the rest are params.
std::string ExpectedTableName(const std::string& member, const std::string& ns) {
  if (member[0] == '@') return ns + "." + member.substr(1);
  if (member[0] == '!') return "mgb.serialization.fbs." + member.substr(1);
  return "mgb.serialization.fbs.param." + member;
}

void ExpectUnion(const reflection::Schema& schema, const std::string& ns, int last) {
  const reflection::Enum* the_union = FindEnum(schema, ns + ".OperatorParam");
  ASSERT_NE(the_union, nullptr);
  EXPECT_TRUE(the_union->is_union());
  // NONE plus members 1..last, each number once, none left out.
  ASSERT_EQ(the_union->values()->size(), static_cast<uint32_t>(last) + 1);
  for (int number = 1; number <= 255; ++number) {
    const reflection::Object* table = OperatorParamTable(schema, static_cast<uint8_t>(number));
    if (number > last) {
      EXPECT_EQ(table, nullptr) << number;
      continue;
    }
    ASSERT_NE(table, nullptr) << "union member " << number;
    EXPECT_FALSE(table->is_struct()) << number;
    EXPECT_EQ(table->name()->str(), ExpectedTableName(ExpectedUnion().at(number), ns)) << number;
  }
  EXPECT_EQ(OperatorParamTable(schema, 0), nullptr);
}

TEST(MgeSchemaBfbsTest, V1UnionHasAll99MembersAtMegEnginesNumbers) {
  ExpectUnion(GraphV1Schema(), "mgb.serialization.fbs", 99);
}

TEST(MgeSchemaBfbsTest, V2UnionHas97MembersAtTheSameNumbers) {
  ExpectUnion(ModelV2Schema(), "mgb.serialization.fbs.v2", 97);
}

// A schema other than the two embedded ones (here a copy of one) is searched, not indexed.
TEST(MgeSchemaBfbsTest, UnionLookupWorksOnAnyCopyOfTheSchema) {
  std::vector<uint64_t> copy((ModelV2Bfbs().size() + 7) / 8);
  std::memcpy(copy.data(), ModelV2Bfbs().data(), ModelV2Bfbs().size());
  const reflection::Schema& schema = *reflection::GetSchema(copy.data());
  ASSERT_NE(&schema, &ModelV2Schema());
  ExpectUnion(schema, "mgb.serialization.fbs.v2", 97);
}

// The generated C++ enumerators carry the same numbers (spot checks across the range).
TEST(MgeSchemaBfbsTest, GeneratedEnumeratorsMatchTheResearch) {
  EXPECT_EQ(fbs::OperatorParam_param_Empty, 1);
  EXPECT_EQ(fbs::OperatorParam_param_Convolution, 3);
  EXPECT_EQ(fbs::OperatorParam_param_ConvBias, 6);
  EXPECT_EQ(fbs::OperatorParam_param_Pooling, 9);
  EXPECT_EQ(fbs::OperatorParam_param_Elemwise, 17);
  EXPECT_EQ(fbs::OperatorParam_param_MatrixMul, 20);
  EXPECT_EQ(fbs::OperatorParam_DeprecatedParam, 21);
  EXPECT_EQ(fbs::OperatorParam_param_Reduce, 23);
  EXPECT_EQ(fbs::OperatorParam_param_Resize, 40);
  EXPECT_EQ(fbs::OperatorParam_param_DType, 51);
  EXPECT_EQ(fbs::OperatorParam_param_OptionalAxisV1, 54);
  EXPECT_EQ(fbs::OperatorParam_param_ExecutionPolicy, 55);
  EXPECT_EQ(fbs::OperatorParam_Reserved0, 57);
  EXPECT_EQ(fbs::OperatorParam_param_Host2DeviceCopy, 63);
  EXPECT_EQ(fbs::OperatorParam_param_IndexDescMaskDump, 66);
  EXPECT_EQ(fbs::OperatorParam_DType, 67);
  EXPECT_EQ(fbs::OperatorParam_param_NvOf, 71);
  EXPECT_EQ(fbs::OperatorParam_param_Softmax, 90);
  EXPECT_EQ(fbs::OperatorParam_param_Cross, 97);
  EXPECT_EQ(fbs::OperatorParam_param_ExponentialRNG, 98);
  EXPECT_EQ(fbs::OperatorParam_MAX, 99);
  EXPECT_EQ(fbs::v2::OperatorParam_param_Softmax, 90);
  EXPECT_EQ(fbs::v2::OperatorParam_DType, 67);
  EXPECT_EQ(fbs::v2::OperatorParam_MAX, 97);
  EXPECT_EQ(fbs::DTypeParam_LinearQuantizationParam, 1);
  EXPECT_EQ(fbs::v2::TensorFormat_LowbitsAlignedTensorFormat, 3);
}

bool StartsWith(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

// megengine_params.md counts: 122 generated param tables with 527 fields, 7 hand-written tables
// with 15 fields, 3 structs; 55 generated enums plus AxisDescMethod.
TEST(MgeSchemaBfbsTest, ParamNamespaceHasTheResearchCounts) {
  for (const reflection::Schema* schema : {&GraphV1Schema(), &ModelV2Schema()}) {
    int tables = 0, structs = 0, fields = 0, enums = 0;
    for (const reflection::Object* object : *schema->objects()) {
      if (!StartsWith(object->name()->str(), "mgb.serialization.fbs.param.")) continue;
      (object->is_struct() ? structs : tables) += 1;
      if (!object->is_struct()) fields += static_cast<int>(object->fields()->size());
    }
    for (const reflection::Enum* e : *schema->enums()) {
      if (StartsWith(e->name()->str(), "mgb.serialization.fbs.param.")) ++enums;
    }
    EXPECT_EQ(tables, 122 + 7);
    EXPECT_EQ(structs, 3);
    EXPECT_EQ(fields, 527 + 15);
    EXPECT_EQ(enums, 55 + 1);
  }
}

// Missing names throw, which fails the test that asked (gtest catches it).

std::vector<std::string> FieldsInSlotOrder(const reflection::Object& object) {
  std::vector<std::string> names(object.fields()->size());
  for (const reflection::Field* field : *object.fields()) {
    EXPECT_LT(field->id(), names.size());
    if (field->id() < names.size()) names[field->id()] = field->name()->str();
  }
  return names;
}

// Every object, enum and field of both schemas is found by its name (the vectors are sorted).
TEST(MgeSchemaBfbsTest, EverythingIsFoundByName) {
  for (const reflection::Schema* schema : {&GraphV1Schema(), &ModelV2Schema()}) {
    for (const reflection::Object* object : *schema->objects()) {
      EXPECT_EQ(FindObject(*schema, object->name()->str()), object);
      for (const reflection::Field* field : *object->fields()) {
        EXPECT_EQ(FindField(*object, field->name()->str()), field);
      }
      EXPECT_EQ(FindField(*object, "no_such_field"), nullptr);
    }
    for (const reflection::Enum* e : *schema->enums()) {
      EXPECT_EQ(FindEnum(*schema, e->name()->str()), e);
    }
    EXPECT_EQ(FindObject(*schema, "mgb.serialization.fbs.param.Nope"), nullptr);
    EXPECT_EQ(FindObject(*schema, ""), nullptr);
    EXPECT_EQ(FindEnum(*schema, "mgb.serialization.fbs.param.ConvolutionV0Modes"), nullptr);
  }
}

// Slot order is the wire format: a few tables field by field (megengine.md §2.4,
// megengine_params.md §3).
TEST(MgeSchemaBfbsTest, TablesHaveMegEnginesSlotOrder) {
  const reflection::Schema& v1 = GraphV1Schema();
  const reflection::Schema& v2 = ModelV2Schema();
  EXPECT_EQ(FieldsInSlotOrder(Table(v1, "mgb.serialization.fbs.Operator")),
            (std::vector<std::string>{"type_id", "param_type", "param", "inputs", "comp_node",
                                      "output_name", "output_dtype", "tensors", "priority", "blobs",
                                      "additional_params_type", "additional_params", "name"}));
  EXPECT_EQ(FieldsInSlotOrder(Table(v2, "mgb.serialization.fbs.v2.Operator")),
            (std::vector<std::string>{"type", "type_id", "name", "param_type", "param",
                                      "additional_params_type", "additional_params", "inputs",
                                      "outputs", "comp_node", "output_dtype", "tensors",
                                      "opr_version", "priority", "custom_data"}));
  EXPECT_EQ(FieldsInSlotOrder(Table(v1, "mgb.serialization.fbs.Graph")),
            (std::vector<std::string>{"mgb_version", "hash", "nr_shared_tensor", "oprs",
                                      "output_vars_idx", "metadata"}));
  EXPECT_EQ(FieldsInSlotOrder(Table(v2, "mgb.serialization.fbs.v2.Model")),
            (std::vector<std::string>{"mge_version", "model_version", "oprs", "middle_tensors",
                                      "output_vars_idx", "output_alias", "nr_shared_tensor",
                                      "metadata"}));
  EXPECT_EQ(
      FieldsInSlotOrder(Table(v1, "mgb.serialization.fbs.Metadata")),
      (std::vector<std::string>{"is_valid", "graph_modified", "user_info", "optimize_options"}));
  EXPECT_EQ(
      FieldsInSlotOrder(Table(v2, "mgb.serialization.fbs.v2.Metadata")),
      (std::vector<std::string>{"is_valid", "graph_modified", "optimize_options", "user_info"}));
  EXPECT_EQ(
      FieldsInSlotOrder(Table(v1, "mgb.serialization.fbs.Tensor")),
      (std::vector<std::string>{"name", "shape", "comp_node", "dtype", "data_size", "offset"}));
  EXPECT_EQ(FieldsInSlotOrder(Table(v2, "mgb.serialization.fbs.v2.Tensor")),
            (std::vector<std::string>{"name", "shape", "comp_node", "dtype", "format_type",
                                      "format", "data"}));
  EXPECT_EQ(FieldsInSlotOrder(Table(v1, "mgb.serialization.fbs.DType")),
            (std::vector<std::string>{"type", "param_type", "param"}));
  EXPECT_TRUE(Table(v1, "mgb.serialization.fbs.OutputVar").is_struct());
  EXPECT_FALSE(Table(v2, "mgb.serialization.fbs.v2.OutputVar").is_struct());
  EXPECT_TRUE(FieldOf(Table(v1, "mgb.serialization.fbs.Blob"), "data").required());
  EXPECT_FALSE(FieldOf(Table(v2, "mgb.serialization.fbs.v2.Blob"), "data").required());

  EXPECT_EQ(
      FieldsInSlotOrder(Table(v1, "mgb.serialization.fbs.param.ConvBias")),
      (std::vector<std::string>{"nonlineMode", "mode", "sparse", "format", "pad_h", "pad_w",
                                "stride_h", "stride_w", "dilate_h", "dilate_w", "compute_mode"}));
  EXPECT_EQ(FieldsInSlotOrder(Table(v1, "mgb.serialization.fbs.param.Images2Neibs")),
            (std::vector<std::string>{"pad_h", "pad_w", "stride_h", "stride_w", "dilate_h",
                                      "dilate_w", "window_h", "window_w"}));
  EXPECT_EQ(Table(v1, "mgb.serialization.fbs.param.MultiHeadAttn").fields()->size(), 23u);
  EXPECT_EQ(Table(v1, "mgb.serialization.fbs.param.Padding").fields()->size(), 16u);
}

// Enum and struct layouts that the wire depends on (megengine_params.md §4, §5).
TEST(MgeSchemaBfbsTest, EnumsAndStructsAreLaidOutAsMegEngines) {
  const reflection::Schema& v1 = GraphV1Schema();
  const reflection::Enum* dtype = FindEnum(v1, "mgb.serialization.fbs.DTypeEnum");
  ASSERT_NE(dtype, nullptr);
  EXPECT_EQ(dtype->underlying_type()->base_type(), reflection::Byte);
  EXPECT_EQ(dtype->values()->size(), 22u);
  EXPECT_EQ(dtype->values()->LookupByKey(21)->name()->str(), "Complex64");
  EXPECT_EQ(dtype->values()->LookupByKey(11)->name()->str(), "Quantized8Asymm");

  const reflection::Enum* elemwise = FindEnum(v1, "mgb.serialization.fbs.param.ElemwiseMode");
  ASSERT_NE(elemwise, nullptr);
  EXPECT_EQ(elemwise->underlying_type()->base_type(), reflection::UInt);
  EXPECT_EQ(elemwise->values()->size(), 86u);
  EXPECT_EQ(elemwise->values()->LookupByKey(18)->name()->str(), "MAX_");
  EXPECT_EQ(elemwise->values()->LookupByKey(85)->name()->str(), "SIGN");
  const reflection::Enum* format = FindEnum(v1, "mgb.serialization.fbs.param.ConvolutionFormat");
  ASSERT_NE(format, nullptr);
  EXPECT_EQ(format->values()->size(), 18u);
  EXPECT_EQ(format->values()->LookupByKey(17)->name()->str(), "NCHW4_NHWC");

  // The one bit-flag enum: members are the flag values.
  const reflection::Enum* strategy =
      FindEnum(v1, "mgb.serialization.fbs.param.ExecutionPolicyStrategy");
  ASSERT_NE(strategy, nullptr);
  std::map<int64_t, std::string> flags;
  for (const reflection::EnumVal* value : *strategy->values()) {
    flags[value->value()] = value->name()->str();
  }
  EXPECT_EQ(flags, (std::map<int64_t, std::string>{
                       {1, "HEURISTIC"}, {2, "PROFILE"}, {4, "REPRODUCIBLE"}, {8, "OPTIMIZED"}}));

  const reflection::Object& scalar = Table(v1, "mgb.serialization.fbs.param.PersistentDTypeScalar");
  EXPECT_EQ(scalar.bytesize(), 5);
  EXPECT_EQ(scalar.minalign(), 1);
  const reflection::Object& axis = Table(v1, "mgb.serialization.fbs.param.AxisDesc");
  EXPECT_EQ(axis.bytesize(), 8);
  EXPECT_EQ(FieldOf(axis, "axis").offset(), 4);
  EXPECT_EQ(Table(v1, "mgb.serialization.fbs.param.IndexDescMaskItem").bytesize(), 5);
  static_assert(sizeof(param::PersistentDTypeScalar) == 5, "5 bytes on the wire");
  static_assert(sizeof(param::AxisDesc) == 8, "8 bytes on the wire");
  static_assert(sizeof(param::IndexDescMaskItem) == 5, "5 bytes on the wire");
  static_assert(sizeof(fbs::OutputVar) == 8, "8 bytes on the wire");
}

// Defaults decide which fields a writer omits (megengine_params.md §3, §5).
TEST(MgeSchemaBfbsTest, DefaultsAreMegEnginesIncludingTheU64One) {
  const reflection::Schema& v2 = ModelV2Schema();
  auto table = [&](const char* name) -> const reflection::Object& {
    return Table(v2, std::string("mgb.serialization.fbs.param.") + name);
  };
  EXPECT_EQ(FieldOf(table("Pooling"), "stride_h").default_integer(), 2);
  EXPECT_EQ(FieldOf(table("Reduce"), "axis").default_integer(), 2147483647);
  EXPECT_EQ(FieldOf(table("OptionalAxisV1"), "axis").default_integer(), 7);
  EXPECT_EQ(FieldOf(table("Softmax"), "axis").default_integer(), -1);
  EXPECT_EQ(FieldOf(table("FakeQuant"), "qmin").default_integer(), -2147483648LL);
  EXPECT_EQ(FieldOf(table("Host2DeviceCopy"), "enable_value_infer").default_integer(), 1);
  EXPECT_EQ(FieldOf(table("Resize"), "format").default_integer(), 1);         // NHWC
  EXPECT_EQ(FieldOf(table("Padding"), "padding_mode").default_integer(), 2);  // CONSTANT
  EXPECT_EQ(FieldOf(table("DType"), "dtype").default_integer(), 8);           // Byte
  EXPECT_EQ(FieldOf(table("PermutationRNG"), "dtype").default_integer(), 4);  // Int32
  EXPECT_FLOAT_EQ(static_cast<float>(FieldOf(table("LRN"), "alpha").default_real()), 1e-4f);
  EXPECT_DOUBLE_EQ(FieldOf(table("BN"), "epsilon").default_real(), 1e-4);
  EXPECT_FLOAT_EQ(static_cast<float>(FieldOf(table("LayerNorm"), "eps").default_real()), 1e-5f);

  const reflection::Field& strategy = FieldOf(table("ExecutionPolicy"), "strategy");
  EXPECT_EQ(strategy.default_integer(), 1);  // HEURISTIC
  const reflection::Field& limit = FieldOf(table("ExecutionPolicy"), "workspace_limit");
  EXPECT_EQ(UnsignedFieldDefault(limit), std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(UnsignedFieldDefault(FieldOf(table("ExecutionPolicyV0"), "workspace_limit")),
            std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(UnsignedFieldDefault(FieldOf(table("UniformRNG"), "seed")), 0u);
  EXPECT_EQ(UnsignedFieldDefault(FieldOf(table("LayerNorm"), "normalized_dim")), 1u);

  // The generated accessors agree (an empty table reads as all defaults).
  flatbuffers::FlatBufferBuilder builder;
  builder.Finish(param::CreateExecutionPolicy(builder));
  auto* policy = flatbuffers::GetRoot<param::ExecutionPolicy>(builder.GetBufferPointer());
  EXPECT_EQ(policy->workspace_limit(), std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(policy->strategy(), param::ExecutionPolicyStrategy_HEURISTIC);
}

}  // namespace
}  // namespace graphport::mge

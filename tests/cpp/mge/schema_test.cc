// The MegEngine schemas (src/mge/schema/): the generated code verifies and reads the real
// corpus files as the research describes them (megengine.md §2.2, §4), the embedded binary
// schemas hold the union, tables and defaults of megengine_params.md, and a buffer built with
// the generated builders reads back by field name through reflection.

#include <flatbuffers/reflection.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "mge/schema/embedded_schemas.h"
#include "mge/schema/graph_v1_generated.h"
#include "mge/schema/model_v2_generated.h"
#include "mge/schema/param_history.h"
#include "mge/schema/schema_reflection.h"

namespace graphport::mge {
namespace {

namespace fbs = mgb::serialization::fbs;
namespace param = mgb::serialization::fbs::param;

constexpr char kConvFile[] = "mgeconvert_HEAD_test_mge_convolution-backward-filter.mge";
constexpr char kReshapeFile[] = "mgeconvert_e4a1261_test_test_model.mge";

std::string ReadCorpusFile(const std::string& name) {
  std::string path = std::string(GRAPHPORT_CORPUS_DIR) + "/mge/" + name;
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "corpus file missing: " << path;
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

uint32_t LoadU32(const std::string& bytes, size_t offset) {
  uint32_t value = 0;
  std::memcpy(&value, bytes.data() + offset, sizeof(value));
  return value;
}

uint64_t LoadU64(const std::string& bytes, size_t offset) {
  uint64_t value = 0;
  std::memcpy(&value, bytes.data() + offset, sizeof(value));
  return value;
}

// An FBS v1 file with an MGBS header (megengine.md §2.2): magic, 4 zero bytes, u64 size of the
// value blob, the blob, then the size-prefixed Graph. The flatbuffer is copied to an aligned
// buffer, as FlatBuffers reads scalars in place.
struct V1File {
  std::string bytes;
  uint64_t blob_size = 0;
  std::vector<uint64_t> flatbuffer;  // 8-byte aligned storage
  size_t flatbuffer_size = 0;

  const uint8_t* data() const { return reinterpret_cast<const uint8_t*>(flatbuffer.data()); }
  const fbs::Graph* graph() const { return fbs::GetSizePrefixedGraph(data()); }
};

V1File LoadMgbs(const std::string& name) {
  V1File file;
  file.bytes = ReadCorpusFile(name);
  EXPECT_GE(file.bytes.size(), 16u);
  if (file.bytes.size() < 16) return file;
  EXPECT_EQ(file.bytes.substr(0, 4), "MGBS");
  EXPECT_EQ(LoadU32(file.bytes, 4), 0u);
  file.blob_size = LoadU64(file.bytes, 8);
  size_t start = 16 + file.blob_size;
  EXPECT_LE(start + 4, file.bytes.size());
  if (start + 4 > file.bytes.size()) return file;
  file.flatbuffer_size = file.bytes.size() - start;
  // The loader reads exactly size + 4 bytes: the prefix must cover the rest of the file.
  EXPECT_EQ(LoadU32(file.bytes, start) + 4u, file.flatbuffer_size);
  file.flatbuffer.resize((file.flatbuffer_size + 7) / 8);
  std::memcpy(file.flatbuffer.data(), file.bytes.data() + start, file.flatbuffer_size);
  return file;
}

bool VerifiesAsGraph(const V1File& file) {
  flatbuffers::Verifier verifier(file.data(), file.flatbuffer_size);
  return fbs::VerifySizePrefixedGraphBuffer(verifier);
}

// Type ids of MGBS files are the "unversioned" XXH64 ids (megengine.md §2.9, table).
constexpr uint64_t kHost2DeviceCopy = 0x9f9db55d661d5f11ull;
constexpr uint64_t kImmutableTensor = 0x71fef6bc913ac154ull;
constexpr uint64_t kConvolution = 0x0df58829a4c725cdull;
constexpr uint64_t kConvolutionBackwardFilter = 0xaa1f9f08bae07230ull;
constexpr uint64_t kElemwise = 0xd6c488c11172ec08ull;
constexpr uint64_t kReshape = 0xba3296a9aa9b5098ull;
constexpr uint64_t kGetVarShape = 0x108a555a9ec4f635ull;
constexpr uint64_t kBroadcast = 0x6e25cbb31abdb0faull;
constexpr uint64_t kReduce = 0xe95bd6e94fd81bd8ull;

std::map<uint64_t, int> TypeIdCounts(const fbs::Graph& graph) {
  std::map<uint64_t, int> counts;
  for (const fbs::Operator* opr : *graph.oprs()) ++counts[opr->type_id()];
  return counts;
}

uint64_t TensorValueBytes(const fbs::Graph& graph) {
  uint64_t total = 0;
  for (const fbs::Operator* opr : *graph.oprs()) {
    if (opr->tensors() == nullptr) continue;
    for (const fbs::Tensor* tensor : *opr->tensors()) total += tensor->data_size();
  }
  return total;
}

std::vector<uint32_t> Shape(const fbs::Tensor& tensor) {
  if (tensor.shape() == nullptr) return {};
  return std::vector<uint32_t>(tensor.shape()->begin(), tensor.shape()->end());
}

// Every operator here has exactly one numbered output, so var id == operator index.
const fbs::Operator& OutputOperator(const fbs::Graph& graph) {
  EXPECT_EQ(graph.output_vars_idx()->size(), 1u);
  uint32_t id = graph.output_vars_idx()->Get(0)->compact_id();
  EXPECT_LT(id, graph.oprs()->size());
  return *graph.oprs()->Get(id);
}

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
const reflection::Object& Table(const reflection::Schema& schema, const std::string& name) {
  const reflection::Object* object = FindObject(schema, name);
  if (object == nullptr) throw std::runtime_error("no table " + name);
  return *object;
}

const reflection::Field& FieldOf(const reflection::Object& object, const char* name) {
  const reflection::Field* field = FindField(object, name);
  if (field == nullptr) throw std::runtime_error("no field " + object.name()->str() + "." + name);
  return *field;
}

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

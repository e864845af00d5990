// Helpers shared by the MegEngine schema tests: the corpus files and reading their FBS v1
// layout by hand (megengine.md §2.2), independently of the family's reader.
#ifndef GRAPHPORT_TESTS_CPP_MGE_SCHEMA_TEST_UTIL_H_
#define GRAPHPORT_TESTS_CPP_MGE_SCHEMA_TEST_UTIL_H_

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

#include "mge/schema/embedded_schemas.h"
#include "mge/schema/graph_v1_generated.h"
#include "mge/schema/model_v2_generated.h"
#include "mge/schema/param_history.h"
#include "mge/schema/schema_reflection.h"

namespace graphport::mge::schema_testing {

namespace fbs = mgb::serialization::fbs;
namespace param = mgb::serialization::fbs::param;

inline constexpr char kConvFile[] = "mgeconvert_HEAD_test_mge_convolution-backward-filter.mge";
inline constexpr char kReshapeFile[] = "mgeconvert_e4a1261_test_test_model.mge";

inline std::string ReadCorpusFile(const std::string& name) {
  std::string path = std::string(GRAPHPORT_CORPUS_DIR) + "/mge/" + name;
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "corpus file missing: " << path;
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline uint32_t LoadU32(const std::string& bytes, size_t offset) {
  uint32_t value = 0;
  std::memcpy(&value, bytes.data() + offset, sizeof(value));
  return value;
}

inline uint64_t LoadU64(const std::string& bytes, size_t offset) {
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

inline V1File LoadMgbs(const std::string& name) {
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

inline bool VerifiesAsGraph(const V1File& file) {
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

inline std::map<uint64_t, int> TypeIdCounts(const fbs::Graph& graph) {
  std::map<uint64_t, int> counts;
  for (const fbs::Operator* opr : *graph.oprs()) ++counts[opr->type_id()];
  return counts;
}

inline uint64_t TensorValueBytes(const fbs::Graph& graph) {
  uint64_t total = 0;
  for (const fbs::Operator* opr : *graph.oprs()) {
    if (opr->tensors() == nullptr) continue;
    for (const fbs::Tensor* tensor : *opr->tensors()) total += tensor->data_size();
  }
  return total;
}

inline std::vector<uint32_t> Shape(const fbs::Tensor& tensor) {
  if (tensor.shape() == nullptr) return {};
  return std::vector<uint32_t>(tensor.shape()->begin(), tensor.shape()->end());
}

// Every operator here has exactly one numbered output, so var id == operator index.
inline const fbs::Operator& OutputOperator(const fbs::Graph& graph) {
  EXPECT_EQ(graph.output_vars_idx()->size(), 1u);
  uint32_t id = graph.output_vars_idx()->Get(0)->compact_id();
  EXPECT_LT(id, graph.oprs()->size());
  return *graph.oprs()->Get(id);
}

inline const reflection::Object& Table(const reflection::Schema& schema, const std::string& name) {
  const reflection::Object* object = FindObject(schema, name);
  if (object == nullptr) throw std::runtime_error("no table " + name);
  return *object;
}

inline const reflection::Field& FieldOf(const reflection::Object& object, const char* name) {
  const reflection::Field* field = FindField(object, name);
  if (field == nullptr) throw std::runtime_error("no field " + object.name()->str() + "." + name);
  return *field;
}

}  // namespace graphport::mge::schema_testing

#endif  // GRAPHPORT_TESTS_CPP_MGE_SCHEMA_TEST_UTIL_H_

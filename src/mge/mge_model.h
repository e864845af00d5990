// A loaded MegEngine graph in its native form: the FlatBuffers bytes as read, plus an index of
// every operator, tensor, param and var that points into them. Writers replay MegEngine's
// builder sequence from this index; nothing is decoded that a re-dump would have to re-encode
// (param tables stay where they are and are copied field by field through reflection).
#ifndef GRAPHPORT_MGE_MGE_MODEL_H_
#define GRAPHPORT_MGE_MGE_MODEL_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mge/opr_registry.h"

namespace graphport::mge {

// The types a reader makes one of per operator, tensor or var declare their special members
// here and define them in mge_model.cc: the WebAssembly build compiles the family's per-model
// code at -Oz (CMakeLists.txt), and inline copies made there could be the ones the linker keeps
// for the readers too (loading 100k operators went 18% slower that way).

enum class DumpFormat { kFbsV1, kFbsV2 };
// The FBS v1 header: "MGBS" (16 bytes, unversioned ids) or "MGBC" (24 bytes, persist ids).
enum class V1Magic { kMgbs, kMgbc };

// dtype.fbs DType: a DTypeEnum value and, for quantized types, LinearQuantizationParam.
struct DType {
  int8_t type = 0;  // DTypeEnum; Float32 = 0
  bool has_param = false;
  float scale = 0;
  uint8_t zero_point = 0;
};

// FBS_V2 TensorFormat union: 1 Default, 2 Image2DPacked, 3 LowbitsAligned.
struct TensorFormat {
  uint8_t type = 0;
  uint8_t align_axis = 0;
  uint8_t size_nbits = 0;
  uint8_t align_size_in_bits = 0;
};

struct Tensor {
  Tensor();
  Tensor(const Tensor&);
  Tensor(Tensor&&) noexcept;
  Tensor& operator=(const Tensor&);
  Tensor& operator=(Tensor&&) noexcept;
  ~Tensor();

  std::optional<std::string> name;
  std::optional<std::vector<uint32_t>> shape;
  std::optional<std::optional<std::string>> comp_node;  // table present / locator present
  std::optional<DType> dtype;
  std::optional<TensorFormat> format;  // FBS_V2 only
  // The value bytes: FBS v1 from the value blob after the header, FBS_V2 from Tensor.data.
  bool has_value = false;
  std::string_view value;
  uint32_t v1_offset = 0;  // FBS v1 Tensor.offset (bytes skipped before the value)
};

struct Blob {
  bool has_data = false;
  std::string_view data;
};

// One entry of the param union (or of additional_params): its union type and its table.
struct Param {
  uint8_t type = 0;
  const uint8_t* table = nullptr;  // the param table inside the model's bytes
};

// What a MegEngine operator dumper created, in creation order: the order a writer replays.
struct DumpItem {
  enum Kind { kParam, kTensor, kBlob } kind;
  size_t index;
};

struct Operator {
  Operator();
  Operator(const Operator&);
  Operator(Operator&&) noexcept;
  Operator& operator=(const Operator&);
  Operator& operator=(Operator&&) noexcept;
  ~Operator();

  uint64_t type_id = 0;
  uint32_t opr_version = 0;         // FBS_V2; 0 in FBS v1
  std::optional<std::string> type;  // FBS_V2 Operator.type: the registration token
  const OprClass* cls = nullptr;    // nullptr for an operator MegEngine's registry lacks
  std::optional<std::string> name;
  std::optional<std::vector<uint32_t>> inputs;
  std::vector<uint32_t> outputs;  // var ids (FBS v1: numbered by the reader)
  bool has_outputs_vector = false;
  std::optional<std::vector<std::optional<std::string>>> comp_nodes;
  std::optional<std::vector<std::string>> output_names;  // FBS v1 output_name
  std::optional<DType> output_dtype;
  std::vector<Param> params;  // [0] = param, then additional_params
  bool has_additional_params_vector = false;
  std::vector<Tensor> tensors;
  bool has_tensors_vector = false;
  std::vector<Blob> blobs;
  bool has_blobs_vector = false;
  int32_t priority = 0;
  std::vector<DumpItem> items;

  // "ConvolutionV2", or the FBS_V2 type, or "type_id 0x..." for an unknown operator.
  std::string DisplayType() const;

  // The first param's table as the generated type T when it is of union member `type`, else
  // nullptr: the one check every reader of a param makes before it reads the fields.
  template <typename T>
  const T* ParamAs(uint8_t type) const {
    if (params.empty() || params[0].type != type) return nullptr;
    return reinterpret_cast<const T*>(params[0].table);
  }
};

// FBS_V2 MiddleTensor, kept per var id.
struct MiddleTensor {
  MiddleTensor();
  MiddleTensor(const MiddleTensor&);
  MiddleTensor(MiddleTensor&&) noexcept;
  MiddleTensor& operator=(const MiddleTensor&);
  MiddleTensor& operator=(MiddleTensor&&) noexcept;
  ~MiddleTensor();

  bool present = false;
  std::optional<std::string> name;
  std::optional<std::vector<uint32_t>> shape;
  std::optional<std::optional<std::string>> comp_node;
  std::optional<DType> dtype;
  std::optional<TensorFormat> format;
};

struct Var {
  Var();
  Var(const Var&);
  Var(Var&&) noexcept;
  Var& operator=(const Var&);
  Var& operator=(Var&&) noexcept;
  ~Var();

  uint32_t opr = 0;    // index of the operator that makes it
  uint32_t index = 0;  // its position among that operator's numbered outputs
  MiddleTensor middle;
};

struct Metadata {
  bool present = false;
  bool is_valid = false;
  bool graph_modified = false;
  std::optional<std::string> user_info;
  uint64_t optimize_options = 0;
};

struct OutputVar {
  uint32_t compact_id = 0;
  uint32_t original_id = 0;
};

struct OutputAlias {
  uint32_t id = 0;
  std::optional<std::string> name;
};

// One dumped graph.
struct Graph {
  Graph();
  Graph(const Graph&);
  Graph(Graph&&) noexcept;
  Graph& operator=(const Graph&);
  Graph& operator=(Graph&&) noexcept;
  ~Graph();

  DumpFormat format = DumpFormat::kFbsV1;
  V1Magic magic = V1Magic::kMgbc;
  uint64_t feature_bits = 0;       // MGBC header
  uint64_t file_offset = 0;        // where this dump starts in the input
  uint64_t file_bytes = 0;         // how many bytes it spans
  uint64_t flatbuffer_offset = 0;  // the size prefix, from the start of the input
  std::string_view flatbuffer;     // the size-prefixed flatbuffer

  uint32_t version = 0;        // FBS v1 mgb_version / FBS_V2 mge_version
  uint32_t model_version = 0;  // FBS_V2
  uint64_t hash = 0;           // FBS v1
  uint32_t nr_shared_tensor = 0;
  std::vector<Operator> oprs;
  std::vector<Var> vars;
  bool has_middle_tensors = false;
  std::vector<OutputVar> outputs;
  bool has_output_alias = false;
  std::vector<OutputAlias> aliases;
  Metadata metadata;
  uint64_t value_bytes = 0;            // raw tensor value bytes
  uint64_t unused_value_bytes = 0;     // FBS v1: blob bytes after the last value
  std::vector<uint64_t> aligned_copy;  // the flatbuffer, when it was not 8-aligned in the input

  std::string FormatName() const;  // "mge-fbs" / "mge-fbs-v2"
  // The var's name as stored: FBS v1 output_name, FBS_V2 middle tensor; nullopt when stripped.
  std::optional<std::string> VarName(uint32_t var) const;
};

// A whole input: the bytes, and the graphs in it.
struct MgeFile {
  MgeFile();
  MgeFile(const MgeFile&);
  MgeFile(MgeFile&&) noexcept;
  MgeFile& operator=(const MgeFile&);
  MgeFile& operator=(MgeFile&&) noexcept;
  ~MgeFile();

  std::string bytes;            // the input, owned
  std::string display;          // how errors name it
  bool test_container = false;  // "mgbtest0": graphs[0] is the model, the rest its test cases
  uint32_t declared_tests = 0;
  std::vector<Graph> graphs;
};

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_MGE_MODEL_H_

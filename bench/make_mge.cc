// Writes a synthetic, deterministic MegEngine FBS_V2 model for the benchmarks, with the
// FlatBuffers builders generated from the project's schemas (src/mge/schema).
//
//   graphport_make_mge [OUT] [--oprs N] [--weights K]
//
// One Host2DeviceCopy "data" [1, 256] and one MultipleDeviceTensorHolder of K float weights
// [1, 256] (default 1,000: 1 MiB), then Elemwise operators up to N in all (default 100,000):
// blocks of x * w, + w', relu, each named under a block scope, with named middle tensors. OUT
// defaults to bench/out/mge.mge. The same arguments always give the same bytes.
#include <flatbuffers/flatbuffers.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "mge/opr_registry.h"
#include "mge/schema/model_v2_generated.h"

namespace {

namespace v2 = mgb::serialization::fbs::v2;
namespace fbsp = mgb::serialization::fbs::param;
using graphport::mge::PersistTypeId;
using graphport::mge::UnversionedTypeId;

constexpr uint32_t kWidth = 256;
// ElemwiseMode values (opr_params.fbs).
constexpr uint32_t kRelu = 0;
constexpr uint32_t kAdd = 16;
constexpr uint32_t kMul = 21;

class ModelWriter {
 public:
  // An operator: its registration token and version give its type id, as MegEngine's do.
  void Op(const std::string& token, uint32_t version, const std::string& name,
          const std::vector<uint32_t>& inputs, const std::vector<uint32_t>& outputs,
          uint8_t param_type, flatbuffers::Offset<void> param,
          const std::vector<flatbuffers::Offset<v2::Tensor>>& tensors) {
    uint64_t id = version == 2 ? PersistTypeId(token) : UnversionedTypeId(token);
    auto in = inputs.empty() ? 0 : fbb_.CreateVector(inputs);
    auto out = fbb_.CreateVector(outputs);
    auto t = tensors.empty() ? 0 : fbb_.CreateVector(tensors);
    auto n = fbb_.CreateString(name);
    auto type = fbb_.CreateSharedString(token);
    v2::OperatorBuilder b(fbb_);
    b.add_type(type);
    b.add_type_id(id);
    if (!inputs.empty()) b.add_inputs(in);
    b.add_outputs(out);
    b.add_opr_version(version);
    b.add_name(n);
    if (param_type != 0) {
      b.add_param_type(static_cast<v2::OperatorParam>(param_type));
      b.add_param(param);
    }
    if (!tensors.empty()) b.add_tensors(t);
    oprs_.push_back(b.Finish());
  }

  // A float tensor [1, kWidth]; no value for an input's description.
  flatbuffers::Offset<v2::Tensor> Tensor(const std::string& name, const float* value) {
    flatbuffers::Offset<flatbuffers::Vector<uint8_t>> data;
    if (value != nullptr) {
      data = fbb_.CreateVector(reinterpret_cast<const uint8_t*>(value), kWidth * sizeof(float));
    }
    auto n = fbb_.CreateString(name);
    auto s = fbb_.CreateVector(std::vector<uint32_t>{1, kWidth});
    auto c = v2::CreateCompNode(fbb_, fbb_.CreateSharedString("cpu0:0"));
    auto d = mgb::serialization::fbs::CreateDType(fbb_);
    auto f = v2::CreateDefaultTensorFormat(fbb_);
    return v2::CreateTensor(fbb_, n, s, c, d, v2::TensorFormat_DefaultTensorFormat, f.Union(),
                            data);
  }

  flatbuffers::Offset<void> Elemwise(uint32_t mode) {
    fbsp::ElemwiseBuilder b(fbb_);
    b.add_mode(static_cast<fbsp::ElemwiseMode>(mode));
    return b.Finish().Union();
  }

  flatbuffers::Offset<void> Host2DeviceCopy() { return fbsp::CreateHost2DeviceCopy(fbb_).Union(); }

  void NameVar(const std::string& name) { var_names_.push_back(name); }
  size_t oprs() const { return oprs_.size(); }

  std::string Finish(uint32_t output_var, uint32_t nr_shared) {
    auto opr_vec = fbb_.CreateVector(oprs_);
    std::vector<flatbuffers::Offset<v2::MiddleTensor>> middle;
    middle.reserve(var_names_.size());
    for (const std::string& name : var_names_) {
      middle.push_back(v2::CreateMiddleTensor(fbb_, fbb_.CreateString(name)));
    }
    auto middle_vec = fbb_.CreateVector(middle);
    auto outputs = fbb_.CreateVector(std::vector<flatbuffers::Offset<v2::OutputVar>>{
        v2::CreateOutputVar(fbb_, output_var, output_var)});
    v2::ModelBuilder mb(fbb_);
    mb.add_mge_version(1099900);
    mb.add_model_version(2);
    mb.add_oprs(opr_vec);
    mb.add_middle_tensors(middle_vec);
    mb.add_output_vars_idx(outputs);
    mb.add_nr_shared_tensor(nr_shared);
    fbb_.FinishSizePrefixed(mb.Finish(), v2::ModelIdentifier());
    return std::string(reinterpret_cast<const char*>(fbb_.GetBufferPointer()), fbb_.GetSize());
  }

 private:
  flatbuffers::FlatBufferBuilder fbb_{size_t{64} << 20};
  std::vector<flatbuffers::Offset<v2::Operator>> oprs_;
  std::vector<std::string> var_names_;
};

std::string BuildModel(uint32_t wanted, uint32_t weights) {
  ModelWriter w;
  w.Op("Host2DeviceCopy", 2, "data", {}, {0}, v2::OperatorParam_param_Host2DeviceCopy,
       w.Host2DeviceCopy(), {w.Tensor("data", nullptr)});
  w.NameVar("data");

  // The weights: deterministic values, one holder of all of them (as a dump with shared
  // params has).
  std::vector<flatbuffers::Offset<v2::Tensor>> tensors;
  std::vector<uint32_t> weight_vars;
  std::vector<float> value(kWidth);
  uint32_t state = 12345;
  for (uint32_t k = 0; k < weights; ++k) {
    for (float& v : value) {
      state = state * 1664525u + 1013904223u;
      v = static_cast<float>(state >> 8) / 16777216.0f - 0.5f;
    }
    std::string name = "w" + std::to_string(k);
    tensors.push_back(w.Tensor(name, value.data()));
    weight_vars.push_back(1 + k);
    w.NameVar(name);
  }
  w.Op("MultipleDeviceTensorHolder", 2, "weights", {}, weight_vars, 0, 0, tensors);

  uint32_t x = 0;
  uint32_t next_var = 1 + weights;
  const uint32_t modes[] = {kMul, kAdd, kRelu};
  const char* names[] = {"mul", "add", "relu"};
  for (uint32_t i = 0; w.oprs() < wanted; ++i) {
    uint32_t mode = modes[i % 3];
    char name[64];
    std::snprintf(name, sizeof name, "block_%06u/%s", i / 3, names[i % 3]);
    std::vector<uint32_t> inputs = {x};
    if (mode != kRelu) inputs.push_back(weight_vars[(i * 7) % weights]);
    w.Op("Elemwise", 1, name, inputs, {next_var}, v2::OperatorParam_param_Elemwise,
         w.Elemwise(mode), {});
    w.NameVar(name);
    x = next_var++;
  }
  return w.Finish(x, weights);
}

}  // namespace

int main(int argc, char** argv) {
  std::string out = "bench/out/mge.mge";
  uint32_t oprs = 100000;
  uint32_t weights = 1000;
  bool have_out = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--oprs" && i + 1 < argc) {
      oprs = static_cast<uint32_t>(std::strtoul(argv[++i], nullptr, 10));
    } else if (a == "--weights" && i + 1 < argc) {
      weights = static_cast<uint32_t>(std::strtoul(argv[++i], nullptr, 10));
    } else if (!have_out && !a.empty() && a[0] != '-') {
      out = a;
      have_out = true;
    } else {
      std::fprintf(stderr, "usage: graphport_make_mge [OUT] [--oprs N] [--weights K]\n");
      return 2;
    }
  }
  if (weights == 0 || oprs < 3) {
    std::fprintf(stderr, "graphport_make_mge: --weights must be positive and --oprs at least 3\n");
    return 2;
  }
  std::string bytes = BuildModel(oprs, weights);
  // Written beside the target and renamed, so an interrupted run never leaves a partial file.
  std::string tmp = out + ".tmp";
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  bool ok = f != nullptr && std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  if (f != nullptr) ok = std::fclose(f) == 0 && ok;
  if (!ok || std::rename(tmp.c_str(), out.c_str()) != 0) {
    std::perror(out.c_str());
    return 1;
  }
  std::fprintf(stderr, "%s: %u operators, %u weights, %.1f MiB\n", out.c_str(), oprs, weights,
               bytes.size() / 1048576.0);
  return 0;
}

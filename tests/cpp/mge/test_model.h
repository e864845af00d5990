// A small FBS_V2 model built with the generated builders, with what the corpus files lack:
// operator names and priorities, a MultipleDeviceTensorHolder of named shared params,
// middle-tensor names and metadata. data [1,3] * w + b -> "out".
#ifndef GRAPHPORT_TESTS_CPP_MGE_TEST_MODEL_H_
#define GRAPHPORT_TESTS_CPP_MGE_TEST_MODEL_H_

#include <flatbuffers/flatbuffers.h>

#include <string>
#include <vector>

#include "mge/opr_registry.h"
#include "mge/pickle/pickle_writer.h"
#include "mge/schema/model_v2_generated.h"

namespace graphport::mge::testing {

namespace v2 = mgb::serialization::fbs::v2;
namespace fbsp = mgb::serialization::fbs::param;

// `bias_shape`: b's; [1, 3] (w's) makes the product and sum one FUSE_MUL_ADD3 (ArithFuse).
inline std::string BuildTestModelV2(std::vector<uint32_t> bias_shape = {1}) {
  flatbuffers::FlatBufferBuilder fbb;
  auto cpu = [&]() { return v2::CreateCompNode(fbb, fbb.CreateSharedString("cpu0:0")); };
  auto f32 = [&]() { return mgb::serialization::fbs::CreateDType(fbb); };
  auto tensor = [&](const char* name, std::vector<uint32_t> shape, std::vector<float> value) {
    flatbuffers::Offset<flatbuffers::Vector<uint8_t>> data;
    if (!value.empty()) {
      data = fbb.CreateVector(reinterpret_cast<const uint8_t*>(value.data()), value.size() * 4);
    }
    auto n = fbb.CreateSharedString(name);
    auto s = fbb.CreateVector(shape);
    auto c = cpu();
    auto d = f32();
    auto f = v2::CreateDefaultTensorFormat(fbb);
    return v2::CreateTensor(fbb, n, s, c, d, v2::TensorFormat_DefaultTensorFormat, f.Union(), data);
  };
  auto elemwise = [&](uint32_t mode) {
    fbsp::ElemwiseBuilder b(fbb);
    b.add_mode(static_cast<fbsp::ElemwiseMode>(mode));
    return b.Finish().Union();
  };
  std::vector<flatbuffers::Offset<v2::Operator>> oprs;
  auto op = [&](const std::string& token, uint32_t version, const char* name, int32_t priority,
                std::vector<uint32_t> inputs, std::vector<uint32_t> outputs, uint8_t param_type,
                flatbuffers::Offset<void> param,
                std::vector<flatbuffers::Offset<v2::Tensor>> tensors) {
    uint64_t id = version == 2 ? PersistTypeId(token) : UnversionedTypeId(token);
    auto in = inputs.empty() ? 0 : fbb.CreateVector(inputs);
    auto out = fbb.CreateVector(outputs);
    auto t = tensors.empty() ? 0 : fbb.CreateVector(tensors);
    auto n = fbb.CreateSharedString(name);
    auto type = fbb.CreateSharedString(token);
    v2::OperatorBuilder b(fbb);
    b.add_type(type);
    b.add_type_id(id);
    if (!inputs.empty()) b.add_inputs(in);
    b.add_outputs(out);
    b.add_priority(priority);
    b.add_opr_version(version);
    b.add_name(n);
    if (param_type) {
      b.add_param_type(static_cast<v2::OperatorParam>(param_type));
      b.add_param(param);
    }
    if (!tensors.empty()) b.add_tensors(t);
    oprs.push_back(b.Finish());
  };
  auto user_info = fbb.CreateSharedString(PickleStr("hi"));
  auto metadata = v2::CreateMetadata(fbb, true, false, 64, user_info);
  op("Host2DeviceCopy", 2, "data", 0, {}, {0}, v2::OperatorParam_param_Host2DeviceCopy,
     fbsp::CreateHost2DeviceCopy(fbb).Union(), {tensor("data", {1, 3}, {})});
  op("MultipleDeviceTensorHolder", 2, "merged0", 3, {}, {1, 2}, 0, 0,
     {tensor("w", {1, 3}, {1, 2, 3}),
      tensor("b", bias_shape, std::vector<float>(bias_shape.size() == 2 ? 3 : 1, 0.5f))});
  op("Elemwise", 1, "mul", 5, {0, 1}, {3}, v2::OperatorParam_param_Elemwise, elemwise(21), {});
  op("Elemwise", 1, "add", 7, {3, 2}, {4}, v2::OperatorParam_param_Elemwise, elemwise(16), {});
  auto opr_vec = fbb.CreateVector(oprs);
  std::vector<flatbuffers::Offset<v2::MiddleTensor>> middle;
  for (const char* name : {"data", "w", "b", "mul", "out"}) {
    middle.push_back(v2::CreateMiddleTensor(fbb, fbb.CreateSharedString(name)));
  }
  auto middle_vec = fbb.CreateVector(middle);
  auto outputs = fbb.CreateVector(
      std::vector<flatbuffers::Offset<v2::OutputVar>>{v2::CreateOutputVar(fbb, 4, 44)});
  auto aliases = fbb.CreateVector(std::vector<flatbuffers::Offset<v2::OutputAlias>>{});
  v2::ModelBuilder mb(fbb);
  mb.add_mge_version(1099900);
  mb.add_model_version(2);
  mb.add_oprs(opr_vec);
  mb.add_middle_tensors(middle_vec);
  mb.add_output_vars_idx(outputs);
  mb.add_output_alias(aliases);
  mb.add_nr_shared_tensor(2);
  mb.add_metadata(metadata);
  fbb.FinishSizePrefixed(mb.Finish(), v2::ModelIdentifier());
  return std::string(reinterpret_cast<const char*>(fbb.GetBufferPointer()), fbb.GetSize());
}

}  // namespace graphport::mge::testing

#endif  // GRAPHPORT_TESTS_CPP_MGE_TEST_MODEL_H_

// A one-operator FBS_V2 model for the tests: Host2DeviceCopy inputs, then one operator of a
// given class with a param built by the test, registered as MegEngine registers it.
#ifndef GRAPHPORT_TESTS_CPP_MGE_ONE_OP_MODEL_H_
#define GRAPHPORT_TESTS_CPP_MGE_ONE_OP_MODEL_H_

#include <flatbuffers/flatbuffers.h>
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "mge/opr_registry.h"
#include "mge/schema/model_v2_generated.h"

namespace graphport::mge::testing {

namespace v2 = mgb::serialization::fbs::v2;
namespace fbsp = mgb::serialization::fbs::param;
using ParamFn = std::function<flatbuffers::Offset<void>(flatbuffers::FlatBufferBuilder&)>;

struct OneOp {
  std::string key;                                  // the operator class ("Softmax")
  uint8_t param_type = 0;                           // its param's union number, 0 for none
  ParamFn param;                                    // builds that param
  std::vector<std::vector<uint32_t>> input_shapes;  // one Host2DeviceCopy each
  uint32_t outputs = 1;                             // numbered outputs of the operator
  std::vector<uint32_t> graph_outputs = {0};        // which of them are the graph's outputs
};

// An FBS_V2 model: Host2DeviceCopy inputs i0, i1, ... (Float32 on xpux:0), then the operator,
// registered as MegEngine registers it; its outputs are named o0, o1, ...
inline std::string Model(const OneOp& spec) {
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<flatbuffers::Offset<v2::Operator>> oprs;
  std::vector<flatbuffers::Offset<v2::MiddleTensor>> middle;
  const uint32_t n_in = static_cast<uint32_t>(spec.input_shapes.size());
  for (uint32_t i = 0; i < n_in; ++i) {
    const std::string name = "i" + std::to_string(i);
    auto p = fbsp::CreateHost2DeviceCopy(fbb).Union();
    auto t =
        v2::CreateTensor(fbb, fbb.CreateSharedString(name), fbb.CreateVector(spec.input_shapes[i]),
                         v2::CreateCompNode(fbb, fbb.CreateSharedString("xpux:0")),
                         mgb::serialization::fbs::CreateDType(fbb));
    auto tensors = fbb.CreateVector(std::vector<flatbuffers::Offset<v2::Tensor>>{t});
    auto outs = fbb.CreateVector(std::vector<uint32_t>{i});
    auto type = fbb.CreateSharedString("Host2DeviceCopy");
    v2::OperatorBuilder b(fbb);
    b.add_type(type);
    b.add_type_id(PersistTypeId("Host2DeviceCopy"));
    b.add_outputs(outs);
    b.add_opr_version(2);
    b.add_param_type(v2::OperatorParam_param_Host2DeviceCopy);
    b.add_param(p);
    b.add_tensors(tensors);
    oprs.push_back(b.Finish());
    middle.push_back(v2::CreateMiddleTensor(fbb, fbb.CreateSharedString(name)));
  }
  V2Registration reg;
  EXPECT_TRUE(V2RegistrationOf(*FindClassByKey(spec.key), &reg)) << spec.key;
  flatbuffers::Offset<void> p;
  if (spec.param_type) p = spec.param(fbb);
  std::vector<uint32_t> inputs, outputs;
  for (uint32_t i = 0; i < n_in; ++i) inputs.push_back(i);
  for (uint32_t k = 0; k < spec.outputs; ++k) {
    outputs.push_back(n_in + k);
    middle.push_back(v2::CreateMiddleTensor(fbb, fbb.CreateSharedString("o" + std::to_string(k))));
  }
  auto in = fbb.CreateVector(inputs);
  auto outs = fbb.CreateVector(outputs);
  auto type = fbb.CreateSharedString(reg.type);
  v2::OperatorBuilder b(fbb);
  b.add_type(type);
  b.add_type_id(reg.type_id);
  b.add_inputs(in);
  b.add_outputs(outs);
  b.add_opr_version(reg.opr_version);
  if (spec.param_type) {
    b.add_param_type(static_cast<v2::OperatorParam>(spec.param_type));
    b.add_param(p);
  }
  oprs.push_back(b.Finish());
  auto opr_vec = fbb.CreateVector(oprs);
  auto middle_vec = fbb.CreateVector(middle);
  std::vector<flatbuffers::Offset<v2::OutputVar>> graph_outputs;
  for (uint32_t k : spec.graph_outputs) {
    graph_outputs.push_back(v2::CreateOutputVar(fbb, n_in + k, 100 + k));
  }
  auto output_vec = fbb.CreateVector(graph_outputs);
  v2::ModelBuilder mb(fbb);
  mb.add_mge_version(1099900);
  mb.add_model_version(2);
  mb.add_oprs(opr_vec);
  mb.add_middle_tensors(middle_vec);
  mb.add_output_vars_idx(output_vec);
  fbb.FinishSizePrefixed(mb.Finish(), v2::ModelIdentifier());
  return std::string(reinterpret_cast<const char*>(fbb.GetBufferPointer()), fbb.GetSize());
}

}  // namespace graphport::mge::testing

#endif  // GRAPHPORT_TESTS_CPP_MGE_ONE_OP_MODEL_H_

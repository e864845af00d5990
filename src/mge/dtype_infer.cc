#include "mge/dtype_infer.h"

#include <flatbuffers/flatbuffers.h>

#include <set>
#include <string>
#include <string_view>

#include "mge/dtype.h"
#include "mge/schema/operator_param_v1_generated.h"

namespace graphport::mge {
namespace {

namespace fbs = mgb::serialization::fbs;
namespace param = mgb::serialization::fbs::param;

enum : int {
  kFloat32 = fbs::DTypeEnum_Float32,
  kInt8 = fbs::DTypeEnum_Int8,
  kInt16 = fbs::DTypeEnum_Int16,
  kInt32 = fbs::DTypeEnum_Int32,
  kFloat16 = fbs::DTypeEnum_Float16,
  kQuantizedS4 = fbs::DTypeEnum_QuantizedS4,
  kQuantizedS32 = fbs::DTypeEnum_QuantizedS32,
  kQuantizedS16 = fbs::DTypeEnum_QuantizedS16,
  kBFloat16 = fbs::DTypeEnum_BFloat16,
  kBool = fbs::DTypeEnum_Bool,
};

// The first of the operator's params (param or additional) of union member `type`, as the
// generated table T; nullptr when it has none.
template <typename T>
const T* AnyParamAs(const Operator& op, uint8_t type) {
  for (const Param& p : op.params) {
    if (p.type == type && p.table != nullptr) return reinterpret_cast<const T*>(p.table);
  }
  return nullptr;
}

bool IsFloat(int t) { return t == kFloat32 || t == kFloat16 || t == kBFloat16; }

// MegEngine's dtype promotion for Elemwise inputs (BatchedDTypePromotion), simplified to the
// cases real graphs have: equal -> that; a quantized one -> it; mixed categories -> Float32;
// same category -> the larger.
std::optional<int> Promote(const std::vector<std::optional<int>>& in) {
  std::optional<int> out;
  for (const auto& t : in) {
    if (!t) return std::nullopt;
    if (!out || *out == *t) {
      out = t;
    } else if (IsQuantized(*out) || IsQuantized(*t)) {
      if (!IsQuantized(*out)) out = t;
    } else if (IsFloat(*out) != IsFloat(*t)) {
      out = kFloat32;
    } else if (IsFloat(*out)) {
      out = kFloat32;  // Float16 mixed with Float32 counts as Float32
    } else {
      uint64_t a = 0, b = 0;
      ValueBytes(*out, {1}, &a);
      ValueBytes(*t, {1}, &b);
      if (b > a) out = t;
    }
  }
  return out;
}

std::optional<int> ConvOutput(std::optional<int> src) {
  if (!src) return std::nullopt;
  if (IsFloat(*src)) return src;
  if (*src == kInt8) return kInt32;
  if (IsQuantized(*src)) return kQuantizedS32;
  return src;
}

}  // namespace

bool HasWorkspaceOutput(const Operator& op) {
  return op.cls != nullptr && ClassHasWorkspaceOutput(op.cls->key);
}

bool ClassHasWorkspaceOutput(std::string_view key) {
  static const std::set<std::string_view> kWithWorkspace = {"Convolution",
                                                            "ConvolutionBackwardData",
                                                            "ConvolutionBackwardFilter",
                                                            "ConvBiasForward",
                                                            "BatchConvBiasForward",
                                                            "Convolution3D",
                                                            "Convolution3DBackwardData",
                                                            "Convolution3DBackwardFilter",
                                                            "LocalShareForward",
                                                            "LocalShareBackwardData",
                                                            "LocalShareBackwardFilter",
                                                            "DeformableConvForward",
                                                            "DeformableConvBackwardData",
                                                            "DeformableConvBackwardFilter",
                                                            "MatrixMul",
                                                            "BatchedMatrixMul",
                                                            "Pooling",
                                                            "PoolingBackward",
                                                            "Reduce",
                                                            "PowC",
                                                            "Softmax",
                                                            "SoftmaxBackward",
                                                            "Resize",
                                                            "WarpPerspective",
                                                            "IndexingMultiAxisVec",
                                                            "IndexingSetMultiAxisVec",
                                                            "IndexingIncrMultiAxisVec",
                                                            "UniformRNG",
                                                            "GaussianRNG",
                                                            "GammaRNG",
                                                            "PoissonRNG",
                                                            "BetaRNG",
                                                            "PermutationRNG",
                                                            "ShuffleRNG",
                                                            "AdaptivePooling",
                                                            "LayerNorm",
                                                            "LayerNormBackward",
                                                            "GroupNorm",
                                                            "InstanceNorm",
                                                            "BatchNorm",
                                                            "ROIAlign",
                                                            "ROIPooling",
                                                            "Argsort",
                                                            "TopK",
                                                            "CondTake",
                                                            "MaskConvolution",
                                                            "RegionRestrictedConvolution",
                                                            "LRN",
                                                            "Dropout",
                                                            "Remap",
                                                            "WarpAffine",
                                                            "CvtColor",
                                                            "Images2Neibs",
                                                            "Correlation"};
  return kWithWorkspace.count(key) != 0;
}

std::vector<std::optional<int>> InferVarDTypes(const Graph& g) {
  std::vector<std::optional<int>> dt(g.vars.size());
  // One buffer for every operator's input dtypes, and the class key not copied: this runs
  // over every operator of a 100k-operator graph at each optimization.
  std::vector<std::optional<int>> in;
  for (const Operator& op : g.oprs) {
    in.clear();
    if (op.inputs) {
      for (uint32_t id : *op.inputs) in.push_back(id < dt.size() ? dt[id] : std::nullopt);
    }
    const std::optional<int> first = in.empty() ? std::nullopt : in[0];
    const std::string_view key = op.cls ? std::string_view(op.cls->key) : std::string_view();
    for (size_t k = 0; k < op.outputs.size(); ++k) {
      uint32_t v = op.outputs[k];
      std::optional<int> t;
      const MiddleTensor& mt = g.vars[v].middle;
      if (mt.dtype) {
        t = mt.dtype->type;
      } else if (op.output_dtype) {
        t = op.output_dtype->type;
      } else if (!op.tensors.empty() &&
                 (key == "Host2DeviceCopy" || key == "ImmutableTensor" ||
                  key == "SharedDeviceTensor" || key == "VolatileSharedDeviceTensor" ||
                  key == "SharedDeviceTensorWithFormat" || key == "MultipleDeviceTensorHolder" ||
                  key == "MultipleDeviceTensorWithFormatHolder")) {
        const Tensor& tensor = op.tensors[std::min(k, op.tensors.size() - 1)];
        t = tensor.dtype ? std::optional<int>(tensor.dtype->type) : std::nullopt;
      } else if (key == "TypeCvt") {
        for (const Param& p : op.params) {  // the last DType param
          if (p.type == fbs::OperatorParam_DType && p.table != nullptr) {
            t = reinterpret_cast<const fbs::DType*>(p.table)->type();
          }
        }
      } else if (key == "GetVarShape" || key == "Argmax" || key == "Argmin" || key == "NonZero" ||
                 (k == 1 && (key == "Argsort" || key == "TopK" || key == "CondTake" ||
                             key == "ROIAlign" || key == "ROIPooling"))) {
        t = kInt32;
      } else if (key == "Elemwise") {
        t = Promote(in);
      } else if (key == "ElemwiseMultiType") {
        const auto* p =
            AnyParamAs<param::ElemwiseMultiType>(op, fbs::OperatorParam_param_ElemwiseMultiType);
        const uint32_t mode = p == nullptr ? 0u : static_cast<uint32_t>(p->mode());
        if (mode >= param::ElemwiseMultiTypeMode_EQ && mode <= param::ElemwiseMultiTypeMode_ISINF) {
          t = kBool;  // the comparisons
        }
      } else if (key == "Reduce") {
        const auto* p = AnyParamAs<param::Reduce>(op, fbs::OperatorParam_param_Reduce);
        switch (p == nullptr ? param::ReduceDataType_DEFAULT : p->data_type()) {
          case param::ReduceDataType_DEFAULT:
            t = first;
            break;
          case param::ReduceDataType_FLOAT_IO16xC32:
          case param::ReduceDataType_FLOAT_O16xC32:
            t = kFloat16;
            break;
          case param::ReduceDataType_FLOAT_O32xC32:
            t = kFloat32;
            break;
          default:
            t = kQuantizedS32;
        }
      } else if (key == "Convolution" || key == "ConvolutionBackwardData" ||
                 key == "ConvBiasForward" || key == "BatchConvBiasForward") {
        t = ConvOutput(first);
      } else if (key == "MatrixMul" || key == "BatchedMatrixMul") {
        if (first && (*first == kInt8 || *first == kInt16)) {
          t = kInt32;
        } else if (first && *first == kQuantizedS4) {
          t = kQuantizedS16;
        } else {
          t = ConvOutput(first);
        }
      } else if (key == "UniformRNG" || key == "GaussianRNG") {
        t = kFloat32;
      } else {
        t = first;
      }
      dt[v] = t;
    }
  }
  return dt;
}

}  // namespace graphport::mge

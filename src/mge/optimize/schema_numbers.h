// The MegEngine numbers the passes and the evaluator read and write (the OperatorParam
// union's member numbers, the param enums' values, DTypeEnum), taken from the
// flatc-generated schema instead of copied by hand, so that they cannot drift from what the
// loader and the dumper use.
#ifndef GRAPHPORT_MGE_OPTIMIZE_SCHEMA_NUMBERS_H_
#define GRAPHPORT_MGE_OPTIMIZE_SCHEMA_NUMBERS_H_

#include <cstdint>

#include "mge/mge_model.h"
#include "mge/schema/mgb_opr_params_generated.h"
#include "mge/schema/operator_param_v1_generated.h"

namespace graphport::mge::opt {

namespace fbs = mgb::serialization::fbs;

// OperatorParam union members: the type byte of an operator's param.
inline constexpr uint8_t kEmptyParam = fbs::OperatorParam_param_Empty;
inline constexpr uint8_t kAxisParam = fbs::OperatorParam_param_Axis;
inline constexpr uint8_t kConvolutionParam = fbs::OperatorParam_param_Convolution;
inline constexpr uint8_t kConvBiasParam = fbs::OperatorParam_param_ConvBias;
inline constexpr uint8_t kBNParam = fbs::OperatorParam_param_BN;
inline constexpr uint8_t kElemwiseParam = fbs::OperatorParam_param_Elemwise;
inline constexpr uint8_t kPowCParam = fbs::OperatorParam_param_PowC;
inline constexpr uint8_t kMatrixMulParam = fbs::OperatorParam_param_MatrixMul;
inline constexpr uint8_t kReduceParam = fbs::OperatorParam_param_Reduce;
inline constexpr uint8_t kOptionalAxisV1Param = fbs::OperatorParam_param_OptionalAxisV1;
inline constexpr uint8_t kDimshuffleParam = fbs::OperatorParam_param_Dimshuffle;
inline constexpr uint8_t kAxisAddRemoveParam = fbs::OperatorParam_param_AxisAddRemove;
inline constexpr uint8_t kDTypeParam = fbs::OperatorParam_DType;
inline constexpr uint8_t kAdaptivePoolingParam = fbs::OperatorParam_param_AdaptivePooling;
inline constexpr uint8_t kIndexDescParam = fbs::OperatorParam_param_IndexDescMaskDump;

// Elemwise modes the passes use (and their tests: kAbs, kExp).
enum ElemwiseMode : uint32_t {
  kRelu = fbs::param::ElemwiseMode_RELU,
  kAbs = fbs::param::ElemwiseMode_ABS,
  kExp = fbs::param::ElemwiseMode_EXP,
  kNegate = fbs::param::ElemwiseMode_NEGATE,
  kSigmoid = fbs::param::ElemwiseMode_SIGMOID,
  kTanh = fbs::param::ElemwiseMode_TANH,
  kAdd = fbs::param::ElemwiseMode_ADD,
  kMax = fbs::param::ElemwiseMode_MAX_,
  kMin = fbs::param::ElemwiseMode_MIN_,
  kMul = fbs::param::ElemwiseMode_MUL,
  kPow = fbs::param::ElemwiseMode_POW,
  kSub = fbs::param::ElemwiseMode_SUB,
  kTrueDiv = fbs::param::ElemwiseMode_TRUE_DIV,
  kFuseMulAdd3 = fbs::param::ElemwiseMode_FUSE_MUL_ADD3,
  kFuseMulAdd4 = fbs::param::ElemwiseMode_FUSE_MUL_ADD4,
  kFuseAddRelu = fbs::param::ElemwiseMode_FUSE_ADD_RELU,
  kFuseAddSigmoid = fbs::param::ElemwiseMode_FUSE_ADD_SIGMOID,
  kFuseAddTanh = fbs::param::ElemwiseMode_FUSE_ADD_TANH,
  kHSwishMode = fbs::param::ElemwiseMode_H_SWISH,
  kFuseAddHSwish = fbs::param::ElemwiseMode_FUSE_ADD_H_SWISH,
};

// Reduce's modes and data types the passes use.
inline constexpr uint32_t kReduceSum = fbs::param::ReduceMode_SUM;
inline constexpr uint32_t kReduceMean = fbs::param::ReduceMode_MEAN;
inline constexpr uint32_t kReduceMax = fbs::param::ReduceMode_MAX_;

// OptionalAxisV1's "no axis" (MegEngine's INVALID_AXIS, MAX_NDIM): the default of its axis
// field, which flatc writes into the accessor without a name.
inline constexpr int32_t kNoAxis = 7;

// The axis of an operator whose param is OptionalAxisV1 (GetVarShape, Reshape): kNoAxis when
// it has none, or another param.
inline int32_t OptionalAxisOf(const Operator& op) {
  const auto* p = op.ParamAs<fbs::param::OptionalAxisV1>(kOptionalAxisV1Param);
  return p == nullptr ? kNoAxis : p->axis();
}

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_SCHEMA_NUMBERS_H_

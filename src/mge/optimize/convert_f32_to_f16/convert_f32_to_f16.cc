#include "mge/optimize/convert_f32_to_f16/convert_f32_to_f16.h"

#include <set>
#include <string>
#include <string_view>

#include "mge/optimize/fuse_conv_bias_nonlin/conv_bias.h"
#include "mge/optimize/refuse_operator.h"
#include "mge/optimize/rewriter.h"
#include "mge/optimize/schema_numbers.h"
#include "mge/schema/opr_params_generated.h"

namespace graphport::mge::opt {
namespace {

namespace param = mgb::serialization::fbs::param;

// Operators whose outputs take their first input's dtype, which MegEngine's pass re-makes on
// the float16 inputs as they are (its table's "everything else"). GetVarShape stays Int32;
// ConvolutionBackwardFilter's gradient takes its src's float dtype, as the convolutions'
// outputs do (it is not in the table: no compute_mode change).
bool FollowsInputDType(std::string_view key) {
  static const auto* keys = new std::set<std::string_view>{"Elemwise",
                                                           "PowC",
                                                           "Pooling",
                                                           "AdaptivePooling",
                                                           "Concat",
                                                           "Reshape",
                                                           "Broadcast",
                                                           "Dimshuffle",
                                                           "AxisAddRemove",
                                                           "Subtensor",
                                                           "SetSubtensor",
                                                           "IndexingMultiAxisVec",
                                                           "Split",
                                                           "Identity",
                                                           "Copy",
                                                           "MarkNoBroadcastElemwise",
                                                           "ShapeHint",
                                                           "GetVarShape",
                                                           "Resize",
                                                           "WarpAffine",
                                                           "Softmax",
                                                           "Padding",
                                                           "ConvolutionBackwardFilter"};
  return keys->count(key) != 0;
}

class Converter {
 public:
  Converter(OptGraph* g, bool use_f32_comp)
      : g_(g),
        rw_(g),
        f32_comp_(use_f32_comp),
        kwarg_(use_f32_comp ? RefusingKwarg{"enable_io16xc32", "enableIo16xc32"}
                            : RefusingKwarg{"enable_ioc16", "enableIoc16"}) {}

  PassReport Run() {
    std::vector<std::optional<int>> dtypes;
    for (const VarRef& v : g_->endpoints()) dtypes.push_back(g_->var(v).dtype);
    rw_.ForEachOperator([&](uint32_t node) { Visit(node); });
    rw_.Apply();
    // The outputs go back to their dtypes: a second rewrite, as MegEngine's, whose TypeCvt
    // takes the float16 var's name by the replacement rule.
    Rewriter back(g_);
    for (size_t i = 0; i < g_->endpoints().size(); ++i) {
      const VarRef v = g_->endpoints()[i];
      if (!dtypes[i] || g_->var(v).dtype == dtypes[i]) continue;
      back.Replace(v, back.maker().TypeCvt(v, *dtypes[i]));
      ++restored_;
    }
    back.Apply();
    PassReport report{f32_comp_ ? "ConvertF32ToF16(io16xc32)" : "ConvertF32ToF16(ioc16)",
                      converted_ + remade_ != 0, ""};
    if (report.changed) {
      report.summary = std::to_string(converted_) + " Float32 sources to Float16, " +
                       std::to_string(remade_) + " operators made again in Float16" +
                       (f32_comp_ ? " (" + std::to_string(f32_compute_) + " computing in Float32)"
                                  : std::string()) +
                       ", " + std::to_string(restored_) + " outputs converted back";
    }
    return report;
  }

 private:
  [[noreturn]] void Refuse(uint32_t node, const std::string& what) const {
    RefuseOperator(*g_, node, what, &kwarg_);
  }

  bool InputsReplaced(uint32_t node) const {
    for (const VarRef& r : g_->node(node).inputs) {
      if (rw_.Get(r) != r) return true;
    }
    return false;
  }

  // A var of a re-made operator holds `dtype`: its static dtype and a middle tensor's.
  void SetDType(VarRef v, int dtype) {
    OptVar& var = g_->mutable_var(v);
    var.dtype = dtype;
    if (var.middle().dtype && var.middle().dtype->type != dtype) {
      var.mutable_middle().dtype->type = static_cast<int8_t>(dtype);
    }
  }

  void Visit(uint32_t node) {
    // Nodes are not held by reference: making an operator may move them all.
    const std::string_view key = g_->Key(node);
    if (key == "Host2DeviceCopy" || key == "SharedDeviceTensor" || key == "ImmutableTensor" ||
        key == "SharedDeviceTensorWithFormat" || key == "VolatileSharedDeviceTensor" ||
        key == "MultipleDeviceTensorHolder" || key == "MultipleDeviceTensorWithFormatHolder" ||
        key == "Linspace") {
      for (uint32_t k = 0; k < g_->node(node).outputs.size(); ++k) {
        const VarRef v{node, k};
        const std::optional<int> dtype = g_->var(v).dtype;
        const bool convert = key == "Linspace" ? dtype != kF16 : dtype == kF32;
        if (!convert) continue;
        rw_.Replace(v, rw_.maker().TypeCvt(v, kF16));
        ++converted_;
      }
      return;
    }
    if (!InputsReplaced(node)) return;  // nothing Float32 reaches it
    if (key == "TypeCvt") return VisitTypeCvt(node);
    if (key == "Convolution" || key == "ConvolutionBackwardData" || key == kConvBiasKey ||
        key == "BatchedMatrixMul" || key == "MatrixMul") {
      return VisitLinear(node, key);
    }
    if (key == "Reduce") return VisitReduce(node);
    if (key == "WarpPerspective" || key == "Remap") return VisitWarp(node);
    if (!FollowsInputDType(key)) {
      Refuse(node,
             "reads a var that becomes Float16, and what it makes of Float16 is not known "
             "here; graphport converts only the operators of MegEngine's ConvertF32ToF16 table "
             "and those whose outputs take their input's dtype");
    }
    Remake(node);
  }

  // auto_replace_outputs on the new inputs; the outputs take the first input's new dtype.
  void Remake(uint32_t node) {
    const size_t before = g_->size();
    rw_.AutoReplaceOutputs(node);
    ++remade_;
    const std::optional<int> in = g_->var(rw_.Get(g_->node(node).inputs[0])).dtype;
    if (g_->Key(node) == "GetVarShape" || !in) return;
    for (uint32_t k = 0; k < g_->node(node).outputs.size(); ++k) {
      const VarRef made = rw_.Get({node, k});
      // Only an operator made now: a folded constant or an older operator has its dtype.
      if (made.node >= before && g_->Key(made.node) != "ImmutableTensor") SetDType(made, *in);
    }
  }

  // TypeCvt to Float32 converts to Float16 instead (with its config); to another dtype it
  // is made again on the new input. TypeCvt::make gives its input back when that has the
  // target dtype already (a model converted before: its TypeCvt to Float16 after an input).
  void VisitTypeCvt(uint32_t node) {
    const Operator& op = g_->node(node).op();
    const auto* target = op.params.empty() || op.params[0].type != kDTypeParam
                             ? nullptr
                             : reinterpret_cast<const fbs::DType*>(op.params[0].table);
    if (target == nullptr) Refuse(node, "has no dtype param");
    const VarRef in = rw_.Get(g_->node(node).inputs[0]);
    ++remade_;
    const bool plain = target->param_type() == fbs::DTypeParam_NONE;
    const int to =
        plain && target->type() == fbs::DTypeEnum_Float32 ? static_cast<int>(kF16) : target->type();
    if (plain && g_->var(in).dtype == to) {
      rw_.Replace({node, 0}, in);
      return;
    }
    if (to == target->type()) {
      rw_.AutoReplaceOutputs(node);
      return;
    }
    Operator made = op;
    flatbuffers::FlatBufferBuilder fbb(64);
    made.params[0] =
        g_->OwnParam(kDTypeParam, &fbb, fbs::CreateDType(fbb, fbs::DTypeEnum_Float16).Union());
    OptNode cvt;
    cvt.set_op(std::move(made));
    cvt.inputs = {in};
    cvt.outputs.resize(1);
    cvt.outputs[0].dtype = kF16;
    rw_.Replace({node, 0}, rw_.maker().Insert(std::move(cvt), ""));
  }

  // The param table of `op` with compute_mode FLOAT32 (Convolution, ConvBias, MatrixMul).
  Param Float32Compute(uint32_t node, std::string_view key) {
    const Operator& op = g_->node(node).op();
    const Param& p = op.params[0];
    flatbuffers::FlatBufferBuilder fbb(128);
    if (p.type == kConvolutionParam) {
      const auto* c = reinterpret_cast<const param::Convolution*>(p.table);
      return g_->OwnParam(
          p.type, &fbb,
          param::CreateConvolution(fbb, c->mode(), c->pad_h(), c->pad_w(), c->stride_h(),
                                   c->stride_w(), c->dilate_h(), c->dilate_w(), c->sparse(),
                                   c->format(), param::ConvolutionV1ComputeMode_FLOAT32)
              .Union());
    }
    if (p.type == kConvBiasParam) {
      const auto* c = reinterpret_cast<const param::ConvBias*>(p.table);
      return g_->OwnParam(
          p.type, &fbb,
          param::CreateConvBias(fbb, c->nonlineMode(), c->mode(), c->sparse(), c->format(),
                                c->pad_h(), c->pad_w(), c->stride_h(), c->stride_w(), c->dilate_h(),
                                c->dilate_w(), param::ConvolutionV1ComputeMode_FLOAT32)
              .Union());
    }
    if (p.type == kMatrixMulParam) {
      const auto* m = reinterpret_cast<const param::MatrixMul*>(p.table);
      return g_->OwnParam(p.type, &fbb,
                          param::CreateMatrixMul(fbb, m->transposeA(), m->transposeB(),
                                                 param::MatrixMulV1ComputeMode_FLOAT32, m->format())
                              .Union());
    }
    Refuse(node, "has a param table of another version than " + std::string(key) +
                     "'s current one, whose compute_mode graphport cannot set");
  }

  // Convolution, ConvolutionBackwardData, ConvBias, BatchedMatrixMul (src and filter must be
  // Float16: MegEngine asserts it) and MatrixMul: made again with the original config, with
  // compute_mode FLOAT32 for io16xc32.
  void VisitLinear(uint32_t node, std::string_view key) {
    std::vector<VarRef> in = rw_.Inputs(node);
    if (key != "MatrixMul") {
      for (size_t k = 0; k < 2 && k < in.size(); ++k) {
        if (g_->var(in[k]).dtype != kF16) {
          Refuse(node, "has a " + std::string(k == 0 ? "first" : "second") +
                           " input that is not Float16 after the conversion (MegEngine's pass "
                           "asserts that both are)");
        }
      }
    }
    const Operator& op = g_->node(node).op();
    if (op.params.empty() || op.params[0].table == nullptr) Refuse(node, "has no param table");
    Operator made = op;
    if (f32_comp_) {
      made.params[0] = Float32Compute(node, key);
      ++f32_compute_;
    }
    OptNode r;
    r.set_op(std::move(made));
    r.inputs = std::move(in);
    const uint32_t outputs = static_cast<uint32_t>(g_->node(node).outputs.size());
    r.outputs.resize(outputs);
    const int out_dtype = op.output_dtype ? op.output_dtype->type : static_cast<int>(kF16);
    for (OptVar& v : r.outputs) v.dtype = out_dtype;
    const VarRef first = rw_.maker().Insert(std::move(r), "");
    for (uint32_t k = 0; k < outputs; ++k) rw_.Replace({node, k}, {first.node, k});
    ++remade_;
  }

  // Reduce: FLOAT_O16xC32 for io16xc32 when it reads a float var, else made again.
  // replace_reduce_opr makes a new Reduce (named anew unless the old one had a name of its
  // own), computing in Float32 for io16xc32.
  void VisitReduce(uint32_t node) {
    const VarRef in = rw_.Get(g_->node(node).inputs[0]);
    const Operator& op = g_->node(node).op();
    if (op.params.empty() || op.params[0].type != kReduceParam) {
      Refuse(node, "has no Reduce param table");
    }
    const bool f32_compute = f32_comp_ && g_->var(in).dtype == kF16;
    const auto* p = reinterpret_cast<const param::Reduce*>(op.params[0].table);
    Operator made = op;
    if (f32_compute) {
      flatbuffers::FlatBufferBuilder fbb(64);
      made.params[0] = g_->OwnParam(
          kReduceParam, &fbb,
          param::CreateReduce(fbb, p->mode(), p->axis(), param::ReduceDataType_FLOAT_O16xC32)
              .Union());
    }
    OptNode r;
    r.set_op(std::move(made));
    r.inputs = rw_.Inputs(node);
    r.outputs.resize(1);
    r.outputs[0].dtype = f32_compute ? std::optional<int>(kF16) : g_->var(in).dtype;
    rw_.Replace({node, 0}, rw_.maker().Insert(std::move(r), ""));
    ++remade_;
    if (f32_compute) ++f32_compute_;
  }

  // WarpPerspective's matrix and Remap's map (input 1) stay Float32: the Float32 var a
  // TypeCvt to Float16 was made from, or a TypeCvt back.
  void VisitWarp(uint32_t node) {
    std::vector<VarRef> in = rw_.Inputs(node);
    if (in.size() < 2) Refuse(node, "has fewer than two inputs");
    VarRef& mat = in[1];
    if (g_->var(mat).dtype == kF16) {
      const VarList& producer = g_->node(mat.node).inputs;
      if (g_->Key(mat.node) == "TypeCvt" && producer.size() == 1 &&
          g_->var(producer[0]).dtype == kF32) {
        mat = producer[0];
      } else {
        mat = rw_.maker().TypeCvt(mat, kF32);
      }
    }
    const uint32_t copy = rw_.maker().Copy(node, in);
    ++remade_;
    for (uint32_t k = 0; k < g_->node(node).outputs.size(); ++k) {
      const VarRef made{copy, k};
      if (g_->var(in[0]).dtype) SetDType(made, *g_->var(in[0]).dtype);
      rw_.Replace({node, k}, made);
    }
  }

  OptGraph* g_;
  Rewriter rw_;
  const bool f32_comp_;
  const RefusingKwarg kwarg_;
  uint32_t converted_ = 0, remade_ = 0, f32_compute_ = 0, restored_ = 0;
};

}  // namespace

PassReport ConvertF32ToF16Ioc16(OptGraph* g) { return Converter(g, false).Run(); }

PassReport ConvertF32ToF16Io16xc32(OptGraph* g) { return Converter(g, true).Run(); }

}  // namespace graphport::mge::opt

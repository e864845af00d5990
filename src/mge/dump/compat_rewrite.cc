// PassConvertToCompatible: walks the graph once, asks each operator's converter (v1 or V2
// registry) for a replacement, and renumbers the result in the dumper's order.
#include "mge/dump/compat_rewrite.h"

#include <set>

#include "mge/dtype_infer.h"
#include "mge/dump/compat_converters.h"
#include "mge/schema/opr_params_generated.h"

namespace graphport::mge {
namespace {

const std::set<std::string>& V1OnlyConverters() {
  static const auto* keys = new std::set<std::string>{"Softmax", "LayerNorm", "Dropout"};
  return *keys;
}
const std::set<std::string>& BothConverters() {
  static const auto* keys = new std::set<std::string>{"GroupNorm", "InstanceNorm"};
  return *keys;
}
// Converters MegEngine has that graphport does not implement (both registries).
const std::set<std::string>& MissingConverters() {
  static const auto* keys = new std::set<std::string>{"GroupNormBackward", "InstanceNormBackward"};
  return *keys;
}

class Rewriter {
 public:
  Rewriter(const Graph& g, DumpFormat target, bool compat_814, RewrittenGraph* out)
      : g_(g), target_(target), compat_814_(compat_814), out_(out), b_(g, out) {}

  bool Run() {
    if (!NeedsAny()) return false;
    std::vector<std::optional<int>> dtypes = InferVarDTypes(g_);
    std::vector<bool> used(g_.vars.size(), false);
    for (const Operator& op : g_.oprs) {
      if (op.inputs) {
        for (uint32_t id : *op.inputs) used[id] = true;
      }
    }
    for (const OutputVar& v : g_.outputs) used[v.compact_id] = true;

    std::vector<std::optional<compat::Ref>> replace(g_.vars.size());
    for (size_t i = 0; i < g_.oprs.size(); ++i) {
      const Operator& op = g_.oprs[i];
      b_.Begin(i, op.priority);
      compat::Node n;
      n.op = op;
      n.rank = i;
      n.outputs = static_cast<uint32_t>(op.outputs.size());
      if (op.inputs) {
        for (uint32_t id : *op.inputs) n.inputs.push_back(*replace[id]);
      }
      for (size_t k = 0; k < op.outputs.size(); ++k) {
        n.middle.push_back(g_.vars[op.outputs[k]].middle);
        n.dtypes.push_back(dtypes[op.outputs[k]]);
      }
      if (op.output_names) {
        n.has_v1_names = true;
        for (const auto& s : *op.output_names) n.v1_names.push_back(s);
      }
      if (op.cls != nullptr && op.cls->key == "CheckNonFinite") {
        if (target_ == DumpFormat::kFbsV1) KeepCheckNonFiniteForV1(i, used, &n);
        if (target_ == DumpFormat::kFbsV2) NumberAllCheckNonFiniteOutputs(&n);
        uint32_t index = b_.AddExisting(std::move(n));
        const uint32_t flag = b_.node(compat::Ref{index, 0}).outputs - 1;
        replace[op.outputs.back()] = compat::Ref{index, flag};
        for (uint32_t k = 0; k + 1 < op.outputs.size() && k < flag; ++k) {
          replace[op.outputs[k]] = compat::Ref{index, k};
        }
        continue;
      }
      std::optional<compat::Ref> replaced = Convert(n);
      if (!replaced) {
        uint32_t index = b_.AddExisting(std::move(n));
        for (uint32_t k = 0; k < op.outputs.size(); ++k)
          replace[op.outputs[k]] = compat::Ref{index, k};
        continue;
      }
      ++out_->rewritten;
      // The replacement var keeps the old var's name and place among the outputs.
      compat::Node& r = b_.mutable_node(replaced->node);
      r.middle[0] = n.middle[0];
      if (n.has_v1_names) {
        r.has_v1_names = true;
        r.v1_names = {n.v1_names.empty() ? std::nullopt : n.v1_names[0]};
      }
      replace[op.outputs[0]] = *replaced;
      // Only output 0 is replaced: an operator whose other outputs (LayerNorm's mean and
      // rstd, Dropout's mask) are used stays in the graph for them, as in MegEngine.
      bool others_used = false;
      for (size_t k = 1; k < op.outputs.size(); ++k) others_used |= used[op.outputs[k]];
      if (others_used) {
        uint32_t index = b_.AddExisting(std::move(n));
        for (uint32_t k = 1; k < op.outputs.size(); ++k)
          replace[op.outputs[k]] = compat::Ref{index, k};
      }
    }
    b_.Emit(replace);
    return true;
  }

 private:
  bool NeedsAny() {
    bool any = false;
    for (size_t i = 0; i < g_.oprs.size(); ++i) {
      const Operator& op = g_.oprs[i];
      if (op.cls == nullptr) continue;
      const std::string& key = op.cls->key;
      if ((key == "Elemwise" &&
           compat::ElemwiseNeedsRewrite(compat::ParamMode(op, compat::kElemwiseParam))) ||
          (key == "ElemwiseMultiType" &&
           compat::MultiTypeNeedsRewrite(compat::ParamMode(op, compat::kMultiTypeParam))) ||
          key == "Where" || BothConverters().count(key)) {
        any = true;
      }
      if (target_ != DumpFormat::kFbsV1) {
        if (key == "CheckNonFinite" && V1NumberedCheckNonFinite(op)) any = true;
        if (MissingConverters().count(key)) {
          out_->notes.push_back(key + " kept (MegEngine would decompose it; not implemented)");
        }
        continue;
      }
      if (V1OnlyConverters().count(key)) any = true;
      if (key == "CheckNonFinite" && CheckNonFiniteChanges(op)) any = true;
      if (MissingConverters().count(key)) {
        b_.UnsupportedAt(i, key +
                                ": FBS v1 needs MegEngine's compatibility rewrite of it, which "
                                "graphport does not implement yet (dump it as FBS_V2)");
      }
    }
    return any;
  }

  // FBS v1 numbers only CheckNonFinite's flag output (its converter marks the others
  // VOLATILE_CONTENT), and compat "8.14" writes its param as Empty.
  bool CheckNonFiniteChanges(const Operator& op) const {
    const bool all_numbered = op.outputs.size() > 1;
    const bool param_changes =
        compat_814_ && (op.params.empty() || op.params[0].type != compat::kEmptyParam);
    return all_numbered || param_changes;
  }

  // A CheckNonFinite read from FBS v1 numbers only its flag output; MegEngine's loader makes
  // all of them (one scaled copy per input, then the flag), and its FBS_V2 dumper numbers
  // every one, which its FBS_V2 loader checks.
  static bool V1NumberedCheckNonFinite(const Operator& op) {
    return op.outputs.size() == 1 && op.inputs && !op.inputs->empty();
  }

  void NumberAllCheckNonFiniteOutputs(compat::Node* n) {
    if (!V1NumberedCheckNonFinite(n->op)) return;
    const size_t scaled = n->inputs.size();
    n->outputs = static_cast<uint32_t>(scaled + 1);
    n->middle.insert(n->middle.begin(), scaled, MiddleTensor());
    n->dtypes.insert(n->dtypes.begin(), scaled, compat::kFloat32);
    if (n->has_v1_names) n->v1_names.insert(n->v1_names.begin(), scaled, std::nullopt);
    out_->notes.push_back("CheckNonFinite: its " + std::to_string(scaled) +
                          " scaled outputs, which FBS v1 does not number, are numbered in FBS_V2");
  }

  void KeepCheckNonFiniteForV1(size_t opr, const std::vector<bool>& used, compat::Node* n) {
    const Operator& op = g_.oprs[opr];
    for (size_t k = 0; k + 1 < op.outputs.size(); ++k) {
      if (used[op.outputs[k]]) {
        b_.UnsupportedAt(opr, "output " + std::to_string(k) +
                                  " is used, but MegEngine's FBS v1 dumper numbers only the "
                                  "last output of CheckNonFinite (the others are volatile), "
                                  "so the graph cannot be dumped as FBS v1 (dump it as FBS_V2)");
      }
    }
    if (op.outputs.size() > 1) {
      n->outputs = 1;
      n->middle = {n->middle.back()};
      n->dtypes = {n->dtypes.back()};
      if (n->has_v1_names && !n->v1_names.empty()) n->v1_names = {n->v1_names.back()};
      out_->notes.push_back("CheckNonFinite: only its last output is numbered in FBS v1");
    }
    if (compat_814_ && (op.params.empty() || op.params[0].type != compat::kEmptyParam)) {
      flatbuffers::FlatBufferBuilder fbb(16);
      fbb.Finish(mgb::serialization::fbs::param::CreateEmpty(fbb).Union());
      auto buffer = std::make_unique<flatbuffers::DetachedBuffer>(fbb.Release());
      Param empty{compat::kEmptyParam,
                  reinterpret_cast<const uint8_t*>(
                      flatbuffers::GetRoot<flatbuffers::Table>(buffer->data()))};
      out_->storage.push_back(std::move(buffer));
      if (n->op.params.empty()) {
        n->op.params.push_back(empty);
        n->op.items.insert(n->op.items.begin(), DumpItem{DumpItem::kParam, 0});
      } else {
        n->op.params[0] = empty;
      }
    }
  }

  std::optional<compat::Ref> Convert(const compat::Node& n) {
    if (n.op.cls == nullptr) return std::nullopt;
    const std::string& key = n.op.cls->key;
    if (key == "Elemwise") {
      if (!compat::ElemwiseNeedsRewrite(compat::ParamMode(n.op, compat::kElemwiseParam))) {
        return std::nullopt;
      }
      return compat::ConvertElemwise(b_, n);
    }
    if (key == "ElemwiseMultiType") {
      if (!compat::MultiTypeNeedsRewrite(compat::ParamMode(n.op, compat::kMultiTypeParam))) {
        return std::nullopt;
      }
      return compat::ConvertMultiType(b_, n);
    }
    if (key == "Where") return compat::ConvertWhere(b_, n);
    if (key == "GroupNorm") return compat::ConvertGroupNorm(b_, n, false);
    if (key == "InstanceNorm") return compat::ConvertGroupNorm(b_, n, true);
    if (target_ != DumpFormat::kFbsV1) return std::nullopt;
    if (key == "Softmax") return compat::ConvertSoftmax(b_, n);
    if (key == "Dropout") return compat::ConvertDropout(b_, n);
    if (key == "LayerNorm") return compat::ConvertLayerNorm(b_, n);
    return std::nullopt;
  }

  const Graph& g_;
  DumpFormat target_;
  bool compat_814_;
  RewrittenGraph* out_;
  compat::Builder b_;
};

}  // namespace

bool RewriteForCompat(const Graph& graph, DumpFormat target, bool compat_814, RewrittenGraph* out) {
  return Rewriter(graph, target, compat_814, out).Run();
}

}  // namespace graphport::mge

#include "mge/optimize/shuffle_shuffle_remove/shuffle_shuffle_remove.h"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "mge/optimize/refuse_operator.h"
#include "mge/optimize/relayout/placeholders.h"
#include "mge/optimize/rewriter.h"
#include "mge/optimize/schema_numbers.h"
#include "mge/optimize/unique_readers.h"
#include "mge/schema/opr_params_generated.h"

namespace graphport::mge::opt {
namespace {

namespace param = mgb::serialization::fbs::param;

enum class Layout { kNchw, kNchwc4, kNhwc };

Layout InputLayout(Reformat r) {
  return r == Reformat::kToPacked ? Layout::kNchw : Layout::kNchwc4;
}
Layout OutputLayout(Reformat r) {
  return r == Reformat::kToPacked ? Layout::kNchwc4
         : r == Reformat::kToNchw ? Layout::kNchw
                                  : Layout::kNhwc;
}

class Remover {
 public:
  explicit Remover(OptGraph* g) : g_(g), placeholders_(g) {}

  PassReport Run() {
    Detect();
    Replace();
    PassReport report{"ShuffleShuffleRemove", cancelled_ != 0, ""};
    if (cancelled_ != 0) {
      report.summary = std::to_string(cancelled_) + " relayouts cancelled by their inverse";
    }
    return report;
  }

 private:
  std::vector<int32_t> PatternOf(uint32_t node) const {
    const auto* p = g_->node(node).op().ParamAs<param::Dimshuffle>(kDimshuffleParam);
    if (p == nullptr || p->pattern() == nullptr) return {};
    return {p->pattern()->begin(), p->pattern()->end()};
  }

  bool Dim4Is4(VarRef v) const {
    const VarShape& s = g_->var(v).shape;
    return s && s->size() == 5 && (*s)[4] == 4;
  }

  // The first stage: each pair becomes a placeholder of its relayout.
  void Detect() {
    Rewriter rw(g_);
    const UniqueReaders unique(*g_);
    rw.ForEachOperator([&](uint32_t node) {
      const std::string_view key = g_->Key(node);
      const OptNode& n = g_->node(node);
      if (key == "Dimshuffle" && !n.inputs.empty() &&
          PatternOf(node) == std::vector<int32_t>{0, 1, 3, 4, 2} && Dim4Is4({node, 0}) &&
          unique(n.inputs[0]) && g_->Key(n.inputs[0].node) == "Reshape") {
        // Reshape + Dimshuffle: NCHW -> NCHWc4.
        return Place(&rw, node, g_->node(n.inputs[0].node).inputs[0], Reformat::kToPacked);
      }
      if (key == "Reshape" && !n.inputs.empty() && unique(n.inputs[0]) &&
          g_->Key(n.inputs[0].node) == "Dimshuffle") {
        const uint32_t shuffle = n.inputs[0].node;
        const std::vector<int32_t> pattern = PatternOf(shuffle);
        const VarRef packed = g_->node(shuffle).inputs[0];
        if (Dim4Is4(packed) && pattern == std::vector<int32_t>{0, 1, 4, 2, 3}) {
          return Place(&rw, node, packed, Reformat::kToNchw);  // NCHWc4 -> NCHW
        }
        if (Dim4Is4(packed) && pattern == std::vector<int32_t>{0, 2, 3, 1, 4}) {
          return Place(&rw, node, packed, Reformat::kPackedToNhwc);  // NCHWc4 -> NHWC
        }
      }
      rw.AutoReplaceOutputs(node);
    });
    rw.Apply();
  }

  void Place(Rewriter* rw, uint32_t node, VarRef from, Reformat key) {
    rw->Replace({node, 0}, placeholders_.Make(&rw->maker(), rw->Get(from), {key, 4}));
  }

  bool InChain(uint32_t node) const {
    return g_->Key(node) == "TypeCvt" || placeholders_.KeyOf(node).has_value();
  }

  // The second stage: each chain of placeholders and TypeCvts, read once along it, made again
  // from its first input as one relayout and its TypeCvts, at the chain's last operator.
  void Replace() {
    Rewriter rw(g_);
    const UniqueReaders unique(*g_);
    const std::vector<uint32_t> order = g_->TopoOrder();
    std::set<uint32_t> writers, roots;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      if (!InChain(*it)) continue;
      writers.insert(g_->node(*it).inputs[0].node);
      if (writers.count(*it) == 0 || !unique({*it, 0})) roots.insert(*it);
    }
    rw.ForEachOperator([&](uint32_t node) {
      if (!InChain(node)) return rw.AutoReplaceOutputs(node);
      if (roots.count(node) == 0) return;  // inside a chain: its root makes it again
      uint32_t cur = node;
      VarRef input;
      bool first_shuffle = true;
      Layout in_layout = Layout::kNchw, out_layout = Layout::kNchw;
      std::vector<int> dtypes;
      while (InChain(cur)) {
        if (const std::optional<RelayoutPlaceholders::Key> key = placeholders_.KeyOf(cur)) {
          in_layout = InputLayout(key->reformat);
          if (first_shuffle) out_layout = OutputLayout(key->reformat);
          first_shuffle = false;
        } else {
          dtypes.push_back(g_->var({cur, 0}).dtype.value_or(kF32));
        }
        input = g_->node(cur).inputs[0];
        if (!unique(input)) break;
        cur = input.node;
      }
      std::reverse(dtypes.begin(), dtypes.end());
      VarRef made = rw.Get(input);
      if (in_layout != out_layout) {
        Reformat r = Reformat::kToPacked;
        if (in_layout == Layout::kNchwc4 && out_layout == Layout::kNchw) {
          r = Reformat::kToNchw;
        } else if (in_layout == Layout::kNchwc4 && out_layout == Layout::kNhwc) {
          r = Reformat::kPackedToNhwc;
        } else if (!(in_layout == Layout::kNchw && out_layout == Layout::kNchwc4)) {
          RefuseOperator(*g_, node,
                         "ends a chain of relayouts from NCHW to NHWC, which "
                         "graphport does not emit");
        }
        made = EmitReformat(&rw.maker(), made, r, 4);
      } else if (!first_shuffle) {
        ++cancelled_;
      }
      const int dtype = g_->var({node, 0}).dtype.value_or(kF32);
      if (dtypes.empty() || dtypes.back() != dtype) dtypes.push_back(dtype);
      for (int d : dtypes) made = rw.maker().TypeCvt(made, d);
      rw.Replace({node, 0}, made);
    });
    rw.Apply();
  }

  OptGraph* g_;
  RelayoutPlaceholders placeholders_;
  uint32_t cancelled_ = 0;
};

}  // namespace

PassReport ShuffleShuffleRemove(OptGraph* g) { return Remover(g).Run(); }

}  // namespace graphport::mge::opt

// MegEngine's operator deduplication (research megengine_optimize.md §2.1.3): an operator a
// pass makes again is the one already in the graph, the oldest of its kind, loaded or made.
// Its key is a code naming the class and params (same_code) and the inputs in order.
//
// Found through the key's newest input (its anchor): each var lists the operators entered
// that it anchors. A pass re-makes most of a large graph's operators on inputs it has just
// made, whose lists are empty: the lookup reads a word next to what was just written, where a
// hash table of every operator (366k on the 100k-operator bench model, 40 MB) cost a cache
// miss per lookup and per entry. A var that anchors many operators (a crafted file) lists the
// first kListed and enters the others in a SameTable, so no lookup walks far.
#ifndef GRAPHPORT_MGE_OPTIMIZE_SAME_INDEX_H_
#define GRAPHPORT_MGE_OPTIMIZE_SAME_INDEX_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "mge/mge_model.h"
#include "mge/optimize/same_table.h"
#include "mge/optimize/var_list.h"
#include "mge/optimize/var_ref.h"

namespace graphport::mge::opt {

class OptGraph;

class SameIndex {
 public:
  // What stands for the operator entered under `code` with `inputs`, if there is one.
  std::optional<VarRef> Find(const OptGraph& g, uint64_t code, const VarList& inputs) const;
  // Enters operator `node` (its inputs are the key's) under `code`, standing for `stands`
  // (itself, or the value it was folded into). Find() must have found nothing.
  void Enter(const OptGraph& g, uint32_t node, uint64_t code, VarRef stands);
  // The code of a key given as text (the operators made rarely: "TypeCvt:2", ...).
  uint64_t Intern(std::string_view text) { return table_.Intern(text); }

  // How many nodes, in order, were looked at to be entered (OprMaker::IndexGraph).
  uint32_t indexed = 0;
  // Per node, for a copy of an operator (OprMaker::Copy), the operator first copied (they
  // share params); kNoRoot for the others. By index: a pass may copy 100k operators.
  static constexpr uint32_t kNoRoot = ~uint32_t{0};
  std::vector<uint32_t> copy_root;
  // The param table of each code OprMaker made one for (the code names the whole param): the
  // operators a chain pass makes share one table per mode, where building each one's own
  // cost a FlatBufferBuilder and two allocations.
  std::unordered_map<uint64_t, Param> params;
  // ImmutableTensor's value cache (io.cpp make_from_value): per value of at most 28 elements
  // (dtype, shape, bytes, comp node), the var made for it, which every later make returns
  // without constructing anything, in any pass.
  std::map<std::tuple<int, Shape, std::string, std::string>, VarRef> imm_cache;

  // MegEngine's shallow-copy cache (opr_shallow_copy.cpp): copy_opr_shallow of the same
  // operator on the same inputs, asked again, returns what it returned the first time
  // without constructing anything (no ids spent). What copying `node` on `inputs` gave
  // before, if it was asked.
  std::optional<uint32_t> CachedCopy(uint32_t node, const VarList& inputs) const {
    for (uint32_t e = node < copy_head_.size() ? copy_head_[node] : kEnd; e != kEnd;
         e = copies_[e].next) {
      if (copies_[e].inputs == inputs) return copies_[e].result;
    }
    return std::nullopt;
  }
  void RememberCopy(uint32_t node, const VarList& inputs, uint32_t result) {
    if (copy_head_.size() <= node) copy_head_.resize(node + 1, kEnd);
    copies_.push_back({inputs, result, copy_head_[node]});
    copy_head_[node] = static_cast<uint32_t>(copies_.size() - 1);
  }

 private:
  static constexpr uint32_t kEnd = ~uint32_t{0};
  static constexpr uint8_t kListed = 16;  // operators listed per anchor; then table_

  // Per var (OptGraph::VarIndex): the newest operator listed under it, and how many are.
  std::vector<uint32_t> newest_;
  std::vector<uint8_t> listed_;
  // Per node listed: its code, the next older operator of the same anchor, what it
  // stands for.
  struct Listed {
    uint64_t code;
    uint32_t older;
    VarRef stands;
  };
  std::vector<Listed> nodes_;
  // Keys with no input, and those whose anchor lists kListed already.
  SameTable table_;
  // The copy cache: per node, its newest entry; per entry, the inputs asked, the result and
  // the node's next older entry.
  struct CopyEntry {
    VarList inputs;
    uint32_t result;
    uint32_t next;
  };
  std::vector<uint32_t> copy_head_;
  std::vector<CopyEntry> copies_;
};

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_SAME_INDEX_H_

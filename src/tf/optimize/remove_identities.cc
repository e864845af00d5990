#include "tf/optimize/remove_identities.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "core/error.h"
#include "tf/freeze/function_body.h"
#include "tf/freeze/prune.h"
#include "tf/optimize/graph_edit.h"

namespace graphport::tf {
namespace {

// Ops that only forward their one input (Grappler's pruning removes the same ones).
bool IsIdentityLike(const tensorflow::NodeDef& node) {
  if (node.input_size() == 0 || IsControlInput(node.input(0))) return false;
  const std::string& op = node.op();
  if (op == "Identity" || op == "Snapshot" || op == "StopGradient") {
    return DataInputCount(node) == 1;
  }
  return op == "IdentityN" && DataInputCount(node) == 1;
}

// Turns each Identity-like node that reads output 0 of a Const into that Const, under the
// Identity's name, until no chain is left: Grappler's in-place constant folding, which names
// a weight after the last node of its chain.
int FoldConstChains(tensorflow::GraphDef* graph, const std::set<std::string>& keep) {
  int folded = 0;
  for (bool changed = true; changed;) {
    changed = false;
    GraphDefIndex index(*graph);
    for (auto& node : *graph->mutable_node()) {
      if (!IsIdentityLike(node) || keep.count(node.name()) != 0) continue;
      std::string source;
      int output = 0;
      SplitGraphInput(node.input(0), &source, &output);
      tensorflow::NodeDef* constant = index.Find(graph, source);
      if (output != 0 || constant == nullptr || constant->op() != "Const" ||
          constant->attr().count("value") == 0) {
        continue;
      }
      tensorflow::NodeDef made;
      made.set_name(node.name());
      made.set_op("Const");
      made.set_device(node.device());
      for (const auto& input : node.input()) {
        if (IsControlInput(input)) made.add_input(input);
      }
      auto& attrs = *made.mutable_attr();
      auto dtype = constant->attr().find("dtype");
      if (dtype != constant->attr().end()) {
        attrs["dtype"] = dtype->second;
      } else {
        attrs["dtype"].set_type(constant->attr().at("value").tensor().dtype());
      }
      // A Const that served only this node is not needed any more: its value moves.
      if (index.Consumers(source) == 1 && keep.count(source) == 0) {
        attrs["value"].Swap(&(*constant->mutable_attr())["value"]);
      } else {
        attrs["value"] = constant->attr().at("value");
      }
      node = std::move(made);
      ++folded;
      changed = true;
    }
  }
  return folded;
}

// Where a data or control dependency on a removed node leads once the node is gone.
class Bypass {
 public:
  Bypass(const tensorflow::GraphDef& graph, const std::set<std::string>& keep) {
    // A node read in a way its removal cannot honour stays: a NoOp read as data, an
    // Identity read past output 0 (both malformed), an Identity feeding a Merge.
    std::set<std::string> fed_to_merge, read_as_data, read_past_output0;
    for (const auto& node : graph.node()) {
      bool merge = node.op() == "Merge" || node.op() == "RefMerge";
      for (const auto& input : node.input()) {
        std::string name;
        int output = 0;
        SplitGraphInput(input, &name, &output);
        if (merge) fed_to_merge.insert(name);
        if (output >= 0) read_as_data.insert(name);
        if (output > 0) read_past_output0.insert(name);
      }
    }
    std::unordered_map<std::string, const tensorflow::NodeDef*> by_name;
    for (const auto& node : graph.node()) by_name.emplace(node.name(), &node);
    for (const auto& node : graph.node()) {
      if (keep.count(node.name()) != 0) continue;
      if (node.op() == "NoOp") {
        if (read_as_data.count(node.name()) == 0) removed_.emplace(node.name(), &node);
      } else if (IsIdentityLike(node) && fed_to_merge.count(node.name()) == 0 &&
                 read_past_output0.count(node.name()) == 0) {
        // Control flow v1 needs the Identity after a Switch: it carries the branch's liveness.
        auto source = by_name.find(InputNodeName(node.input(0)));
        bool after_switch = source != by_name.end() && (source->second->op() == "Switch" ||
                                                        source->second->op() == "RefSwitch");
        if (!after_switch) removed_.emplace(node.name(), &node);
      }
    }
  }

  bool Removes(const std::string& name) const { return removed_.count(name) != 0; }
  int size() const { return static_cast<int>(removed_.size()); }

  // The tensor a data input reads once the Identities on its way are gone; the control
  // inputs of those Identities are added to `controls`.
  std::string Data(std::string input, std::vector<std::string>* controls) {
    for (size_t steps = 0;; ++steps) {
      if (steps > removed_.size()) {
        throw Error(ErrorCode::kParseError, "the Identity nodes before input '" + input +
                                                "' form a cycle: the graph cannot run");
      }
      std::string node;
      int output = 0;
      SplitGraphInput(input, &node, &output);
      auto it = removed_.find(node);
      if (output != 0 || it == removed_.end() || it->second->op() == "NoOp") return input;
      for (const auto& in : it->second->input()) {
        if (IsControlInput(in)) Control(InputNodeName(in), controls);
      }
      input = it->second->input(0);
    }
  }

  // The kept nodes a control dependency on `name` amounts to, added to `out`.
  void Control(const std::string& name, std::vector<std::string>* out) {
    if (!Removes(name)) {
      out->push_back(name);
      return;
    }
    auto memo = sources_.find(name);
    if (memo == sources_.end()) {
      std::vector<std::string> sources;
      sources_[name];  // a cycle through control edges ends here
      for (const auto& input : removed_.at(name)->input()) Control(InputNodeName(input), &sources);
      memo = sources_.insert_or_assign(name, std::move(sources)).first;
    }
    out->insert(out->end(), memo->second.begin(), memo->second.end());
  }

 private:
  std::map<std::string, const tensorflow::NodeDef*> removed_;
  std::map<std::string, std::vector<std::string>> sources_;
};

}  // namespace

bool IsStatefulOp(const std::string& op) {
  static const std::set<std::string> kOps = {"RandomUniform",
                                             "RandomUniformInt",
                                             "RandomStandardNormal",
                                             "TruncatedNormal",
                                             "Multinomial",
                                             "RandomShuffle",
                                             "RandomGamma",
                                             "RandomPoisson",
                                             "RandomPoissonV2",
                                             "Assert",
                                             "Print",
                                             "PrintV2",
                                             "StatefulPartitionedCall",
                                             "If",
                                             "While",
                                             "Case"};
  if (kOps.count(op) != 0) return true;
  for (const char* part : {"Variable", "Assign", "Table", "TensorArray", "Stack", "Queue", "Save",
                           "Restore", "Iterator", "Resource"}) {
    if (op.find(part) != std::string::npos) return true;
  }
  return false;
}

IdentityRemoval RemoveIdentities(tensorflow::GraphDef* graph,
                                 const std::vector<std::string>& roots) {
  IdentityRemoval result;
  std::set<std::string> keep = NodeNamesOf(roots);
  result.folded_into_consts = FoldConstChains(graph, keep);

  Bypass bypass(*graph, keep);
  std::unordered_map<std::string, std::string> ops;
  for (const auto& node : graph->node()) ops.emplace(node.name(), node.op());
  // Control flow v1 puts nodes into a loop frame through control edges from its pivots:
  // there every control edge is kept (resolved through the removed nodes).
  bool control_flow_v1 = false;
  for (const auto& [name, op] : ops) {
    control_flow_v1 = control_flow_v1 || op == "Switch" || op == "Merge" || op == "Enter" ||
                      op == "Exit" || op == "NextIteration" || op == "LoopCond";
  }
  std::set<std::string> removed;
  for (auto& node : *graph->mutable_node()) {
    if (bypass.Removes(node.name())) {
      (node.op() == "NoOp" ? result.noops : result.bypassed) += 1;
      removed.insert(node.name());
      continue;
    }
    std::vector<std::string> data;
    std::vector<std::string> controls;
    int controls_before = 0;
    for (const auto& input : node.input()) {
      if (IsControlInput(input)) {
        ++controls_before;
        bypass.Control(InputNodeName(input), &controls);
      } else {
        data.push_back(bypass.Data(input, &controls));
      }
    }
    std::set<std::string> read;
    for (const auto& input : data) read.insert(InputNodeName(input));
    // A kept NoOp is an output that exists for its control inputs (an init op): they stay.
    bool orders = node.op() == "NoOp" || IsStatefulOp(node.op()) || control_flow_v1;
    node.clear_input();
    for (auto& input : data) node.add_input(std::move(input));
    std::set<std::string> added;
    for (const auto& source : controls) {
      auto op = ops.find(source);
      bool source_orders = op != ops.end() && (control_flow_v1 || op->second != "Const") &&
                           (IsStatefulOp(op->second) || orders);
      if (source_orders && read.count(source) == 0 && added.insert(source).second) {
        node.add_input("^" + source);
      }
    }
    result.control_edges += std::max(0, controls_before - static_cast<int>(added.size()));
  }
  EraseNodes(graph, removed);
  result.pruned = PruneToOutputs(graph, roots);
  return result;
}

}  // namespace graphport::tf

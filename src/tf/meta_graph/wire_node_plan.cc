#include "tf/meta_graph/wire_node_plan.h"

#include <google/protobuf/arena.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "tf/meta_graph/node_rewrite.h"
#include "tf/meta_graph/parsed_node.h"
#include "tf/meta_graph/stripped_op_list.h"
#include "tf/meta_graph/wire_node_edit.h"
#include "tf/meta_graph/wire_node_view.h"
#include "tf/meta_graph/wire_nodes.h"

namespace graphport::tf {
namespace {

using google::protobuf::Arena;

// The rewrite a plan applies at write time; the plan keeps it alive (it owns copies of what
// it reads, since the export's locals are gone by then).
struct NodeRewriter {
  Scope scope;
  NodePasses passes;

  // `unbound` collects what the plan reports; at write time it is scratch.
  void Apply(const tensorflow::NodeDef& in, tensorflow::NodeDef* out,
             std::vector<std::string>* unbound) const {
    RewriteNode(in, scope, out, unbound);
    EditParsedNode(passes, out);
  }
};

}  // namespace

NodePlan PlanWireNodes(const WireGraph& wire, const WireNodeOptions& options,
                       WireNodeFacts* facts) {
  const Scope& scope = *options.scope;
  auto rewriter = std::make_shared<NodeRewriter>(NodeRewriter{scope, options.passes});
  NodePlan plan;
  // What the passes do to every node is applied as the nodes are written, copies included.
  const WireNodeEdits every = EveryNodeEdits(options.passes, wire, scope);
  plan.drop_devices = every.device_cleared;
  const size_t n = wire.nodes().size();
  const bool passes_read_nodes = AnyPassReadsNodes(options.passes);
  const bool may_skip = !scope.empty() || passes_read_nodes;
  const bool may_rewrite = !scope.empty() || passes_read_nodes;
  if (!may_skip && !may_rewrite && !options.want_names) {
    // Every node copied: the ops are the graph's, and only nodes the index saw an unbound
    // input in are parsed, to list those.
    facts->exported = n;
    if (options.list_unbound_inputs) {
      Arena scratch;
      for (size_t i = 0; i < n; ++i) {
        if (!wire.nodes()[i].unbound_input) continue;
        AddUnboundInputs(*wire.Reparsed(i, plan, &scratch), &facts->unbound);
        scratch.Reset();
      }
    }
    return plan;
  }
  if (may_skip || may_rewrite) plan.actions.assign(n, NodePlan::kCopy);
  if (may_rewrite) plan.sizes.assign(n, 0);
  plan.rewrite = [rewriter](const tensorflow::NodeDef& in, tensorflow::NodeDef* out) {
    std::vector<std::string> unbound;
    rewriter->Apply(in, out, &unbound);
  };
  auto edit = std::make_shared<WireScopeEdit>(scope, plan.drop_devices);
  plan.edit = [edit](std::string_view bytes, google::protobuf::io::CodedOutputStream* out) {
    edit->Write(bytes, out);
  };

  Arena scratch;
  for (size_t i = 0; i < n; ++i) {
    const WireNode& node = wire.nodes()[i];
    const std::string_view name = wire.name(i);
    if ((passes_read_nodes && !PassesKeep(options.passes, wire, i)) || !NodeInExport(name, scope)) {
      plan.actions[i] = NodePlan::kSkip;
      continue;
    }
    ++facts->exported;
    if (options.want_names) facts->names.emplace(name);
    // A node a pass edits otherwise than every node is rewritten from its parse, where the
    // passes run again on the message.
    bool edited_alone = false;
    if (passes_read_nodes) {
      const WireNodeEdits edits = NodeEdits(options.passes, wire, i, scope);
      edited_alone = edits != every;
      facts->attrs_removed += static_cast<int>(edits.removed_attrs.size());
    }
    if (scope.empty() && !edited_alone) {
      if (options.list_unbound_inputs && node.unbound_input) {
        AddUnboundInputs(*wire.Reparsed(i, plan, &scratch), &facts->unbound);
        scratch.Reset();
      }
      continue;
    }
    // One look at a canonical node's attr keys tells whether the scope rewrites one (then the
    // node is rewritten from its parse, not edited).
    bool editable = node.canonical && !edited_alone;
    if (editable) {
      ForEachAttrKey(wire.NodeBytes(i), [&](std::string_view key) {
        if (!edit->AppliesWith(key)) editable = false;
      });
    }
    if (editable) {
      plan.actions[i] = NodePlan::kEdit;
      plan.sizes[i] = static_cast<uint32_t>(
          edit->Size(wire.NodeBytes(i), options.list_unbound_inputs ? &facts->unbound : nullptr));
      continue;
    }
    auto* parsed = Arena::CreateMessage<tensorflow::NodeDef>(&scratch);
    wire.ParseNode(i, parsed);
    auto* out = Arena::CreateMessage<tensorflow::NodeDef>(&scratch);
    std::vector<std::string> renamed;  // AddUnboundInputs below lists these too
    rewriter->Apply(*parsed, out, &renamed);
    if (options.list_unbound_inputs) AddUnboundInputs(*out, &facts->unbound);
    plan.actions[i] = NodePlan::kRewrite;
    plan.sizes[i] = static_cast<uint32_t>(out->ByteSizeLong());
    scratch.Reset();
  }
  return plan;
}

std::vector<std::string> UsedWireOps(const WireGraph& wire, const NodePlan& plan,
                                     const tensorflow::FunctionDefLibrary& library) {
  std::vector<std::string> ops;
  if (library.function_size() == 0) {
    // Nothing can be called: the ops are the exported nodes' own, marked by number.
    std::vector<bool> used(wire.ops().size());
    if (plan.actions.empty()) used.assign(used.size(), true);
    for (size_t i = 0; i < plan.actions.size(); ++i) {
      if (plan.For(i) != NodePlan::kSkip) used[wire.nodes()[i].op] = true;
    }
    for (size_t k = 0; k < used.size(); ++k) {
      if (used[k]) ops.emplace_back(wire.ops()[k]);
    }
    std::sort(ops.begin(), ops.end());
    return ops;
  }
  // Only a node whose attrs may name a function is parsed, to read them.
  UsedOps used(library);
  Arena scratch;
  for (size_t i = 0; i < wire.nodes().size(); ++i) {
    if (plan.For(i) == NodePlan::kSkip) continue;
    if (!AttrsMayNameFunctions(wire.NodeBytes(i))) {
      used.AddNode(wire.op(i), nullptr);
      continue;
    }
    auto* parsed = Arena::CreateMessage<tensorflow::NodeDef>(&scratch);
    wire.ParseNode(i, parsed);
    used.AddNode(wire.op(i), parsed);
    scratch.Reset();
  }
  return used.Sorted();
}

}  // namespace graphport::tf

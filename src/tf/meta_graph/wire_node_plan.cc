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

// What stripDefaultAttrs needs to know of an op, looked up once per op.
struct OpDefaults {
  bool unknown = false;                          // no registry layer has it: its attrs are kept
  std::set<std::string, std::less<>> defaulted;  // attrs with a default (not "_" ones)
};

OpDefaults DefaultsOf(const OpRegistry& registry, const std::string& op) {
  OpDefaults out;
  OpRegistry::Found found = registry.Find(op);
  if (found.op == nullptr) {
    out.unknown = true;
    return out;
  }
  for (const auto& attr : found.op->attr()) {
    if (attr.has_default_value() && attr.name().compare(0, 1, "_") != 0) {
      out.defaulted.insert(attr.name());
    }
  }
  return out;
}

// The rewrite a plan applies at write time; the plan keeps it alive (it owns copies of what
// it reads, since the export's locals are gone by then).
struct NodeRewriter {
  Scope scope;
  NodePasses passes;
  bool strip;
  OpRegistry registry;
  std::set<std::string> functions;  // the library's: a node calling one keeps its attrs

  // `unbound` and `stripped` collect what the plan reports; at write time they are scratch.
  void Apply(const tensorflow::NodeDef& in, tensorflow::NodeDef* out,
             std::vector<std::string>* unbound, StripDefaultAttrsResult* stripped) const {
    RewriteNode(in, scope, out, unbound);
    EditParsedNode(passes, out);
    if (strip) StripNodeDefaults(out, functions, registry, stripped);
  }
};

}  // namespace

NodePlan PlanWireNodes(const WireGraph& wire, const WireNodeOptions& options,
                       WireNodeFacts* facts) {
  const Scope& scope = *options.scope;
  std::set<std::string> functions;
  for (const WireFunction& f : wire.functions()) functions.emplace(f.name);
  auto rewriter = std::make_shared<NodeRewriter>(NodeRewriter{
      scope, options.passes, options.strip_defaults != nullptr,
      options.strip_defaults != nullptr ? *options.strip_defaults : OpRegistry(), functions});
  NodePlan plan;
  // What the passes do to every node is applied as the nodes are written, copies included.
  const WireNodeEdits every = EveryNodeEdits(options.passes, wire, scope);
  plan.drop_devices = every.device_cleared;
  const size_t n = wire.nodes().size();
  const bool passes_read_nodes = AnyPassReadsNodes(options.passes);
  const bool may_skip = !scope.empty() || passes_read_nodes;
  const bool may_rewrite = !scope.empty() || options.strip_defaults != nullptr || passes_read_nodes;
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
    StripDefaultAttrsResult stripped;
    rewriter->Apply(in, out, &unbound, &stripped);
  };
  auto edit = std::make_shared<WireScopeEdit>(scope, plan.drop_devices);
  plan.edit = [edit](std::string_view bytes, google::protobuf::io::CodedOutputStream* out) {
    edit->Write(bytes, out);
  };

  // By op number (WireGraph::ops()): what stripDefaultAttrs knows of the op.
  std::vector<std::unique_ptr<OpDefaults>> defaults(wire.ops().size());
  Arena scratch;
  for (size_t i = 0; i < n; ++i) {
    const WireNode& node = wire.nodes()[i];
    const std::string_view name = wire.name(i), op = wire.op(i);
    if ((passes_read_nodes && !PassesKeep(options.passes, wire, i)) || !NodeInExport(name, scope)) {
      plan.actions[i] = NodePlan::kSkip;
      continue;
    }
    ++facts->exported;
    if (options.want_names) facts->names.emplace(name);
    const std::set<std::string, std::less<>>* defaulted = nullptr;  // the op's, if any
    if (options.strip_defaults != nullptr) {
      std::unique_ptr<OpDefaults>& found = defaults[node.op];
      if (found == nullptr && functions.count(std::string(op)) > 0) {
        found = std::make_unique<OpDefaults>();  // a function call: its attrs are kept
      } else if (found == nullptr) {
        found = std::make_unique<OpDefaults>(DefaultsOf(*options.strip_defaults, std::string(op)));
        if (found->unknown) facts->stripped.unknown_ops.emplace(op);
      }
      if (!found->defaulted.empty()) defaulted = &found->defaulted;
    }
    // A node a pass edits otherwise than every node is rewritten from its parse, where the
    // passes run again on the message.
    const bool edited_alone =
        passes_read_nodes && NodeEdits(options.passes, wire, i, scope) != every;
    // One look at a canonical node's attr keys tells whether stripDefaultAttrs may remove one
    // (a node with none of its op's defaulted attrs loses nothing) and whether the scope
    // rewrites one (then the node is rewritten from its parse, not edited).
    bool strips = !node.canonical && defaulted != nullptr;
    bool editable = node.canonical && !edited_alone;
    if (node.canonical && (defaulted != nullptr || !scope.empty())) {
      ForEachAttrKey(wire.NodeBytes(i), [&](std::string_view key) {
        if (defaulted != nullptr && defaulted->count(key) > 0) strips = true;
        if (!edit->AppliesWith(key)) editable = false;
      });
    }
    if (scope.empty() && !strips && !edited_alone) {
      if (options.list_unbound_inputs && node.unbound_input) {
        AddUnboundInputs(*wire.Reparsed(i, plan, &scratch), &facts->unbound);
        scratch.Reset();
      }
      continue;
    }
    if (!strips && editable) {
      plan.actions[i] = NodePlan::kEdit;
      plan.sizes[i] = static_cast<uint32_t>(
          edit->Size(wire.NodeBytes(i), options.list_unbound_inputs ? &facts->unbound : nullptr));
      continue;
    }
    auto* parsed = Arena::CreateMessage<tensorflow::NodeDef>(&scratch);
    wire.ParseNode(i, parsed);
    auto* out = Arena::CreateMessage<tensorflow::NodeDef>(&scratch);
    const int removed_before = facts->stripped.removed;
    std::vector<std::string> renamed;  // AddUnboundInputs below lists these too
    rewriter->Apply(*parsed, out, &renamed, &facts->stripped);
    if (options.list_unbound_inputs) AddUnboundInputs(*out, &facts->unbound);
    if (scope.empty() && !edited_alone && facts->stripped.removed == removed_before) {
      // Nothing was stripped: the node's own bytes are its exported form.
    } else {
      plan.actions[i] = NodePlan::kRewrite;
      plan.sizes[i] = static_cast<uint32_t>(out->ByteSizeLong());
    }
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

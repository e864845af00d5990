#include "tf/meta_graph/wire_node_plan.h"

#include <google/protobuf/arena.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "tf/meta_graph/parsed_node.h"
#include "tf/meta_graph/stripped_op_list.h"
#include "tf/meta_graph/wire_node_edit.h"
#include "tf/meta_graph/wire_node_view.h"
#include "tf/meta_graph/wire_nodes.h"

namespace graphport::tf {
namespace {

using google::protobuf::Arena;

// The rename a plan applies to its edited nodes as it writes them, with the passes that own
// the renamer (the export's locals are gone by then).
struct RenameWriter {
  NodePasses owners;
  WireRenameEdit edit;
};

}  // namespace

NodePlan PlanWireNodes(const WireGraph& wire, const WireNodeOptions& options,
                       WireNodeFacts* facts) {
  NodePlan plan;
  // What the passes do to every node is applied as the nodes are written, copies included.
  const WireNodeEdits every = EveryNodeEdits(options.passes, wire);
  plan.drop_devices = every.device_cleared;
  const size_t n = wire.nodes().size();
  const bool passes_read_nodes = AnyPassReadsNodes(options.passes);
  if (!passes_read_nodes && !options.want_names) {
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
  if (passes_read_nodes) {
    plan.actions.assign(n, NodePlan::kCopy);
    plan.sizes.assign(n, 0);
  }
  // The plan keeps the passes alive until the nodes are written, after the export's locals
  // are gone: a rewritten node is the parse of its bytes that the passes edit again.
  const NodePasses passes = options.passes;
  plan.rewrite = [passes](const tensorflow::NodeDef& in, tensorflow::NodeDef* out) {
    LendNode(in, out);
    EditParsedNode(passes, out);
  };
  // The rename every renamed node shares (an export has one renamer), applied to the bytes.
  std::shared_ptr<RenameWriter> rename;
  const NodeRenamer* renamer = nullptr;

  WireNodeEdits edits;  // one node's, its room reused
  Arena scratch;
  for (size_t i = 0; i < n; ++i) {
    const WireNode& node = wire.nodes()[i];
    if (passes_read_nodes && !KeepAndEditNode(options.passes, wire, i, &edits)) {
      plan.actions[i] = NodePlan::kSkip;
      continue;
    }
    ++facts->exported;
    if (options.want_names) facts->names.emplace(wire.name(i));
    bool copied = true;
    if (passes_read_nodes) {
      facts->attrs_removed += static_cast<int>(edits.removed_attrs.size());
      copied = !edits.ChangesAttrs() && edits.renamer == nullptr &&
               edits.device_cleared == every.device_cleared;
    }
    if (copied) {
      if (options.list_unbound_inputs && node.unbound_input) {
        AddUnboundInputs(*wire.Reparsed(i, plan, &scratch), &facts->unbound);
        scratch.Reset();
      }
      continue;
    }
    if (renamer == nullptr && edits.renamer != nullptr) {
      renamer = edits.renamer;
      rename = std::make_shared<RenameWriter>(
          RenameWriter{passes, WireRenameEdit(*renamer, plan.drop_devices)});
    }
    // Only a rename, of bytes as libprotobuf writes them: edited record by record. Anything
    // else is rewritten from the node's parse, where the passes run again on the message.
    if (node.canonical && !edits.ChangesAttrs() && edits.device_cleared == every.device_cleared &&
        edits.renamer == renamer) {
      plan.actions[i] = NodePlan::kEdit;
      plan.sizes[i] = static_cast<uint32_t>(rename->edit.Size(
          wire.NodeBytes(i), options.list_unbound_inputs ? &facts->unbound : nullptr));
      continue;
    }
    auto* parsed = Arena::CreateMessage<tensorflow::NodeDef>(&scratch);
    wire.ParseNode(i, parsed);
    auto* out = Arena::CreateMessage<tensorflow::NodeDef>(&scratch);
    plan.rewrite(*parsed, out);
    if (options.list_unbound_inputs) AddUnboundInputs(*out, &facts->unbound);
    plan.actions[i] = NodePlan::kRewrite;
    plan.sizes[i] = static_cast<uint32_t>(out->ByteSizeLong());
    scratch.Reset();
  }
  if (rename != nullptr) {
    plan.edit = [rename](std::string_view bytes, google::protobuf::io::CodedOutputStream* out) {
      rename->edit.Write(bytes, out);
    };
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

#include "tf/meta_graph/wire_node_view.h"

#include <algorithm>
#include <string>

#include "proto/wire_reader.h"
#include "tf/meta_graph/attr_value_equal.h"
#include "tf/meta_graph/parsed_node.h"

namespace graphport::tf {
namespace {

// A node as loaded: no edit recorded, no scope stripped.
const WireNodeEdits kNoEdits;
const Scope& NoScope() {
  static const Scope* none = new Scope("");
  return *none;
}

}  // namespace

std::string_view WireNodeView::name() const {
  // The stripped name is one piece of the loaded one, as RewriteNode writes it, unless it
  // starts with "^" or "loc:@", which TensorFlow's names cannot: such a name is shown whole.
  std::string_view marker, rest;
  scope_.Strip(graph_.name(index_), &marker, &rest);
  return marker.empty() ? rest : graph_.name(index_);
}

std::string_view WireNodeView::device() const {
  if (edits_.device_cleared || graph_.nodes()[index_].device_bytes == 0) return {};
  // The last `device` record is the field's value, as a parse would take it.
  constexpr int kDeviceField = 4;
  const std::string_view bytes = graph_.NodeBytes(index_);
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  const uint8_t* end = p + bytes.size();
  std::string_view device;
  proto::Record r;
  for (; p < end && proto::ReadRecord(p, end, &r); p = r.end) {
    if (r.number == kDeviceField && r.wire_type == 2) device = r.view();
  }
  return device;
}

bool WireNodeView::AttrEquals(std::string_view key, const tensorflow::AttrValue& value) const {
  const std::vector<std::string_view>& removed = edits_.removed_attrs;
  if (std::find(removed.begin(), removed.end(), key) != removed.end()) return false;
  if (!graph_.nodes()[index_].canonical) {
    // Written otherwise, an attr may come twice (the last wins) or split in pieces that a
    // parse merges: only libprotobuf's parse settles its value.
    tensorflow::NodeDef parsed;
    graph_.ParseNode(index_, &parsed);
    return ParsedAttrEquals(parsed, key, value);
  }
  // A canonical node holds each attr once: a map entry of its key, then its value.
  constexpr int kAttrField = 5, kKeyField = 1, kValueField = 2;
  const std::string_view bytes = graph_.NodeBytes(index_);
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  const uint8_t* end = p + bytes.size();
  proto::Record r;
  for (; p < end && proto::ReadRecord(p, end, &r); p = r.end) {
    std::string_view entry_key, entry_value;
    if (r.number != kAttrField || r.wire_type != 2 ||
        !proto::FindLengthDelimited(r.view(), kKeyField, &entry_key) || entry_key != key) {
      continue;
    }
    proto::FindLengthDelimited(r.view(), kValueField, &entry_value);  // absent: the empty value
    tensorflow::AttrValue found;
    return found.ParseFromArray(entry_value.data(), static_cast<int>(entry_value.size())) &&
           AreAttrValuesEqual(found, value);
  }
  return false;
}

WireNodeEdits EveryNodeEdits(const NodePasses& passes, const WireGraph& graph, const Scope& scope) {
  WireNodeEdits edits;
  if (graph.nodes().size() == 0) return edits;
  // Such a pass reads nothing of the node: the first one's edits are every node's.
  WireNodeView view(graph, 0, edits, scope);
  WireNodeEdit edit(&edits);
  for (const auto& pass : passes) {
    if (!pass->ReadsNode()) pass->Edit(view, &edit);
  }
  return edits;
}

WireNodeEdits NodeEdits(const NodePasses& passes, const WireGraph& graph, size_t index,
                        const Scope& scope) {
  WireNodeEdits edits;
  WireNodeView view(graph, index, edits, scope);
  WireNodeEdit edit(&edits);
  for (const auto& pass : passes) pass->Edit(view, &edit);
  return edits;
}

bool PassesKeep(const NodePasses& passes, const WireGraph& graph, size_t index) {
  return KeepsNode(passes, WireNodeView(graph, index, kNoEdits, NoScope()));
}

void ForEachWireNodeView(const WireGraph& graph, const NodeVisitor& visit) {
  for (size_t i = 0; i < graph.nodes().size(); ++i) {
    visit(WireNodeView(graph, i, kNoEdits, NoScope()));
  }
}

bool AnyPassReadsNodes(const NodePasses& passes) {
  for (const auto& pass : passes) {
    if (pass->ReadsNode()) return true;
  }
  return false;
}

}  // namespace graphport::tf

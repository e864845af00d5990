#include "tf/meta_graph/wire_node_view.h"

#include <algorithm>
#include <string>

#include "proto/wire_reader.h"
#include "tf/field_numbers.h"
#include "tf/meta_graph/attr_value_equal.h"

namespace graphport::tf {
namespace {

// A node as loaded: no edit recorded.
const WireNodeEdits kNoEdits;

// The value `key` was last set to, or null.
const tensorflow::AttrValue* SetValue(const WireNodeEdits& edits, std::string_view key) {
  for (auto it = edits.set_attrs.rbegin(); it != edits.set_attrs.rend(); ++it) {
    if (it->first == key) return &it->second;
  }
  return nullptr;
}

bool Removed(const WireNodeEdits& edits, std::string_view key) {
  const std::vector<std::string_view>& removed = edits.removed_attrs;
  return std::find(removed.begin(), removed.end(), key) != removed.end();
}

}  // namespace

void WireNodeEdits::Clear() {
  device_cleared = false;
  removed_attrs.clear();
  set_attrs.clear();
  renamer = nullptr;
}

std::string_view WireNodeView::name() const {
  const std::string_view loaded = graph_.name(index_);
  if (edits_.renamer == nullptr) return loaded;
  // A renamed name is most often one piece of the loaded one (a scope stripped off).
  const NamePieces pieces = edits_.renamer->Name(loaded);
  if (pieces.size() == pieces.a.size()) return pieces.a;
  if (pieces.size() == pieces.b.size()) return pieces.b;
  joined_name_ = pieces.Joined();
  return joined_name_;
}

std::string_view WireNodeView::device() const {
  if (edits_.device_cleared || graph_.nodes()[index_].device_bytes == 0) return {};
  // The last `device` record is the field's value, as a parse would take it.
  const std::string_view bytes = graph_.NodeBytes(index_);
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  const uint8_t* end = p + bytes.size();
  std::string_view device;
  proto::Record r;
  for (; p < end && proto::ReadRecord(p, end, &r); p = r.end) {
    if (r.number == fields::kNodeDevice && r.wire_type == 2) device = r.view();
  }
  return device;
}

bool WireNodeView::FindLoadedAttr(std::string_view key, std::string_view* bytes,
                                  tensorflow::AttrValue* parsed) const {
  *bytes = {};
  if (!graph_.nodes()[index_].canonical) {
    // Written otherwise, an attr may come twice (the last wins) or split in pieces that a
    // parse merges: only libprotobuf's parse settles its value.
    tensorflow::NodeDef node;
    graph_.ParseNode(index_, &node);
    auto it = node.attr().find(std::string(key));
    if (it == node.attr().end()) return false;
    if (parsed != nullptr) *parsed = it->second;
    return true;
  }
  // A canonical node holds each attr once: a map entry of its key, then its value.
  const std::string_view node = graph_.NodeBytes(index_);
  const auto* p = reinterpret_cast<const uint8_t*>(node.data());
  const uint8_t* end = p + node.size();
  proto::Record r;
  for (; p < end && proto::ReadRecord(p, end, &r); p = r.end) {
    std::string_view entry_key;
    if (r.number != fields::kNodeAttr || r.wire_type != 2 ||
        !proto::FindLengthDelimited(r.view(), fields::kMapKey, &entry_key) || entry_key != key) {
      continue;
    }
    static const char kEmpty = 0;
    *bytes = std::string_view(&kEmpty, 0);  // absent: the empty value
    proto::FindLengthDelimited(r.view(), fields::kMapValue, bytes);
    return true;
  }
  return false;
}

bool WireNodeView::AttrEquals(std::string_view key, const tensorflow::AttrValue& value) const {
  if (edits_.ChangesAttrs()) {
    if (Removed(edits_, key)) return false;
    if (const tensorflow::AttrValue* set = SetValue(edits_, key)) {
      return AreAttrValuesEqual(*set, value);
    }
  }
  std::string_view bytes;
  tensorflow::AttrValue found;
  if (!FindLoadedAttr(key, &bytes, &found)) return false;
  if (bytes.data() != nullptr &&
      !found.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return false;
  }
  return AreAttrValuesEqual(found, value);
}

bool WireNodeView::ReadAttr(std::string_view key, tensorflow::AttrValue* value) const {
  if (edits_.ChangesAttrs()) {
    if (Removed(edits_, key)) return false;
    if (const tensorflow::AttrValue* set = SetValue(edits_, key)) {
      if (value != nullptr) *value = *set;
      return true;
    }
  }
  std::string_view bytes;
  if (!FindLoadedAttr(key, &bytes, value)) return false;
  // The bytes were checked when the graph was indexed.
  return value == nullptr || bytes.data() == nullptr ||
         value->ParseFromArray(bytes.data(), static_cast<int>(bytes.size()));
}

void WireNodeEdit::RemoveAttr(std::string_view key) {
  auto& set = edits_->set_attrs;
  set.erase(std::remove_if(set.begin(), set.end(), [&](const auto& e) { return e.first == key; }),
            set.end());
  edits_->removed_attrs.push_back(key);
}

void WireNodeEdit::SetAttr(std::string_view key, const tensorflow::AttrValue& value) {
  auto& removed = edits_->removed_attrs;
  removed.erase(std::remove(removed.begin(), removed.end(), key), removed.end());
  edits_->set_attrs.emplace_back(key, value);
}

WireNodeEdits EveryNodeEdits(const NodePasses& passes, const WireGraph& graph) {
  WireNodeEdits edits;
  if (graph.nodes().size() == 0) return edits;
  // Such a pass reads nothing of the node: the first one's edits are every node's.
  WireNodeView view(graph, 0, edits);
  WireNodeEdit edit(&edits);
  for (const auto& pass : passes) {
    if (!pass->ReadsNode()) pass->Edit(view, &edit);
  }
  return edits;
}

void NodeEdits(const NodePasses& passes, const WireGraph& graph, size_t index,
               WireNodeEdits* edits) {
  edits->Clear();
  WireNodeView view(graph, index, *edits);
  WireNodeEdit edit(edits);
  for (const auto& pass : passes) pass->Edit(view, &edit);
}

bool KeepAndEditNode(const NodePasses& passes, const WireGraph& graph, size_t index,
                     WireNodeEdits* edits) {
  edits->Clear();
  WireNodeView view(graph, index, *edits);  // as loaded until a pass edits it
  if (!KeepsNode(passes, view)) return false;
  WireNodeEdit edit(edits);
  for (const auto& pass : passes) pass->Edit(view, &edit);
  return true;
}

void ForEachWireNodeView(const WireGraph& graph, const NodeVisitor& visit) {
  for (size_t i = 0; i < graph.nodes().size(); ++i) visit(WireNodeView(graph, i, kNoEdits));
}

bool AnyPassReadsNodes(const NodePasses& passes) {
  for (const auto& pass : passes) {
    if (pass->ReadsNode()) return true;
  }
  return false;
}

}  // namespace graphport::tf

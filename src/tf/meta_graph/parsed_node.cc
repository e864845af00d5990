#include "tf/meta_graph/parsed_node.h"

#include <string>

#include "proto/unknown_fields.h"
#include "tf/meta_graph/attr_value_equal.h"

namespace graphport::tf {
namespace {

void LendAttr(const tensorflow::AttrValue& in, tensorflow::AttrValue* out) {
  // The output message lives on a scratch arena that never frees what it points to, so the
  // model's submessages are lent instead of copied: a tensor may hold the weights, and a
  // list (every node's _output_shapes) is most of what a node-heavy graph would copy.
  using Value = tensorflow::AttrValue;
  switch (in.value_case()) {
    case Value::kTensor:
      out->unsafe_arena_set_allocated_tensor(const_cast<tensorflow::TensorProto*>(&in.tensor()));
      return;  // as before: a lent tensor's AttrValue keeps no unknown fields
    case Value::kList:
      out->unsafe_arena_set_allocated_list(const_cast<Value::ListValue*>(&in.list()));
      break;
    case Value::kShape:
      out->unsafe_arena_set_allocated_shape(const_cast<tensorflow::TensorShapeProto*>(&in.shape()));
      break;
    case Value::kFunc:
      out->unsafe_arena_set_allocated_func(const_cast<tensorflow::NameAttrList*>(&in.func()));
      break;
    default:
      *out = in;
      return;
  }
  // What `*out = in` would also have copied. Asked for only when there are some: the mutable
  // set is allocated on first use, once per attr of every node.
  proto::CopyUnknownFields(in, out);
}

}  // namespace

bool ParsedAttrEquals(const tensorflow::NodeDef& node, std::string_view key,
                      const tensorflow::AttrValue& value) {
  auto it = node.attr().find(std::string(key));
  return it != node.attr().end() && AreAttrValuesEqual(it->second, value);
}

bool ParsedNodeView::ReadAttr(std::string_view key, tensorflow::AttrValue* value) const {
  auto it = node_.attr().find(std::string(key));
  if (it == node_.attr().end()) return false;
  if (value != nullptr) *value = it->second;
  return true;
}

void ParsedNodeEdit::RemoveAttr(std::string_view key) {
  if (node_->mutable_attr()->erase(std::string(key)) > 0 && attrs_removed_ != nullptr) {
    ++*attrs_removed_;
  }
}

void ParsedNodeEdit::SetAttr(std::string_view key, const tensorflow::AttrValue& value) {
  // Erased first: assigning over a lent value would clear what the model holds.
  auto* attrs = node_->mutable_attr();
  attrs->erase(std::string(key));
  (*attrs)[std::string(key)] = value;
}

void ParsedNodeEdit::RenameWith(const NodeRenamer& renamer) {
  // Joined before set: the pieces may be views of the name they replace.
  node_->set_name(renamer.Name(node_->name()).Joined());
  for (std::string& input : *node_->mutable_input()) input = renamer.Input(input).Joined();
}

void EditParsedNode(const NodePasses& passes, tensorflow::NodeDef* node, int* attrs_removed) {
  ParsedNodeView view(*node);
  ParsedNodeEdit edit(node, attrs_removed);
  for (const auto& pass : passes) pass->Edit(view, &edit);
}

void LendNode(const tensorflow::NodeDef& in, tensorflow::NodeDef* out) {
  out->set_name(in.name());
  *out->mutable_input() = in.input();
  out->set_device(in.device());
  out->set_op(in.op());
  if (in.has_experimental_debug_info()) {
    *out->mutable_experimental_debug_info() = in.experimental_debug_info();
  }
  if (in.has_experimental_type()) *out->mutable_experimental_type() = in.experimental_type();
  proto::CopyUnknownFields(in, out);
  for (const auto& [key, value] : in.attr()) LendAttr(value, &(*out->mutable_attr())[key]);
}

void ForEachParsedNode(const tensorflow::GraphDef& graph, const NodeVisitor& visit) {
  for (const auto& node : graph.node()) visit(ParsedNodeView(node));
}

}  // namespace graphport::tf

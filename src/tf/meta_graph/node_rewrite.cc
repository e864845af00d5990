#include "tf/meta_graph/node_rewrite.h"

#include "proto/unknown_fields.h"

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

// Copies the fields of `in` that no export option rewrites: all but the name, inputs,
// device and attrs.
void CopyUnrewrittenFields(const tensorflow::NodeDef& in, tensorflow::NodeDef* out) {
  out->set_op(in.op());
  if (in.has_experimental_debug_info()) {
    *out->mutable_experimental_debug_info() = in.experimental_debug_info();
  }
  if (in.has_experimental_type()) *out->mutable_experimental_type() = in.experimental_type();
  proto::CopyUnknownFields(in, out);
}

}  // namespace

bool NodeInExport(const tensorflow::NodeDef& node, const Scope& scope) {
  return NodeInExport(node.name(), scope);
}

bool NodeInExport(std::string_view node_name, const Scope& scope) {
  return scope.Contains(node_name) ||
         node_name.substr(0, kUnboundInputPrefix.size()) == kUnboundInputPrefix;
}

void LendNode(const tensorflow::NodeDef& in, tensorflow::NodeDef* out) {
  out->set_name(in.name());
  *out->mutable_input() = in.input();
  out->set_device(in.device());
  CopyUnrewrittenFields(in, out);
  for (const auto& [key, value] : in.attr()) LendAttr(value, &(*out->mutable_attr())[key]);
}

void RewriteNode(const tensorflow::NodeDef& in, const Scope& scope, tensorflow::NodeDef* out,
                 std::vector<std::string>* unbound) {
  // Each rewritten field is written once, not copied and then overwritten.
  out->set_name(scope.Strip(in.name()));
  out->set_device(in.device());
  CopyUnrewrittenFields(in, out);
  for (const auto& input : in.input()) {
    if (!scope.empty() && !scope.Contains(input)) {
      std::string renamed = UnboundInputName(input);
      unbound->push_back(renamed);
      out->add_input(std::move(renamed));
    } else {
      out->add_input(scope.Strip(input));
    }
  }
  for (const auto& [key, value] : in.attr()) {
    tensorflow::AttrValue* attr = &(*out->mutable_attr())[key];
    if (key == "_class" && !scope.empty()) {
      // Colocation entries ("loc:@name") outside the scope are dropped, the rest stripped; the
      // attr is rewritten as a plain string list, and kept even when it ends up empty.
      tensorflow::AttrValue::ListValue* list = attr->mutable_list();
      for (const auto& entry : value.list().s()) {
        size_t at = entry.find('@');
        std::string_view target = at == std::string::npos ? std::string_view(entry)
                                                          : std::string_view(entry).substr(at + 1);
        if (scope.Contains(target)) list->add_s(scope.Strip(entry));
      }
    } else if (key == "frame_name" && (in.op() == "Enter" || in.op() == "RefEnter") &&
               !scope.empty() && scope.Contains(value.s())) {
      attr->set_s(scope.Strip(value.s()));
    } else {
      LendAttr(value, attr);
    }
  }
}

}  // namespace graphport::tf

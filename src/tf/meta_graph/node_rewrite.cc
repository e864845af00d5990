#include "tf/meta_graph/node_rewrite.h"

namespace graphport::tf {
namespace {

void LendAttr(const tensorflow::AttrValue& in, tensorflow::AttrValue* out) {
  if (in.has_tensor()) {
    // The output message lives on a scratch arena that never frees what it points to.
    out->unsafe_arena_set_allocated_tensor(const_cast<tensorflow::TensorProto*>(&in.tensor()));
  } else {
    *out = in;
  }
}

// Copies every field of `in` but the attrs, which the caller fills.
void CopyAllButAttrs(const tensorflow::NodeDef& in, tensorflow::NodeDef* out) {
  out->set_name(in.name());
  out->set_op(in.op());
  *out->mutable_input() = in.input();
  out->set_device(in.device());
  if (in.has_experimental_debug_info()) {
    *out->mutable_experimental_debug_info() = in.experimental_debug_info();
  }
  if (in.has_experimental_type()) *out->mutable_experimental_type() = in.experimental_type();
  out->GetReflection()->MutableUnknownFields(out)->MergeFrom(
      in.GetReflection()->GetUnknownFields(in));
}

}  // namespace

bool NodeInExport(const tensorflow::NodeDef& node, const Scope& scope) {
  return scope.Contains(node.name()) ||
         node.name().compare(0, kUnboundInputPrefix.size(), kUnboundInputPrefix) == 0;
}

void LendNode(const tensorflow::NodeDef& in, tensorflow::NodeDef* out) {
  CopyAllButAttrs(in, out);
  for (const auto& [key, value] : in.attr()) LendAttr(value, &(*out->mutable_attr())[key]);
}

void RewriteNode(const tensorflow::NodeDef& in, const Scope& scope, bool clear_devices,
                 tensorflow::NodeDef* out, std::vector<std::string>* unbound) {
  CopyAllButAttrs(in, out);
  out->set_name(scope.Strip(in.name()));
  if (clear_devices) out->clear_device();
  out->clear_input();
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
        std::string_view target =
            at == std::string::npos ? std::string_view(entry) : std::string_view(entry).substr(at + 1);
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

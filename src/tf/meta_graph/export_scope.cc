#include "tf/meta_graph/export_scope.h"

#include <string>

namespace graphport::tf {
namespace {

constexpr char kColocationAttr[] = "_class";
constexpr char kFrameNameAttr[] = "frame_name";

}  // namespace

bool NodeInExport(std::string_view node_name, const Scope& scope) {
  return scope.Contains(node_name) ||
         node_name.substr(0, kUnboundInputPrefix.size()) == kUnboundInputPrefix;
}

bool ExportScope::Keeps(const NodeView& node) const { return NodeInExport(node.name(), scope_); }

void ExportScope::Edit(const NodeView& node, NodeEdit* edit) const {
  if (scope_.empty()) return;
  edit->RenameWith(*this);
  if (node.ReadAttr(kColocationAttr, nullptr)) {
    tensorflow::AttrValue value;
    node.ReadAttr(kColocationAttr, &value);
    // Colocation entries ("loc:@name") outside the scope are dropped, the rest stripped; the
    // attr is rewritten as a plain string list, and kept even when it ends up empty.
    tensorflow::AttrValue scoped;
    tensorflow::AttrValue::ListValue* list = scoped.mutable_list();
    for (const auto& entry : value.list().s()) {
      size_t at = entry.find('@');
      std::string_view target = at == std::string::npos ? std::string_view(entry)
                                                        : std::string_view(entry).substr(at + 1);
      if (scope_.Contains(target)) list->add_s(scope_.Strip(entry));
    }
    edit->SetAttr(kColocationAttr, scoped);
  }
  const std::string_view op = node.op();
  if (op != "Enter" && op != "RefEnter") return;
  tensorflow::AttrValue frame;
  if (node.ReadAttr(kFrameNameAttr, &frame) && scope_.Contains(frame.s())) {
    // Only the string: the rest of the value, as TensorFlow writes a fresh one.
    tensorflow::AttrValue scoped;
    scoped.set_s(scope_.Strip(frame.s()));
    edit->SetAttr(kFrameNameAttr, scoped);
  }
}

NamePieces ExportScope::Name(std::string_view name) const {
  NamePieces out;
  scope_.Strip(name, &out.a, &out.b);
  return out;
}

NamePieces ExportScope::Input(std::string_view input) const {
  NamePieces out;
  if (!scope_.empty() && !scope_.Contains(input)) {
    // UnboundInputName: "x" -> "$unbound_inputs_x", "^x" -> "^$unbound_inputs_x".
    out.a = input.substr(0, !input.empty() && input[0] == '^' ? 1 : 0);
    out.b = kUnboundInputPrefix;
    out.c = input.substr(out.a.size());
  } else {
    scope_.Strip(input, &out.a, &out.b);
  }
  return out;
}

}  // namespace graphport::tf

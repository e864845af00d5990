#include "tfjs/default_attrs.h"

#include <algorithm>
#include <cstring>
#include <iterator>

namespace graphport::tfjs {
namespace {

struct DefaultAttr {
  const char* op;
  const char* attr;
  const char* bytes;  // a serialized AttrValue
  size_t size;
};

const DefaultAttr kDefaultAttrs[] = {
#include "tfjs/default_attrs_table.inc"
};

// The table's rows for `op` (sorted by op, then attr).
std::pair<const DefaultAttr*, const DefaultAttr*> DefaultsOf(std::string_view op) {
  auto less = [](const DefaultAttr& row, std::string_view name) {
    return std::string_view(row.op) < name;
  };
  const DefaultAttr* first =
      std::lower_bound(std::begin(kDefaultAttrs), std::end(kDefaultAttrs), op, less);
  const DefaultAttr* last = first;
  while (last != std::end(kDefaultAttrs) && std::string_view(last->op) == op) ++last;
  return {first, last};
}

bool Lacks(const tensorflow::NodeDef& node) {
  auto [first, last] = DefaultsOf(node.op());
  for (const DefaultAttr* row = first; row != last; ++row) {
    if (node.attr().count(row->attr) == 0) return true;
  }
  return false;
}

}  // namespace

bool AddDefaultAttrs(tensorflow::NodeDef* node) {
  auto [first, last] = DefaultsOf(node->op());
  bool added = false;
  for (const DefaultAttr* row = first; row != last; ++row) {
    if (node->attr().count(row->attr) != 0) continue;
    // The table's bytes are generated from the registry by the project's own schema: a value
    // that does not parse is a build defect, caught by the tests of every row.
    (*node->mutable_attr())[row->attr].ParseFromArray(row->bytes, static_cast<int>(row->size));
    added = true;
  }
  return added;
}

const tensorflow::NodeDef& WithDefaultAttrs::Node(size_t i) {
  const tensorflow::NodeDef& node = nodes_.Node(i);
  if (!Lacks(node)) return node;
  completed_ = node;
  AddDefaultAttrs(&completed_);
  return completed_;
}

std::optional<std::string_view> WithDefaultAttrs::SerializedNode(size_t i) const {
  auto [first, last] = DefaultsOf(nodes_.op(i));
  if (first == last || !Lacks(nodes_.Node(i))) return nodes_.SerializedNode(i);
  return std::nullopt;
}

const tensorflow::FunctionDefLibrary& WithDefaultAttrs::library() {
  if (!library_) {
    library_ = nodes_.library();
    for (auto& function : *library_->mutable_function()) {
      for (auto& node : *function.mutable_node_def()) AddDefaultAttrs(&node);
    }
  }
  return *library_;
}

}  // namespace graphport::tfjs

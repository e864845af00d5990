#include "tf/freeze/function_tensors.h"

#include <cstdlib>

#include "core/error.h"
#include "tf/freeze/node_location.h"
#include "tf/freeze/op_outputs.h"

namespace graphport::tf {
namespace {

// How many tensors one output arg stands for on `node`.
int ArgSize(const tensorflow::OpDef::ArgDef& arg, const tensorflow::NodeDef& node) {
  auto attr = [&](const std::string& name) -> const tensorflow::AttrValue* {
    auto it = node.attr().find(name);
    return it == node.attr().end() ? nullptr : &it->second;
  };
  if (!arg.number_attr().empty()) {
    const tensorflow::AttrValue* n = attr(arg.number_attr());
    if (n == nullptr) {
      throw Error(ErrorCode::kParseError,
                  "node '" + node.name() + "' lacks attr '" + arg.number_attr() +
                      "', which gives the length of its output '" + arg.name() + "'",
                  AtNode(node.name()));
    }
    return static_cast<int>(n->i());
  }
  if (!arg.type_list_attr().empty()) {
    const tensorflow::AttrValue* list = attr(arg.type_list_attr());
    if (list == nullptr) {
      throw Error(ErrorCode::kParseError,
                  "node '" + node.name() + "' lacks attr '" + arg.type_list_attr() +
                      "', which gives the types of its output '" + arg.name() + "'",
                  AtNode(node.name()));
    }
    return list->list().type_size();
  }
  return 1;
}

}  // namespace

FunctionTensors::FunctionTensors(const tensorflow::FunctionDef& function,
                                 const OpRegistry& registry,
                                 const tensorflow::FunctionDefLibrary& library)
    : function_(function), registry_(registry) {
  for (const auto& f : library.function()) library_.emplace(f.signature().name(), &f);
  for (const auto& node : function.node_def()) nodes_.emplace(node.name(), &node);
}

int FunctionTensors::FlatIndex(const tensorflow::NodeDef& node, const std::string& arg,
                               int i) const {
  const std::string& where = function_.signature().name();
  // A call of a library function by its name: one tensor per output arg.
  auto called = library_.find(node.op());
  if (called != library_.end()) {
    const auto& outputs = called->second->signature().output_arg();
    for (int k = 0; k < outputs.size(); ++k) {
      if (outputs[k].name() == arg && i == 0) return k;
    }
    throw Error(ErrorCode::kParseError,
                "function '" + where + "': node '" + node.name() + "' calls '" + node.op() +
                    "', which has no output '" + arg + ":" + std::to_string(i) + "'",
                AtNode(node.name()));
  }
  const tensorflow::OpDef* op = registry_.FindComplete(node.op());
  tensorflow::OpDef builtin;
  if (op == nullptr) {
    // SavedModels often leave their functions' ops out of stripped_op_list: TensorFlow's
    // registry then says which ops have several outputs; any other has one.
    std::vector<OutputArgLayout> layout;
    if (BuiltinOutputArgs(node.op(), &layout)) {
      for (const auto& arg : layout) {
        auto* def = builtin.add_output_arg();
        def->set_name(arg.name);
        def->set_number_attr(arg.number_attr);
        def->set_type_list_attr(arg.type_list_attr);
      }
    } else {
      auto* def = builtin.add_output_arg();
      def->set_name(arg);
    }
    op = &builtin;
  }
  int flat = 0;
  for (const auto& output : op->output_arg()) {
    int size = ArgSize(output, node);
    if (output.name() == arg) {
      if (i < 0 || i >= size) break;
      return flat + i;
    }
    flat += size;
  }
  throw Error(ErrorCode::kParseError,
              "function '" + where + "': node '" + node.name() + "' (op " + node.op() +
                  ") has no output '" + arg + ":" + std::to_string(i) + "'",
              AtNode(node.name()));
}

FunctionTensors::Tensor FunctionTensors::Resolve(const std::string& reference) const {
  size_t first = reference.find(':');
  if (first == std::string::npos) return Tensor{reference, -1};
  std::string node_name = reference.substr(0, first);
  std::string rest = reference.substr(first + 1);
  size_t second = rest.find(':');
  std::string arg = rest.substr(0, second);
  int i = 0;
  if (second != std::string::npos) {
    const std::string digits = rest.substr(second + 1);
    char* end = nullptr;
    long value = std::strtol(digits.c_str(), &end, 10);
    if (digits.empty() || *end != '\0' || value < 0 || value > (1 << 30)) {
      throw Error(ErrorCode::kParseError, "function '" + function_.signature().name() +
                                              "': input '" + reference +
                                              "' has no valid output index");
    }
    i = static_cast<int>(value);
  }
  auto node = nodes_.find(node_name);
  if (node == nodes_.end()) {
    throw Error(ErrorCode::kParseError, "function '" + function_.signature().name() + "': input '" +
                                            reference + "' names node '" + node_name +
                                            "', which the body does not have");
  }
  return Tensor{node_name, FlatIndex(*node->second, arg, i)};
}

}  // namespace graphport::tf

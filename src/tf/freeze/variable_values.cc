#include "tf/freeze/variable_values.h"

#include <unordered_map>

#include "core/error.h"
#include "tf/freeze/function_body.h"
#include "tf/freeze/node_location.h"
#include "tf/optimize/graph_edit.h"

namespace graphport::tf {
namespace {

using NodeIndex = std::unordered_map<std::string, const tensorflow::NodeDef*>;

NodeIndex IndexNodes(const tensorflow::GraphDef& graph) {
  NodeIndex index;
  for (const auto& node : graph.node()) index.emplace(node.name(), &node);
  return index;
}

// Variable node name -> checkpoint key, from Assign/AssignVariableOp nodes fed by a RestoreV2.
std::map<std::string, std::string> RestoredKeys(const tensorflow::GraphDef& graph) {
  NodeIndex nodes = IndexNodes(graph);
  std::map<std::string, std::string> keys;
  for (const auto& node : graph.node()) {
    if ((node.op() != "Assign" && node.op() != "AssignVariableOp") || node.input_size() < 2) {
      continue;
    }
    int var_index = 0;
    const tensorflow::NodeDef* variable = PastIdentities(nodes, node.input(0), &var_index);
    int output = 0;
    const tensorflow::NodeDef* restore = PastIdentities(nodes, node.input(1), &output);
    if (variable == nullptr || restore == nullptr || restore->op() != "RestoreV2" ||
        restore->input_size() < 2 || output < 0) {
      continue;
    }
    int unused = 0;
    const tensorflow::NodeDef* names = PastIdentities(nodes, restore->input(1), &unused);
    if (names == nullptr || names->op() != "Const") continue;
    auto value = names->attr().find("value");
    if (value == names->attr().end()) continue;
    const auto& strings = value->second.tensor().string_val();
    if (output < strings.size()) keys.emplace(variable->name(), strings[output]);
  }
  return keys;
}

VariableValue ReadValue(VariableStore* store, const std::string& key, const std::string& node) {
  VariableValue v;
  v.key = key;
  if (!store->Has(key)) {
    throw Error(ErrorCode::kNotFound,
                "variable '" + node + "' is saved under key '" + key + "', which checkpoint " +
                    store->label() + " does not hold",
                AtNode(node));
  }
  store->Read(key, &v.value);
  return v;
}

std::string VariableKind(const tensorflow::SavedObject& object) {
  switch (object.kind_case()) {
    case tensorflow::SavedObject::kAsset:
      return "an asset";
    case tensorflow::SavedObject::kCapturedTensor:
      return "a captured tensor";
    default:
      return "no variable";
  }
}

}  // namespace

bool IsVariableOp(std::string_view op) {
  return op == "VariableV2" || op == "Variable" || op == "VarHandleOp";
}

std::map<std::string, VariableValue> CapturedValues(const SignatureGraph& signature,
                                                    const tensorflow::MetaGraphDef& meta_graph,
                                                    const tensorflow::GraphDef& top_graph,
                                                    VariableStore* store) {
  std::map<std::string, VariableValue> values;
  if (signature.captures.empty()) return values;
  tensorflow::TrackableObjectGraph checkpoint_objects;
  bool have_objects = store->ReadObjectGraph(&checkpoint_objects);
  const auto& saved_objects = meta_graph.object_graph_def().nodes();
  NodeIndex top = IndexNodes(top_graph);
  std::map<std::string, std::string> restored;  // made on first need
  for (const auto& capture : signature.captures) {
    const std::string& node = capture.node;
    int id = capture.object_id;
    if (id >= 0) {
      if (id >= saved_objects.size()) {
        throw Error(ErrorCode::kParseError,
                    "the function's input '" + node + "' is bound to object " + std::to_string(id) +
                        ", past the object graph's " + std::to_string(saved_objects.size()) +
                        " nodes",
                    AtNode(node));
      }
      const tensorflow::SavedObject& object = saved_objects[id];
      if (object.kind_case() == tensorflow::SavedObject::kConstant) {
        auto constant = top.find(object.constant().operation());
        if (constant == top.end() || constant->second->op() != "Const") {
          throw Error(ErrorCode::kParseError,
                      "the function's input '" + node + "' is the constant '" +
                          object.constant().operation() + "', which the graph does not hold",
                      AtNode(node));
        }
        VariableValue v;
        v.key = "";
        auto value = constant->second->attr().find("value");
        if (value != constant->second->attr().end()) v.value = value->second.tensor();
        values.emplace(node, std::move(v));
        continue;
      }
      // A table: served by the initializer graph (table_initializer.h), not a value.
      if (object.kind_case() == tensorflow::SavedObject::kResource) continue;
      if (object.kind_case() != tensorflow::SavedObject::kVariable) {
        throw Error(ErrorCode::kUnsupported,
                    "the signature's function captures '" + node + "', which is " +
                        VariableKind(object) + ", which a freeze cannot make a constant",
                    AtNode(node));
      }
      if (!have_objects || id >= checkpoint_objects.nodes_size()) {
        throw Error(ErrorCode::kParseError,
                    "checkpoint " + store->label() + " has no object graph node " +
                        std::to_string(id) + " for variable '" + object.variable().name() + "'",
                    AtNode(node));
      }
      std::string key;
      for (const auto& attribute : checkpoint_objects.nodes(id).attributes()) {
        if (attribute.name() == "VARIABLE_VALUE") key = attribute.checkpoint_key();
      }
      if (key.empty()) {
        throw Error(ErrorCode::kNotFound,
                    "variable '" + object.variable().name() + "' (object " + std::to_string(id) +
                        ") has no saved value in checkpoint " + store->label(),
                    AtNode(node));
      }
      values.emplace(node, ReadValue(store, key, node));
      continue;
    }
    // No object graph entry: the top-level node fed to the call names the variable.
    auto outer = top.find(capture.outer);
    if (outer == top.end() || !IsVariableOp(outer->second->op())) {
      throw Error(ErrorCode::kUnsupported,
                  "the function's resource input '" + node +
                      "' is bound to no variable the SavedModel describes",
                  AtNode(node));
    }
    if (restored.empty()) restored = RestoredKeys(top_graph);
    auto key = restored.find(outer->first);
    std::string name =
        key != restored.end() ? key->second : StringAttr(*outer->second, "shared_name");
    if (name.empty()) name = outer->first;
    values.emplace(node, ReadValue(store, name, node));
  }
  return values;
}

std::map<std::string, VariableValue> GraphVariableValues(const tensorflow::GraphDef& graph,
                                                         const tensorflow::GraphDef& top_graph,
                                                         VariableStore* store) {
  std::map<std::string, VariableValue> values;
  std::map<std::string, std::string> restored;
  bool looked = false;
  for (const auto& node : graph.node()) {
    if (!IsVariableOp(node.op())) continue;
    if (!looked) {
      restored = RestoredKeys(top_graph);
      looked = true;
    }
    auto key = restored.find(node.name());
    std::string name = node.name();
    if (key != restored.end()) {
      name = key->second;
    } else if (!store->Has(name) && !StringAttr(node, "shared_name").empty()) {
      name = StringAttr(node, "shared_name");
    }
    values.emplace(node.name(), ReadValue(store, name, node.name()));
  }
  return values;
}

}  // namespace graphport::tf

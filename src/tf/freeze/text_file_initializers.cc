#include "tf/freeze/text_file_initializers.h"

#include <unordered_map>
#include <vector>

#include "core/error.h"
#include "tf/freeze/function_body.h"
#include "tf/freeze/node_location.h"
#include "tf/freeze/text_file_table.h"
#include "tf/optimize/graph_edit.h"

namespace graphport::tf {
namespace {

using nlohmann::json;
using tensorflow::NodeDef;

// The attr `name` of `node`, else its op's default from `registry`, else null.
const tensorflow::AttrValue* AttrOrDefault(const NodeDef& node, const OpRegistry* registry,
                                           const std::string& name) {
  auto it = node.attr().find(name);
  if (it != node.attr().end()) return &it->second;
  if (registry == nullptr) return nullptr;
  OpRegistry::Found found = registry->Find(node.op());
  if (found.op == nullptr) return nullptr;
  for (const auto& attr : found.op->attr()) {
    if (attr.name() == name && attr.has_default_value()) return &attr.default_value();
  }
  return nullptr;
}

}  // namespace

bool IsTableInitOp(const std::string& op) {
  return op == "InitializeTable" || op == "InitializeTableV2" ||
         op == "InitializeTableFromTextFile" || op == "InitializeTableFromTextFileV2" ||
         op == "LookupTableImport" || op == "LookupTableImportV2";
}

bool IsTableOp(const std::string& op) {
  return op == "HashTable" || op == "HashTableV2" || op == "MutableHashTable" ||
         op == "MutableHashTableV2" || op == "MutableHashTableOfTensors" ||
         op == "MutableHashTableOfTensorsV2" || op == "MutableDenseHashTable" ||
         op == "MutableDenseHashTableV2";
}

json FillTextFileTables(tensorflow::GraphDef* graph, const TextFileTablesContext& context) {
  json filled = json::array();
  std::unordered_map<std::string, const NodeDef*> nodes;
  for (const auto& node : graph->node()) nodes.emplace(node.name(), &node);
  std::vector<NodeDef> added;
  for (int i = 0; i < graph->node_size(); ++i) {
    NodeDef* node = graph->mutable_node(i);
    bool v2 = node->op() == "InitializeTableFromTextFileV2";
    if (!v2 && node->op() != "InitializeTableFromTextFile") continue;
    const std::string name = node->name();
    const char* hash_table = v2 ? "HashTableV2" : "HashTable";
    const char* import = v2 ? "LookupTableImportV2" : "LookupTableImport";
    auto refuse = [&](const std::string& why) {
      std::string what =
          context.describe ? context.describe(name) : "table initializer '" + name + "'";
      throw Error(ErrorCode::kUnsupported,
                  what + " reads a text file graphport cannot fill the table from: " + why,
                  AtNode(name));
    };
    if (node->input_size() < 2) refuse("it has fewer than 2 inputs");
    int output = 0;  // which output of them: not needed here
    const NodeDef* table = PastIdentities(nodes, node->input(0), &output);
    const NodeDef* filename = PastIdentities(nodes, node->input(1), &output);
    if (table == nullptr || table->op() != hash_table) {
      refuse(std::string("it fills no ") + hash_table + " (TF.js has only hash tables)");
    }
    auto asset_node = filename == nullptr ? context.asset_nodes.end()
                                          : context.asset_nodes.find(filename->name());
    if (asset_node == context.asset_nodes.end()) {
      refuse("its file name is not an asset of the SavedModel");
    }
    const std::string& asset = asset_node->second;
    std::string bytes, label;
    if (!context.read_asset || !context.read_asset(asset, &bytes, &label)) {
      refuse("the asset file '" + asset +
             "' was not given (the SavedModel folder's assets/ holds it)");
    }
    TextFileTableSpec spec;
    const tensorflow::AttrValue* key_dtype = AttrOrDefault(*table, context.registry, "key_dtype");
    const tensorflow::AttrValue* value_dtype =
        AttrOrDefault(*table, context.registry, "value_dtype");
    if (key_dtype == nullptr || value_dtype == nullptr) {
      refuse("its table '" + table->name() + "' has no key_dtype or value_dtype");
    }
    spec.key_dtype = key_dtype->type();
    spec.value_dtype = value_dtype->type();
    auto integer = [&](const char* attr, int64_t fallback) {
      const tensorflow::AttrValue* value = AttrOrDefault(*node, context.registry, attr);
      return value != nullptr ? value->i() : fallback;
    };
    spec.key_index = integer("key_index", kTextFileWholeLine);
    spec.value_index = integer("value_index", kTextFileLineNumber);
    spec.vocab_size = integer("vocab_size", -1);
    spec.offset = integer("offset", 0);
    const tensorflow::AttrValue* delimiter = AttrOrDefault(*node, context.registry, "delimiter");
    std::string delimiter_text = delimiter != nullptr ? delimiter->s() : "\t";
    if (delimiter_text.size() != 1) {
      refuse("its delimiter '" + delimiter_text + "' is not one character, as TensorFlow needs");
    }
    spec.delimiter = delimiter_text[0];
    TextFileTable entries = ReadTextFileTable(bytes, label, spec);

    std::vector<std::string> controls;
    for (const auto& input : node->input()) {
      if (input.rfind('^', 0) == 0) controls.push_back(input);
    }
    std::string handle = node->input(0);
    std::string device = node->device();
    node->Clear();
    node->set_name(name);
    node->set_op(import);
    node->set_device(device);
    node->add_input(handle);
    node->add_input(name + "/keys");
    node->add_input(name + "/values");
    for (const auto& control : controls) node->add_input(control);
    (*node->mutable_attr())["Tin"].set_type(spec.key_dtype);
    (*node->mutable_attr())["Tout"].set_type(spec.value_dtype);
    for (auto* tensor : {&entries.keys, &entries.values}) {
      NodeDef constant;
      constant.set_name(name + (tensor == &entries.keys ? "/keys" : "/values"));
      constant.set_op("Const");
      constant.set_device(device);
      (*constant.mutable_attr())["dtype"].set_type(tensor->dtype());
      *(*constant.mutable_attr())["value"].mutable_tensor() = std::move(*tensor);
      added.push_back(std::move(constant));
    }
    filled.push_back({{"node", name},
                      {"asset", asset},
                      {"keyIndex", spec.key_index},
                      {"valueIndex", spec.value_index},
                      {"lines", entries.lines},
                      {"entries", entries.lines - entries.duplicates},
                      {"madeOp", import}});
  }
  for (auto& node : added) *graph->add_node() = std::move(node);
  return filled;
}

}  // namespace graphport::tf

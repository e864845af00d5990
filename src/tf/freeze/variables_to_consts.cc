#include "tf/freeze/variables_to_consts.h"

#include <deque>
#include <set>
#include <unordered_map>
#include <vector>

#include "tf/freeze/function_body.h"

namespace graphport::tf {
namespace {

tensorflow::DataType AttrType(const tensorflow::NodeDef& node, const char* name) {
  auto it = node.attr().find(name);
  return it == node.attr().end() ? tensorflow::DT_INVALID : it->second.type();
}

uint64_t ValueBytes(const tensorflow::TensorProto& value) {
  uint64_t bytes = value.tensor_content().size();
  for (const auto& s : value.string_val()) bytes += s.size();
  return bytes;
}

void ReplaceWithConst(tensorflow::NodeDef* node, tensorflow::TensorProto value) {
  std::string device = node->device();
  std::string name = node->name();
  node->Clear();
  node->set_name(name);
  node->set_op("Const");
  node->set_device(device);
  (*node->mutable_attr())["dtype"].set_type(value.dtype());
  *(*node->mutable_attr())["value"].mutable_tensor() = std::move(value);
}

}  // namespace

VariablesToConstsResult VariablesToConsts(tensorflow::GraphDef* graph,
                                          std::map<std::string, VariableValue>* values) {
  VariablesToConstsResult result;
  std::unordered_map<std::string, int> by_name;
  std::unordered_map<std::string, std::vector<int>> consumers;  // data consumers by node
  for (int i = 0; i < graph->node_size(); ++i) {
    by_name.emplace(graph->node(i).name(), i);
    for (const auto& input : graph->node(i).input()) {
      std::string node;
      int index = 0;
      SplitGraphInput(input, &node, &index);
      if (index >= 0) consumers[node].push_back(i);
    }
  }
  // Each frozen node's value dtype, carried downstream along the edges that pass a resource.
  std::deque<std::pair<int, tensorflow::DataType>> queue;
  for (auto& [name, v] : *values) {
    auto it = by_name.find(name);
    if (it == by_name.end()) continue;
    tensorflow::DataType dtype = v.value.dtype();
    result.value_bytes += ValueBytes(v.value);
    ReplaceWithConst(graph->mutable_node(it->second), std::move(v.value));
    ++result.variables;
    result.consts.emplace_back(name, v.key);
    queue.emplace_back(it->second, dtype);
  }
  std::set<int> seen;
  std::vector<tensorflow::NodeDef> added;
  while (!queue.empty()) {
    auto [from, dtype] = queue.front();
    queue.pop_front();
    for (int i : consumers[graph->node(from).name()]) {
      if (!seen.insert(i).second) continue;
      tensorflow::NodeDef* node = graph->mutable_node(i);
      const std::string& op = node->op();
      auto* attr = node->mutable_attr();
      if (op == "Identity" || op == "Snapshot" || op == "Enter" || op == "Exit" ||
          op == "NextIteration" || op == "Switch" || op == "Merge") {
        (*attr)["T"].set_type(dtype);
        attr->erase("_output_shapes");
        queue.emplace_back(i, dtype);
      } else if (op == "ReadVariableOp") {
        node->set_op("Identity");
        attr->erase("dtype");
        attr->erase("_output_shapes");
        (*attr)["T"].set_type(dtype);
        ++result.reads;
      } else if (op == "ResourceGather" && node->input_size() >= 2) {
        // GatherV2(params, indices, axis 0): the axis is a Const of the indices' type.
        tensorflow::DataType indices = AttrType(*node, "Tindices");
        if (indices == tensorflow::DT_INVALID) indices = tensorflow::DT_INT32;
        tensorflow::NodeDef axis;
        axis.set_name(node->name() + "/axis");
        axis.set_op("Const");
        axis.set_device(node->device());
        (*axis.mutable_attr())["dtype"].set_type(indices);
        tensorflow::TensorProto* zero = (*axis.mutable_attr())["value"].mutable_tensor();
        zero->set_dtype(indices);
        zero->mutable_tensor_shape();
        if (indices == tensorflow::DT_INT64) {
          zero->add_int64_val(0);
        } else {
          zero->add_int_val(0);
        }
        int64_t batch_dims = 0;
        auto b = attr->find("batch_dims");
        if (b != attr->end()) batch_dims = b->second.i();
        node->set_op("GatherV2");
        attr->erase("dtype");
        attr->erase("validate_indices");
        attr->erase("_output_shapes");
        (*attr)["Tparams"].set_type(dtype);
        (*attr)["Tindices"].set_type(indices);
        (*attr)["Taxis"].set_type(indices);
        (*attr)["batch_dims"].set_i(batch_dims);
        // The axis goes after the two data inputs, before any control input.
        std::vector<std::string> inputs(node->input().begin(), node->input().end());
        node->clear_input();
        node->add_input(inputs[0]);
        node->add_input(inputs[1]);
        node->add_input(axis.name());
        for (size_t k = 2; k < inputs.size(); ++k) node->add_input(inputs[k]);
        added.push_back(std::move(axis));
        ++result.gathers;
      } else if (op == "ResourceGatherNd") {
        node->set_op("GatherNd");
        attr->erase("dtype");
        attr->erase("_output_shapes");
        (*attr)["Tparams"].set_type(dtype);
        ++result.gathers;
      }
    }
  }
  for (auto& node : added) *graph->add_node() = std::move(node);
  return result;
}

}  // namespace graphport::tf

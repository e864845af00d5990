#include "tf/optimize/graph_edit.h"

#include "tf/freeze/function_body.h"

namespace graphport::tf {

bool IsControlInput(const std::string& input) { return !input.empty() && input[0] == '^'; }

std::set<std::string> NodeNamesOf(const std::vector<std::string>& tensors) {
  std::set<std::string> names;
  for (const auto& tensor : tensors) names.insert(InputNodeName(tensor));
  return names;
}

GraphDefIndex::GraphDefIndex(const tensorflow::GraphDef& graph) {
  for (int i = 0; i < graph.node_size(); ++i) {
    const tensorflow::NodeDef& node = graph.node(i);
    by_name_.emplace(node.name(), i);
    for (const auto& input : node.input()) {
      std::string name;
      int output = 0;
      SplitGraphInput(input, &name, &output);
      if (output < 0) {
        ++control_consumers_[name];
      } else {
        ++data_consumers_[name];
      }
      if (output > 0) read_past_output0_.insert(name);
    }
  }
}

tensorflow::NodeDef* GraphDefIndex::Find(tensorflow::GraphDef* graph,
                                         const std::string& name) const {
  auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : graph->mutable_node(it->second);
}

const tensorflow::NodeDef* GraphDefIndex::Find(const tensorflow::GraphDef& graph,
                                               const std::string& name) const {
  auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : &graph.node(it->second);
}

int GraphDefIndex::IndexOf(const std::string& name) const {
  auto it = by_name_.find(name);
  return it == by_name_.end() ? -1 : it->second;
}

int GraphDefIndex::DataConsumers(const std::string& name) const {
  auto it = data_consumers_.find(name);
  return it == data_consumers_.end() ? 0 : it->second;
}

int GraphDefIndex::ControlConsumers(const std::string& name) const {
  auto it = control_consumers_.find(name);
  return it == control_consumers_.end() ? 0 : it->second;
}

bool ReadsOutput0(const std::string& input, const std::string& name) {
  std::string node;
  int output = 0;
  SplitGraphInput(input, &node, &output);
  return output == 0 && node == name;
}

const tensorflow::NodeDef* ConstInput(const tensorflow::GraphDef& graph, const GraphDefIndex& index,
                                      const std::string& input) {
  if (IsControlInput(input)) return nullptr;
  const tensorflow::NodeDef* node = index.Find(graph, InputNodeName(input));
  return node != nullptr && node->op() == "Const" ? node : nullptr;
}

int EraseNodes(tensorflow::GraphDef* graph, const std::set<std::string>& names) {
  if (names.empty()) return 0;
  auto* nodes = graph->mutable_node();
  int kept = 0;
  for (int i = 0; i < nodes->size(); ++i) {
    if (names.count(nodes->Get(i).name()) != 0) continue;
    if (kept != i) nodes->SwapElements(kept, i);
    ++kept;
  }
  int erased = nodes->size() - kept;
  nodes->DeleteSubrange(kept, erased);
  return erased;
}

namespace {

// The new spelling of `input` when its node was renamed; `input` itself otherwise.
std::string Redirected(const std::map<std::string, std::string>& renamed,
                       const std::string& input) {
  std::string node;
  int index = 0;
  SplitGraphInput(input, &node, &index);
  auto it = renamed.find(node);
  if (it == renamed.end() || index > 0) return input;
  return index < 0                              ? "^" + it->second
         : input.find(':') == std::string::npos ? it->second
                                                : it->second + ":0";
}

}  // namespace

int RedirectConsumers(tensorflow::GraphDef* graph,
                      const std::map<std::string, std::string>& renamed) {
  if (renamed.empty()) return 0;
  int changed = 0;
  for (auto& node : *graph->mutable_node()) {
    for (auto& input : *node.mutable_input()) {
      std::string next = Redirected(renamed, input);
      if (next != input) {
        input = std::move(next);
        ++changed;
      }
    }
  }
  return changed;
}

void RenameTensors(const std::map<std::string, std::string>& renamed,
                   std::vector<std::string>* tensors) {
  for (auto& tensor : *tensors) tensor = Redirected(renamed, tensor);
}

void AddDataInput(tensorflow::NodeDef* node, const std::string& input) {
  int first_control = 0;
  while (first_control < node->input_size() && !IsControlInput(node->input(first_control))) {
    ++first_control;
  }
  node->add_input(input);
  for (int i = node->input_size() - 1; i > first_control; --i) {
    node->mutable_input()->SwapElements(i, i - 1);
  }
}

void AddControlInput(tensorflow::NodeDef* node, const std::string& name) {
  std::string control = "^" + name;
  for (const auto& input : node->input()) {
    if (input == control) return;
  }
  node->add_input(control);
}

const tensorflow::AttrValue* FindAttr(const tensorflow::NodeDef& node, const std::string& key) {
  auto it = node.attr().find(key);
  return it == node.attr().end() ? nullptr : &it->second;
}

std::string StringAttr(const tensorflow::NodeDef& node, const std::string& key) {
  auto it = node.attr().find(key);
  return it == node.attr().end() ? std::string() : it->second.s();
}

void AddConvolutionDefaults(tensorflow::NodeDef* node, bool cudnn) {
  auto& attrs = *node->mutable_attr();
  if (attrs.count("data_format") == 0) attrs["data_format"].set_s("NHWC");
  if (attrs.count("dilations") == 0) {
    for (int i = 0; i < 4; ++i) attrs["dilations"].mutable_list()->add_i(1);
  }
  if (attrs.count("explicit_paddings") == 0) attrs["explicit_paddings"].mutable_list();
  if (cudnn && attrs.count("use_cudnn_on_gpu") == 0) attrs["use_cudnn_on_gpu"].set_b(true);
}

bool IsNhwc(const tensorflow::NodeDef& node) {
  std::string format = StringAttr(node, "data_format");
  return format.empty() || format == "NHWC";
}

const tensorflow::NodeDef* FindNode(const tensorflow::GraphDef& graph, const std::string& name) {
  for (const auto& node : graph.node()) {
    if (node.name() == name) return &node;
  }
  return nullptr;
}

const tensorflow::NodeDef* PastIdentities(
    const std::unordered_map<std::string, const tensorflow::NodeDef*>& nodes,
    const std::string& input, int* index) {
  std::string name;
  SplitGraphInput(input, &name, index);
  for (int hops = 0; hops < 64; ++hops) {
    auto it = nodes.find(name);
    if (it == nodes.end()) return nullptr;
    const tensorflow::NodeDef* node = it->second;
    if (node->op() != "Identity" || node->input_size() == 0) return node;
    SplitGraphInput(node->input(0), &name, index);
  }
  return nullptr;
}

int DataInputCount(const tensorflow::NodeDef& node) {
  int count = 0;
  for (const auto& input : node.input()) count += IsControlInput(input) ? 0 : 1;
  return count;
}

void Fusions::Absorb(const tensorflow::NodeDef& node, tensorflow::NodeDef* into) {
  for (const auto& input : node.input()) {
    if (IsControlInput(input)) AddControlInput(into, InputNodeName(input));
  }
  gone.insert(node.name());
  renamed[node.name()] = into->name();
}

int Fusions::Apply(tensorflow::GraphDef* graph, std::vector<std::string>* outputs) const {
  EraseNodes(graph, gone);
  RedirectConsumers(graph, renamed);
  RenameTensors(renamed, outputs);
  return count;
}

}  // namespace graphport::tf

#include "tf/freeze/inline_calls.h"

#include <map>
#include <set>
#include <unordered_map>

#include "core/error.h"
#include "tf/freeze/function_body.h"
#include "tf/freeze/node_location.h"

namespace graphport::tf {
namespace {

// The function a call node names: attr f of a (Stateful)PartitionedCall, else its op (a
// library function called directly).
std::string CalleeName(const tensorflow::NodeDef& node) {
  if (node.op() == "PartitionedCall" || node.op() == "StatefulPartitionedCall") {
    auto f = node.attr().find("f");
    return f == node.attr().end() ? std::string() : f->second.func().name();
  }
  return node.op();
}

// What a call left behind once inlined: the Identity of each output, and the NoOp standing for
// its control output (made only when something waits on the call).
struct Inlined {
  std::vector<std::string> outputs;
  std::vector<std::string> control_outputs;
  std::string output_control;
  std::string device;
};

class Inliner {
 public:
  Inliner(tensorflow::GraphDef* graph, const OpRegistry& registry)
      : graph_(graph), registry_(registry) {}

  int Run(std::vector<std::string>* fetches) {
    for (const auto& f : graph_->library().function()) functions_[f.signature().name()] = &f;
    std::unordered_map<std::string, int> depth;
    // Nodes appended by one inlining are visited in turn: nested calls are inlined too.
    for (int i = 0; i < graph_->node_size(); ++i) {
      const tensorflow::FunctionDef* function = Called(graph_->node(i));
      if (function == nullptr) continue;
      tensorflow::NodeDef call = graph_->node(i);
      int level = depth[call.name()];
      if (level >= kMaxInlineDepth) {
        throw Error(ErrorCode::kUnsupported,
                    "node '" + call.name() + "' calls '" + function->signature().name() +
                        "' through more than " + std::to_string(kMaxInlineDepth) +
                        " nested calls: a recursive function cannot be inlined",
                    AtNode(call.name()));
      }
      size_t first_new = graph_->node_size();
      Inline(call, *function);
      for (int k = static_cast<int>(first_new); k < graph_->node_size(); ++k) {
        depth[graph_->node(k).name()] = level + 1;
      }
    }
    if (inlined_.empty()) return 0;
    Rewire(fetches);
    return static_cast<int>(inlined_.size());
  }

 private:
  const tensorflow::FunctionDef* Called(const tensorflow::NodeDef& node) const {
    auto found = functions_.find(CalleeName(node));
    return found == functions_.end() ? nullptr : found->second;
  }

  std::string NewName(const std::string& prefix) {
    return prefix + "/_" + std::to_string(counter_++);
  }

  tensorflow::NodeDef* AddNode(const std::string& name, const std::string& op,
                               const std::string& device) {
    tensorflow::NodeDef* node = graph_->add_node();
    node->set_name(name);
    node->set_op(op);
    node->set_device(device);
    return node;
  }

  static void SetType(tensorflow::NodeDef* node, tensorflow::DataType type) {
    (*node->mutable_attr())["T"].set_type(type);
  }

  void Inline(const tensorflow::NodeDef& call, const tensorflow::FunctionDef& function) {
    const std::string& c = call.name();
    const auto& signature = function.signature();
    std::vector<std::string> data_inputs;
    std::vector<std::string> control_inputs;
    for (const auto& input : call.input()) {
      (input.rfind('^', 0) == 0 ? control_inputs : data_inputs).push_back(input);
    }
    if (data_inputs.size() != static_cast<size_t>(signature.input_arg_size())) {
      throw Error(ErrorCode::kParseError,
                  "node '" + c + "' gives " + std::to_string(data_inputs.size()) + " inputs to '" +
                      signature.name() + "', which takes " +
                      std::to_string(signature.input_arg_size()),
                  AtNode(c));
    }
    std::string input_control;
    if (!control_inputs.empty()) {
      input_control = NewName("Func/" + c + "/input_control_node");
      tensorflow::NodeDef* noop = AddNode(input_control, "NoOp", call.device());
      for (const auto& input : control_inputs) noop->add_input(input);
    }
    std::map<std::string, std::string> arguments;
    for (int k = 0; k < signature.input_arg_size(); ++k) {
      const auto& arg = signature.input_arg(k);
      std::string name = NewName("Func/" + c + "/input");
      tensorflow::NodeDef* identity = AddNode(name, "Identity", call.device());
      identity->add_input(data_inputs[k]);
      if (!input_control.empty()) identity->add_input("^" + input_control);
      SetType(identity, arg.type());
      arguments[arg.name()] = name;
    }
    // `function` lives in the graph's library, which appending nodes leaves where it is.
    FunctionBodyCopy body = CopyFunctionBody(function, c + "/", arguments, call.device(),
                                             input_control, registry_, graph_->library(), graph_);
    Inlined& done = inlined_[c];
    done.device = call.device();
    done.control_outputs = body.control_outputs;
    for (int k = 0; k < signature.output_arg_size(); ++k) {
      std::string name = NewName("Func/" + c + "/output");
      tensorflow::NodeDef* identity = AddNode(name, "Identity", call.device());
      identity->add_input(body.outputs[k]);
      SetType(identity, signature.output_arg(k).type());
      done.outputs.push_back(name);
    }
    removed_.insert(c);
  }

  // The NoOp that waits for an inlined call's control outputs, made on first need.
  const std::string& OutputControl(const std::string& call) {
    Inlined& done = inlined_[call];
    if (done.output_control.empty()) {
      done.output_control = NewName("Func/" + call + "/output_control_node");
      tensorflow::NodeDef* noop = AddNode(done.output_control, "NoOp", done.device);
      for (const auto& node : done.control_outputs) noop->add_input("^" + node);
      pending_.push_back(graph_->node_size() - 1);
    }
    return done.output_control;
  }

  // An input after inlining: a call's output becomes its Identity, a wait on a call the wait
  // on its control NoOp.
  std::string Rewritten(const std::string& input) {
    std::string node;
    int index = 0;
    SplitGraphInput(input, &node, &index);
    auto found = inlined_.find(node);
    if (found == inlined_.end()) return input;
    if (index < 0) return "^" + OutputControl(node);
    if (static_cast<size_t>(index) >= found->second.outputs.size()) {
      throw Error(ErrorCode::kParseError,
                  "input '" + input + "' reads an output the called function does not have",
                  AtNode(node));
    }
    return found->second.outputs[index];
  }

  void RewireNode(int i) {
    tensorflow::NodeDef* node = graph_->mutable_node(i);
    for (auto& input : *node->mutable_input()) input = Rewritten(input);
  }

  void Rewire(std::vector<std::string>* fetches) {
    for (int i = 0; i < graph_->node_size(); ++i) {
      if (removed_.count(graph_->node(i).name()) == 0) RewireNode(i);
    }
    // Control NoOps made while rewiring may wait on calls themselves.
    while (!pending_.empty()) {
      int i = pending_.back();
      pending_.pop_back();
      RewireNode(i);
    }
    if (fetches != nullptr) {
      for (auto& fetch : *fetches) fetch = Rewritten(fetch);
      while (!pending_.empty()) {
        int i = pending_.back();
        pending_.pop_back();
        RewireNode(i);
      }
    }
    auto* nodes = graph_->mutable_node();
    int kept = 0;
    for (int i = 0; i < nodes->size(); ++i) {
      if (removed_.count(nodes->Get(i).name()) != 0) continue;
      if (kept != i) nodes->SwapElements(kept, i);
      ++kept;
    }
    nodes->DeleteSubrange(kept, nodes->size() - kept);
  }

  tensorflow::GraphDef* graph_;
  const OpRegistry& registry_;
  int counter_ = 0;
  std::map<std::string, Inlined> inlined_;
  std::set<std::string> removed_;
  std::vector<int> pending_;
  std::unordered_map<std::string, const tensorflow::FunctionDef*> functions_;
};

}  // namespace

const tensorflow::FunctionDef* CalledFunction(const tensorflow::NodeDef& node,
                                              const tensorflow::FunctionDefLibrary& library) {
  std::string name = CalleeName(node);
  if (name.empty()) return nullptr;
  for (const auto& function : library.function()) {
    if (function.signature().name() == name) return &function;
  }
  return nullptr;
}

int InlineCalls(tensorflow::GraphDef* graph, const OpRegistry& registry,
                std::vector<std::string>* fetches) {
  return Inliner(graph, registry).Run(fetches);
}

}  // namespace graphport::tf

#include "tf/freeze/table_initializer.h"

#include <deque>
#include <map>
#include <set>
#include <unordered_map>

#include "core/error.h"
#include "tf/freeze/function_body.h"
#include "tf/freeze/inline_calls.h"
#include "tf/freeze/node_location.h"
#include "tf/freeze/prune.h"
#include "tf/freeze/text_file_table.h"

namespace graphport::tf {
namespace {

using nlohmann::json;
using tensorflow::NodeDef;
using tensorflow::SavedObject;

// How a resource's initializer is made, or why it cannot be.
struct ResourcePlan {
  int object_id = -1;
  std::string creator;      // concrete function of _create_resource
  std::string initializer;  // concrete function of _initialize
  std::vector<int> bound;   // _initialize's captured objects, in argument order
  std::string why_not;      // empty when the plan can be built
};

// TensorFlow's unique names in a function graph: "base", then "base_1", "base_2", ...
std::string Numbered(const std::string& base, int n) {
  return n == 0 ? base : base + "_" + std::to_string(n);
}

std::string ConcreteFunctionOf(const tensorflow::SavedObjectGraph& objects, int id,
                               const std::string& child) {
  for (const auto& ref : objects.nodes(id).children()) {
    if (ref.local_name() != child) continue;
    if (ref.node_id() < 0 || ref.node_id() >= objects.nodes_size()) return "";
    const SavedObject& function = objects.nodes(ref.node_id());
    if (function.kind_case() == SavedObject::kFunction &&
        function.function().concrete_functions_size() > 0) {
      return function.function().concrete_functions(0);
    }
    if (function.kind_case() == SavedObject::kBareConcreteFunction) {
      return function.bare_concrete_function().concrete_function_name();
    }
  }
  return "";
}

// The TrackableResources of the object graph, breadth first from the root in children
// order, as TensorFlow's TrackableView lists the descendants.
std::vector<int> ResourcesInOrder(const tensorflow::SavedObjectGraph& objects) {
  std::vector<int> resources;
  if (objects.nodes_size() == 0) return resources;
  std::vector<bool> seen(objects.nodes_size(), false);
  std::deque<int> queue = {0};
  seen[0] = true;
  while (!queue.empty()) {
    int id = queue.front();
    queue.pop_front();
    if (objects.nodes(id).kind_case() == SavedObject::kResource) resources.push_back(id);
    for (const auto& ref : objects.nodes(id).children()) {
      int child = ref.node_id();
      if (child < 0 || child >= objects.nodes_size() || seen[child]) continue;
      seen[child] = true;
      queue.push_back(child);
    }
  }
  return resources;
}

ResourcePlan PlanResource(const tensorflow::SavedObjectGraph& objects, int id) {
  ResourcePlan plan;
  plan.object_id = id;
  plan.creator = ConcreteFunctionOf(objects, id, "_create_resource");
  plan.initializer = ConcreteFunctionOf(objects, id, "_initialize");
  if (plan.creator.empty() || plan.initializer.empty()) {
    plan.why_not = "it has no saved _create_resource or _initialize function";
    return plan;
  }
  auto concrete = objects.concrete_functions().find(plan.initializer);
  if (concrete != objects.concrete_functions().end()) {
    plan.bound.assign(concrete->second.bound_inputs().begin(),
                      concrete->second.bound_inputs().end());
  }
  // The converter keeps a resource only when its _initialize captures the resource itself.
  bool fills_itself = false;
  for (int bound : plan.bound) fills_itself = fills_itself || bound == id;
  if (!fills_itself) {
    plan.why_not =
        "its _initialize function '" + plan.initializer + "' fills another resource, not this one";
  }
  return plan;
}

const NodeDef* FindNode(const tensorflow::GraphDef& graph, const std::string& name) {
  for (const auto& node : graph.node()) {
    if (node.name() == name) return &node;
  }
  return nullptr;
}

// The node an input reaches once Identities are passed.
const NodeDef* Source(const std::unordered_map<std::string, const NodeDef*>& nodes,
                      const std::string& input) {
  std::string name;
  int index = 0;
  SplitGraphInput(input, &name, &index);
  for (int hops = 0; hops < 64; ++hops) {
    auto it = nodes.find(name);
    if (it == nodes.end()) return nullptr;
    if (it->second->op() != "Identity" || it->second->input_size() == 0) return it->second;
    SplitGraphInput(it->second->input(0), &name, &index);
  }
  return nullptr;
}

const tensorflow::AttrValue* Attr(const NodeDef& node, const OpRegistry& registry,
                                  const std::string& name) {
  auto it = node.attr().find(name);
  if (it != node.attr().end()) return &it->second;
  OpRegistry::Found found = registry.Find(node.op());
  if (found.op == nullptr) return nullptr;
  for (const auto& attr : found.op->attr()) {
    if (attr.name() == name && attr.has_default_value()) return &attr.default_value();
  }
  return nullptr;
}

class InitializerBuilder {
 public:
  InitializerBuilder(const tensorflow::MetaGraphDef& meta_graph, const tensorflow::GraphDef& graph,
                     const OpRegistry& registry, const AssetReader& read_asset)
      : meta_graph_(meta_graph),
        objects_(meta_graph.object_graph_def()),
        top_graph_(graph),
        registry_(registry),
        read_asset_(read_asset) {}

  TableInitializer Build(const std::vector<ResourceCapture>& captures) {
    TableInitializer result;
    result.report = {{"tables", json::array()}, {"resourcesLeftOut", json::array()}};
    std::vector<ResourcePlan> plans;
    std::map<int, std::string> left_out;  // object id -> why
    for (int id : ResourcesInOrder(objects_)) {
      ResourcePlan plan = PlanResource(objects_, id);
      if (plan.why_not.empty()) {
        plans.push_back(std::move(plan));
      } else {
        left_out[id] = plan.why_not;
        result.report["resourcesLeftOut"].push_back({{"object", id}, {"why", plan.why_not}});
      }
    }
    tensorflow::GraphDef& graph = result.graph;
    *graph.mutable_library() = top_graph_.library();
    *graph.mutable_versions() = top_graph_.versions();
    std::vector<ResourcePlan> built;
    std::vector<std::string> init_calls;
    for (const ResourcePlan& plan : plans) {
      int k = static_cast<int>(built.size());
      std::string create = Numbered("StatefulPartitionedCall", 2 * k);
      std::string init = Numbered("StatefulPartitionedCall", 2 * k + 1);
      std::vector<std::string> arguments;
      try {
        arguments = InitializerArguments(plan, create, captures, &graph);
      } catch (const Error& e) {
        // A resource the signature reads must be built; another one is left out.
        for (const ResourceCapture& capture : captures) {
          if (capture.object_id == plan.object_id) throw;
        }
        left_out[plan.object_id] = e.what();
        result.report["resourcesLeftOut"].push_back(
            {{"object", plan.object_id}, {"why", e.what()}});
        continue;
      }
      AddCall(create, plan.creator, {}, &graph);
      AddCall(init, plan.initializer, arguments, &graph);
      init_calls.push_back(init);
      init_plans_[init] = plan.object_id;
      built.push_back(plan);
    }
    // A captured resource must be among them: its table is what the graph reads.
    std::set<int> kept;
    for (const ResourcePlan& plan : built) kept.insert(plan.object_id);
    for (const ResourceCapture& capture : captures) {
      if (kept.count(capture.object_id) != 0) continue;
      auto why = left_out.find(capture.object_id);
      Refuse(capture, why != left_out.end() ? why->second
                                            : "the object graph does not reach it from its root");
    }
    if (built.empty()) return TableInitializer{{}, {}, result.report};
    plans = std::move(built);
    std::vector<std::string> outputs;
    for (size_t k = 0; k < plans.size(); ++k) {
      outputs.push_back(Numbered("Identity", static_cast<int>(k)));
    }
    // The function's returns wait for every stateful call, as TensorFlow's automatic control
    // dependencies make them: the init ops run before a handle is handed out.
    for (size_t k = 0; k < plans.size(); ++k) {
      NodeDef* identity = graph.add_node();
      identity->set_name(outputs[k]);
      identity->set_op("Identity");
      identity->add_input(Numbered("StatefulPartitionedCall", 2 * static_cast<int>(k)));
      for (const std::string& init : init_calls) identity->add_input("^" + init);
      (*identity->mutable_attr())["T"].set_type(tensorflow::DT_RESOURCE);
    }
    std::vector<std::string> fetches = outputs;
    InlineCalls(&graph, registry_, &fetches);
    json filled = FillTextFileTables(&graph, captures);
    PruneToOutputs(&graph, outputs);

    for (size_t k = 0; k < plans.size(); ++k) {
      json table = {{"object", plans[k].object_id},       {"output", outputs[k] + ":0"},
                    {"resourceId", plans[k].object_id},   {"createResource", plans[k].creator},
                    {"initialize", plans[k].initializer}, {"input", nullptr}};
      for (const ResourceCapture& capture : captures) {
        if (capture.object_id != plans[k].object_id) continue;
        table["input"] = capture.placeholder;
        // No signature key: the link is keyed "<placeholder>:0", as tfjs-converter keys it.
        result.links.push_back(
            {capture.placeholder, outputs[k] + ":0", capture.object_id, /*signature_key=*/""});
      }
      result.report["tables"].push_back(std::move(table));
    }
    result.report["fromTextFiles"] = std::move(filled);
    result.report["initializerNodes"] = graph.node_size();
    return result;
  }

 private:
  [[noreturn]] void Refuse(const ResourceCapture& capture, const std::string& why) {
    throw Error(ErrorCode::kUnsupported,
                "the signature's function captures '" + capture.placeholder +
                    "', a resource (object " + std::to_string(capture.object_id) +
                    " of the object graph, a lookup table or another TrackableResource), " +
                    "whose initializer graph (TF.js modelInitializer) cannot be built: " + why,
                AtNode(capture.placeholder));
  }

  [[noreturn]] void RefusePlan(const ResourcePlan& plan,
                               const std::vector<ResourceCapture>& captures,
                               const std::string& why) {
    for (const ResourceCapture& capture : captures) {
      if (capture.object_id == plan.object_id) Refuse(capture, why);
    }
    throw Error(ErrorCode::kUnsupported,
                "the model's resource (object " + std::to_string(plan.object_id) +
                    " of the object graph) has an initializer graph (TF.js modelInitializer) "
                    "that cannot be built: " +
                    why,
                AtNode(plan.initializer));
  }

  static void AddCall(const std::string& name, const std::string& function,
                      const std::vector<std::string>& inputs, tensorflow::GraphDef* graph) {
    NodeDef* call = graph->add_node();
    call->set_name(name);
    call->set_op("StatefulPartitionedCall");
    for (const std::string& input : inputs) call->add_input(input);
    (*call->mutable_attr())["f"].mutable_func()->set_name(function);
  }

  // The graph tensors bound to _initialize's arguments: the new resource for its own handle,
  // a string Const for an asset's path (the file it names is read later), a captured
  // constant's value.
  std::vector<std::string> InitializerArguments(const ResourcePlan& plan, const std::string& create,
                                                const std::vector<ResourceCapture>& captures,
                                                tensorflow::GraphDef* graph) {
    const tensorflow::FunctionDef* function = nullptr;
    for (const auto& f : top_graph_.library().function()) {
      if (f.signature().name() == plan.initializer) function = &f;
    }
    if (function == nullptr) {
      RefusePlan(plan, captures,
                 "its _initialize function '" + plan.initializer + "' is not in the library");
    }
    int args = function->signature().input_arg_size();
    if (args != static_cast<int>(plan.bound.size())) {
      RefusePlan(plan, captures,
                 "its _initialize function '" + plan.initializer + "' takes " +
                     std::to_string(args) + " arguments but the object graph binds " +
                     std::to_string(plan.bound.size()));
    }
    std::vector<std::string> inputs;
    for (int bound : plan.bound) {
      if (bound == plan.object_id) {
        inputs.push_back(create);
        continue;
      }
      if (bound < 0 || bound >= objects_.nodes_size()) {
        RefusePlan(plan, captures,
                   "its _initialize binds object " + std::to_string(bound) +
                       ", past the object graph's end");
      }
      const SavedObject& object = objects_.nodes(bound);
      tensorflow::TensorProto value;
      value.set_dtype(tensorflow::DT_STRING);
      value.mutable_tensor_shape();
      if (object.kind_case() == SavedObject::kAsset) {
        int index = object.asset().asset_file_def_index();
        if (index < 0 || index >= meta_graph_.asset_file_def_size()) {
          RefusePlan(plan, captures,
                     "its asset (object " + std::to_string(bound) + ") names asset_file_def " +
                         std::to_string(index) + ", which the MetaGraphDef lacks");
        }
        value.add_string_val(meta_graph_.asset_file_def(index).filename());
      } else if (object.kind_case() == SavedObject::kConstant) {
        const NodeDef* constant = FindNode(top_graph_, object.constant().operation());
        if (constant == nullptr || constant->op() != "Const" ||
            constant->attr().count("value") == 0) {
          RefusePlan(plan, captures,
                     "its _initialize reads the constant '" + object.constant().operation() +
                         "', which the graph does not hold");
        }
        value = constant->attr().at("value").tensor();
      } else {
        RefusePlan(plan, captures,
                   "its _initialize reads object " + std::to_string(bound) +
                       ", which is no asset, constant or the resource itself");
      }
      // A captured value is a Placeholder that the freeze makes a Const, named as the
      // function graph names captures.
      std::string name = captured_ == 0 ? "unknown" : "unknown_" + std::to_string(captured_ - 1);
      ++captured_;
      NodeDef* node = graph->add_node();
      node->set_name(name);
      node->set_op("Const");
      (*node->mutable_attr())["dtype"].set_type(value.dtype());
      if (object.kind_case() == SavedObject::kAsset) asset_consts_[name] = value.string_val(0);
      *(*node->mutable_attr())["value"].mutable_tensor() = std::move(value);
      inputs.push_back(name);
    }
    return inputs;
  }

  // Each InitializeTableFromTextFileV2 reading an asset becomes a LookupTableImportV2 of the
  // file's keys and values.
  json FillTextFileTables(tensorflow::GraphDef* graph,
                          const std::vector<ResourceCapture>& captures) {
    json filled = json::array();
    std::unordered_map<std::string, const NodeDef*> nodes;
    for (const auto& node : graph->node()) nodes.emplace(node.name(), &node);
    std::vector<NodeDef> added;
    for (int i = 0; i < graph->node_size(); ++i) {
      NodeDef* node = graph->mutable_node(i);
      if (node->op() != "InitializeTableFromTextFileV2") continue;
      const std::string name = node->name();
      auto refuse = [&](const std::string& why) {
        // The call that was inlined names the resource: "StatefulPartitionedCall_<2k+1>/...".
        auto plan = init_plans_.find(name.substr(0, name.find('/')));
        std::string what = "table initializer '" + name + "'";
        if (plan != init_plans_.end()) {
          for (const ResourceCapture& capture : captures) {
            if (capture.object_id == plan->second) what += " of '" + capture.placeholder + "'";
          }
          what += " (resource object " + std::to_string(plan->second) + ")";
        }
        throw Error(ErrorCode::kUnsupported,
                    what + " reads a text file graphport cannot fill the table from: " + why,
                    AtNode(name));
      };
      if (node->input_size() < 2) refuse("it has fewer than 2 inputs");
      const NodeDef* table = Source(nodes, node->input(0));
      const NodeDef* filename = Source(nodes, node->input(1));
      if (table == nullptr || table->op() != "HashTableV2") {
        refuse("it fills no HashTableV2 (TF.js has only hash tables)");
      }
      if (filename == nullptr || asset_consts_.count(filename->name()) == 0) {
        refuse("its file name is not an asset of the SavedModel");
      }
      const std::string& asset = asset_consts_[filename->name()];
      std::string bytes, label;
      if (!read_asset_(asset, &bytes, &label)) {
        refuse("the asset file '" + asset +
               "' was not given (the SavedModel folder's assets/ holds it)");
      }
      TextFileTableSpec spec;
      const tensorflow::AttrValue* key_dtype = Attr(*table, registry_, "key_dtype");
      const tensorflow::AttrValue* value_dtype = Attr(*table, registry_, "value_dtype");
      if (key_dtype == nullptr || value_dtype == nullptr) {
        refuse("its table '" + table->name() + "' has no key_dtype or value_dtype");
      }
      spec.key_dtype = key_dtype->type();
      spec.value_dtype = value_dtype->type();
      auto integer = [&](const char* attr, int64_t fallback) {
        const tensorflow::AttrValue* value = Attr(*node, registry_, attr);
        return value != nullptr ? value->i() : fallback;
      };
      spec.key_index = integer("key_index", kTextFileWholeLine);
      spec.value_index = integer("value_index", kTextFileLineNumber);
      spec.vocab_size = integer("vocab_size", -1);
      spec.offset = integer("offset", 0);
      const tensorflow::AttrValue* delimiter = Attr(*node, registry_, "delimiter");
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
      node->set_op("LookupTableImportV2");
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
                        {"madeOp", "LookupTableImportV2"}});
    }
    for (auto& node : added) *graph->add_node() = std::move(node);
    return filled;
  }

  const tensorflow::MetaGraphDef& meta_graph_;
  const tensorflow::SavedObjectGraph& objects_;
  const tensorflow::GraphDef& top_graph_;
  const OpRegistry& registry_;
  const AssetReader& read_asset_;
  int captured_ = 0;
  std::map<std::string, int> init_plans_;            // _initialize call -> resource object
  std::map<std::string, std::string> asset_consts_;  // Const name -> asset filename
};

}  // namespace

TableInitializer BuildTableInitializer(const tensorflow::MetaGraphDef& meta_graph,
                                       const tensorflow::GraphDef& graph,
                                       const std::vector<ResourceCapture>& captures,
                                       const OpRegistry& registry, const AssetReader& read_asset) {
  return InitializerBuilder(meta_graph, graph, registry, read_asset).Build(captures);
}

}  // namespace graphport::tf

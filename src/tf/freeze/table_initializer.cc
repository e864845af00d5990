#include "tf/freeze/table_initializer.h"

#include <deque>
#include <map>
#include <set>

#include "core/error.h"
#include "tf/freeze/function_body.h"
#include "tf/freeze/inline_calls.h"
#include "tf/freeze/node_location.h"
#include "tf/freeze/prune.h"
#include "tf/freeze/text_file_initializers.h"
#include "tf/optimize/graph_edit.h"

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
    json filled = FillTextFileTables(&graph, TextFilesContext(captures));
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
  // A text file initializer is named with the resource it fills: the call that was inlined
  // names it, "StatefulPartitionedCall_<2k+1>/...".
  TextFileTablesContext TextFilesContext(const std::vector<ResourceCapture>& captures) const {
    TextFileTablesContext context;
    context.asset_nodes = asset_consts_;
    context.registry = &registry_;
    context.read_asset = read_asset_;
    context.describe = [this, &captures](const std::string& name) {
      std::string what = "table initializer '" + name + "'";
      auto plan = init_plans_.find(name.substr(0, name.find('/')));
      if (plan != init_plans_.end()) {
        for (const ResourceCapture& capture : captures) {
          if (capture.object_id == plan->second) what += " of '" + capture.placeholder + "'";
        }
        what += " (resource object " + std::to_string(plan->second) + ")";
      }
      return what;
    };
    return context;
  }

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

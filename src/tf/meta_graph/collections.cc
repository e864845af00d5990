#include "tf/meta_graph/collections.h"

#include <functional>
#include <map>

#include "tensorflow/control_flow.pb.h"
#include "tensorflow/queue_runner.pb.h"
#include "tensorflow/variable.pb.h"

namespace graphport::tf {
namespace {

using google::protobuf::RepeatedPtrField;

void StripAll(const Scope& scope, RepeatedPtrField<std::string>* names) {
  for (auto& name : *names) name = scope.Strip(name);
}

// Variable.to_proto(export_scope).
bool ScopeVariable(tensorflow::VariableDef* v, const Scope& scope) {
  if (!scope.Contains(v->variable_name())) return false;
  v->set_variable_name(scope.Strip(v->variable_name()));
  v->set_initial_value_name(scope.Strip(v->initial_value_name()));
  v->set_initializer_name(scope.Strip(v->initializer_name()));
  v->set_snapshot_name(scope.Strip(v->snapshot_name()));
  if (v->has_save_slice_info_def()) {
    auto* slice = v->mutable_save_slice_info_def();
    slice->set_full_name(scope.Strip(slice->full_name()));
  }
  return true;
}

// QueueRunner.to_proto(export_scope).
bool ScopeQueueRunner(tensorflow::QueueRunnerDef* q, const Scope& scope) {
  if (!scope.Contains(q->queue_name())) return false;
  q->set_queue_name(scope.Strip(q->queue_name()));
  StripAll(scope, q->mutable_enqueue_op_name());
  q->set_close_op_name(scope.Strip(q->close_op_name()));
  q->set_cancel_op_name(scope.Strip(q->cancel_op_name()));
  return true;
}

void ScopeValues(tensorflow::ValuesDef* values, const Scope& scope) {
  StripAll(scope, values->mutable_values());
  google::protobuf::Map<std::string, std::string> external;
  for (const auto& [key, value] : values->external_values()) {
    external[scope.Strip(key)] = scope.Strip(value);
  }
  *values->mutable_external_values() = external;
}

bool ScopeWhileContext(tensorflow::WhileContextDef* c, const Scope& scope);

bool ScopeCondContext(tensorflow::CondContextDef* c, const Scope& scope);

void ScopeNested(RepeatedPtrField<tensorflow::ControlFlowContextDef>* nested, const Scope& scope) {
  for (auto& context : *nested) {
    if (context.has_cond_ctxt()) ScopeCondContext(context.mutable_cond_ctxt(), scope);
    if (context.has_while_ctxt()) ScopeWhileContext(context.mutable_while_ctxt(), scope);
  }
}

// CondContext.to_proto(export_scope).
bool ScopeCondContext(tensorflow::CondContextDef* c, const Scope& scope) {
  if (!scope.Contains(c->context_name())) return false;
  c->set_context_name(scope.Strip(c->context_name()));
  c->set_pred_name(scope.Strip(c->pred_name()));
  c->set_pivot_name(scope.Strip(c->pivot_name()));
  if (c->has_values_def()) ScopeValues(c->mutable_values_def(), scope);
  ScopeNested(c->mutable_nested_contexts(), scope);
  return true;
}

// WhileContext.to_proto(export_scope).
bool ScopeWhileContext(tensorflow::WhileContextDef* c, const Scope& scope) {
  if (!scope.Contains(c->context_name())) return false;
  c->set_context_name(scope.Strip(c->context_name()));
  c->set_pivot_name(scope.Strip(c->pivot_name()));
  c->set_pivot_for_pred_name(scope.Strip(c->pivot_for_pred_name()));
  c->set_pivot_for_body_name(scope.Strip(c->pivot_for_body_name()));
  StripAll(scope, c->mutable_loop_exit_names());
  StripAll(scope, c->mutable_loop_enter_names());
  if (!c->maximum_iterations_name().empty()) {
    c->set_maximum_iterations_name(scope.Strip(c->maximum_iterations_name()));
  }
  if (c->has_values_def()) ScopeValues(c->mutable_values_def(), scope);
  ScopeNested(c->mutable_nested_contexts(), scope);
  return true;
}

// Decodes one bytes_list entry as `Proto`, scopes it, encodes it again. A value that does not
// parse is kept as it is: graphport cannot scope what it cannot read, and dropping user data
// silently would be worse.
template <typename Proto>
std::function<bool(const std::string&, std::string*)> ProtoScoper(bool (*scope_fn)(Proto*,
                                                                                   const Scope&),
                                                                  const Scope& scope) {
  return [scope_fn, &scope](const std::string& in, std::string* out) {
    Proto proto;
    if (!proto.ParseFromString(in)) {
      *out = in;
      return true;
    }
    if (!scope_fn(&proto, scope)) return false;
    proto.SerializeToString(out);
    return true;
  };
}

bool ScopeSaverInPlace(tensorflow::SaverDef* saver, const Scope& scope) {
  tensorflow::SaverDef scoped;
  if (!ScopeSaverDef(*saver, scope, &scoped)) return false;
  *saver = scoped;
  return true;
}

// The collection keys TensorFlow registers a proto type for (register_proto_function).
std::function<bool(const std::string&, std::string*)> ScoperFor(const std::string& key,
                                                                const Scope& scope) {
  static const std::set<std::string> kVariableKeys = {
      "variables",       "trainable_variables",      "local_variables",
      "model_variables", "moving_average_variables", "metric_variables"};
  if (kVariableKeys.count(key)) return ProtoScoper<tensorflow::VariableDef>(&ScopeVariable, scope);
  if (key == "savers") return ProtoScoper<tensorflow::SaverDef>(&ScopeSaverInPlace, scope);
  if (key == "queue_runners")
    return ProtoScoper<tensorflow::QueueRunnerDef>(&ScopeQueueRunner, scope);
  if (key == "cond_context")
    return ProtoScoper<tensorflow::CondContextDef>(&ScopeCondContext, scope);
  if (key == "while_context") {
    return ProtoScoper<tensorflow::WhileContextDef>(&ScopeWhileContext, scope);
  }
  return nullptr;
}

// Strings in collections are node or tensor names to TensorFlow's filter.
bool NameKept(const std::string& name, const CollectionRules& rules) {
  if (rules.excluded->count(name)) return false;
  return rules.scope->Contains(name) ||
         name.compare(0, kUnboundInputPrefix.size(), kUnboundInputPrefix) == 0;
}

}  // namespace

bool ScopeSaverDef(const tensorflow::SaverDef& in, const Scope& scope, tensorflow::SaverDef* out) {
  if (!scope.Contains(in.filename_tensor_name()) || !scope.Contains(in.save_tensor_name()) ||
      !scope.Contains(in.restore_op_name())) {
    return false;
  }
  *out = in;
  out->set_filename_tensor_name(scope.Strip(in.filename_tensor_name()));
  out->set_save_tensor_name(scope.Strip(in.save_tensor_name()));
  out->set_restore_op_name(scope.Strip(in.restore_op_name()));
  return true;
}

bool ExportCollection(const std::string& key, const tensorflow::CollectionDef& in,
                      const CollectionRules& rules, tensorflow::CollectionDef* out) {
  const Scope& scope = *rules.scope;
  bool filtering = !scope.empty() || !rules.excluded->empty();
  if (!filtering) {
    *out = in;  // nothing to change: keep the entries byte for byte
    return true;
  }
  switch (in.kind_case()) {
    case tensorflow::CollectionDef::kNodeList:
      for (const auto& name : in.node_list().value()) {
        if (NameKept(name, rules)) out->mutable_node_list()->add_value(scope.Strip(name));
      }
      return out->node_list().value_size() > 0;
    case tensorflow::CollectionDef::kBytesList: {
      auto scoper = ScoperFor(key, scope);
      for (const auto& value : in.bytes_list().value()) {
        std::string scoped;
        if (scoper) {
          // Proto-typed entries carry their own names; only the scope decides.
          if (scope.empty()) {
            scoped = value;
          } else if (!scoper(value, &scoped)) {
            continue;
          }
        } else {
          // Plain strings are kept or dropped as node names, but not stripped (TensorFlow).
          if (!NameKept(value, rules)) continue;
          scoped = value;
        }
        out->mutable_bytes_list()->add_value(std::move(scoped));
      }
      return out->bytes_list().value_size() > 0;
    }
    case tensorflow::CollectionDef::kInt64List:
    case tensorflow::CollectionDef::kFloatList:
    case tensorflow::CollectionDef::kAnyList:
      // Numbers and Any values have no name, so TensorFlow's filter always keeps them.
      *out = in;
      return true;
    default:
      return false;
  }
}

}  // namespace graphport::tf

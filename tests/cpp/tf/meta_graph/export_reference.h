// TensorFlow's export rules (tensorflow.md §1), written out independently of src/, for the
// end-to-end export tests (export_*_test.cc): what an export with given options must hold.
#ifndef GRAPHPORT_TESTS_CPP_TF_META_GRAPH_EXPORT_REFERENCE_H_
#define GRAPHPORT_TESTS_CPP_TF_META_GRAPH_EXPORT_REFERENCE_H_

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/text_format.h>
#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "api/model.h"
#include "core/byte_stream.h"
#include "core/error.h"
#include "core/option_schema.h"
#include "core/output_set.h"
#include "meta_graph_test_util.h"
#include "tensorflow/control_flow.pb.h"
#include "tensorflow/graph_debug_info.pb.h"
#include "tensorflow/saved_model.pb.h"
#include "tensorflow/variable.pb.h"
#include "test_util.h"
#include "tf/export.h"
#include "tf/meta_graph/builtin_op_defaults.h"
#include "tf/meta_graph/export_meta_graph.h"
#include "tf/tf_model.h"
#include "tf_test_graphs.h"

namespace graphport::tf::export_test {

using mgtest::MessagesEqual;
using mgtest::Text;
using mgtest::ToVector;
using nlohmann::json;
using Strings = std::vector<std::string>;

constexpr std::string_view kUnbound = "$unbound_inputs_";

// ---------------------------------------------------------------------------------------------
// TensorFlow's export rules (tensorflow.md §1.4-1.8, the graph_def path), with graphport's
// documented corrections (README "Differences from TensorFlow"): scope membership by whole
// path component, each unbound input listed once, SaveSlices recognised, every function-valued
// attr followed. Written from the notes, not from src/.
namespace ref {

inline bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// Node name of a node, tensor, control-input or colocation name.
inline std::string_view BareName(std::string_view name) {
  if (StartsWith(name, "^"))
    name.remove_prefix(1);
  else if (StartsWith(name, "loc:@"))
    name.remove_prefix(5);
  size_t colon = name.find(':');
  return colon == std::string_view::npos ? name : name.substr(0, colon);
}

inline bool InScope(std::string_view name, const std::string& scope) {
  if (scope.empty()) return true;
  std::string_view bare = BareName(name);
  return bare == scope || StartsWith(bare, scope + "/");
}

// ops.strip_name_scope: (^|"^"|"loc:@") scope "/+" rest -> prefix rest.
inline std::string Strip(const std::string& name, const std::string& scope) {
  if (scope.empty()) return name;
  std::string marker = StartsWith(name, "^") ? "^" : StartsWith(name, "loc:@") ? "loc:@" : "";
  std::string rest = name.substr(marker.size());
  if (!StartsWith(rest, scope + "/")) return name;
  size_t i = scope.size();
  while (i < rest.size() && rest[i] == '/') ++i;
  return marker + rest.substr(i);
}

// _should_include_node for names.
inline bool NameKept(const std::string& name, const std::string& scope) {
  return StartsWith(name, kUnbound) || InScope(name, scope);
}

inline std::string ScopeOf(std::string_view name) {
  size_t slash = name.rfind('/');
  return slash == std::string_view::npos ? "" : std::string(name.substr(0, slash));
}

// _find_extraneous_saver_nodes (with SaveSlices for SaveSlice).
inline std::set<std::string> ExtraneousSaverNodes(const tensorflow::GraphDef& g,
                                                  const tensorflow::SaverDef* saver) {
  static const std::set<std::string> kOps = {
      "SaveV2",    "Save",    "SaveSlices",   "LegacySave",    "LegacySaveSlice",
      "RestoreV2", "Restore", "RestoreSlice", "LegacyRestore", "LegacyRestoreSlice"};
  std::set<std::string> saver_ops, scopes;
  for (const auto& n : g.node()) {
    if (kOps.count(n.op())) saver_ops.insert(n.name());
  }
  for (const auto& name : saver_ops) {
    std::string s = ScopeOf(name);
    if (!saver_ops.count(s)) scopes.insert(s + "/");
  }
  if (saver != nullptr) {
    scopes.erase(ScopeOf(BareName(saver->save_tensor_name())) + "/");
    scopes.erase(ScopeOf(BareName(saver->restore_op_name())) + "/");
  }
  std::set<std::string> out;
  for (const auto& n : g.node()) {
    for (const auto& s : scopes) {
      if (StartsWith(n.name(), s)) out.insert(n.name());
    }
  }
  return out;
}

// _node_def.
inline tensorflow::NodeDef RewriteNode(const tensorflow::NodeDef& in, const std::string& scope,
                                       bool clear_devices, Strings* unbound) {
  tensorflow::NodeDef out = in;
  out.set_name(Strip(in.name(), scope));
  out.clear_input();
  for (const auto& input : in.input()) {
    if (!scope.empty() && !InScope(input, scope)) {
      bool control = StartsWith(input, "^");
      std::string renamed =
          (control ? "^" : "") + std::string(kUnbound) + input.substr(control ? 1 : 0);
      unbound->push_back(renamed);
      out.add_input(renamed);
    } else {
      out.add_input(Strip(input, scope));
    }
  }
  if (!scope.empty() && in.attr().count("_class")) {
    tensorflow::AttrValue cls;
    cls.mutable_list();
    for (const auto& s : in.attr().at("_class").list().s()) {
      size_t at = s.find('@');
      if (InScope(at == std::string::npos ? s : s.substr(at + 1), scope))
        cls.mutable_list()->add_s(Strip(s, scope));
    }
    (*out.mutable_attr())["_class"] = cls;
  }
  if (!scope.empty() && (in.op() == "Enter" || in.op() == "RefEnter") &&
      in.attr().count("frame_name")) {
    const std::string& frame = in.attr().at("frame_name").s();
    if (InScope(frame, scope)) (*out.mutable_attr())["frame_name"].set_s(Strip(frame, scope));
  }
  if (clear_devices) out.clear_device();
  return out;
}

inline std::string Bytes(const google::protobuf::MessageLite& m) {
  return graphport::testing::DeterministicBytes(m);
}

inline const tensorflow::OpDef* FindOp(const std::vector<const tensorflow::OpList*>& layers,
                                       const std::string& name) {
  for (const auto* layer : layers) {
    if (const auto* op = mgtest::FindOp(*layer, name)) return op;
  }
  return nullptr;
}

inline std::set<std::string> FunctionNames(const tensorflow::GraphDef& g) {
  std::set<std::string> names;
  for (const auto& f : g.library().function()) names.insert(f.signature().name());
  return names;
}

// strip_graph_default_valued_attrs; the first layer knowing the op decides.
inline void StripDefaults(tensorflow::GraphDef* g,
                          const std::vector<const tensorflow::OpList*>& layers) {
  std::set<std::string> functions = FunctionNames(*g);
  auto strip = [&](tensorflow::NodeDef* node) {
    if (functions.count(node->op())) return;
    const tensorflow::OpDef* op = FindOp(layers, node->op());
    if (op == nullptr) return;
    Strings doomed;
    for (const auto& [key, value] : node->attr()) {
      const auto* def = mgtest::FindAttr(*op, key);
      if (key[0] != '_' && def && def->has_default_value() &&
          Bytes(value) == Bytes(def->default_value())) {
        doomed.push_back(key);
      }
    }
    for (const auto& key : doomed) node->mutable_attr()->erase(key);
  };
  for (auto& node : *g->mutable_node()) strip(&node);
  if (!g->has_library()) return;  // reading an absent library in Python does not create one
  for (auto& f : *g->mutable_library()->mutable_function()) {
    for (auto& node : *f.mutable_node_def()) strip(&node);
  }
}

inline void FunctionRefs(const tensorflow::AttrValue& v, Strings* out) {
  if (v.has_func()) {
    out->push_back(v.func().name());
    for (const auto& [k, nested] : v.func().attr()) FunctionRefs(nested, out);
  }
  for (const auto& f : v.list().func()) {
    out->push_back(f.name());
    for (const auto& [k, nested] : f.attr()) FunctionRefs(nested, out);
  }
}

// ops_used_by_graph_def, following function calls and function-valued attrs.
inline std::set<std::string> OpsUsed(const tensorflow::GraphDef& g) {
  std::map<std::string, const tensorflow::FunctionDef*> functions;
  for (const auto& f : g.library().function()) functions[f.signature().name()] = &f;
  std::set<std::string> ops, seen;
  std::vector<const tensorflow::FunctionDef*> todo;
  auto visit = [&](const tensorflow::NodeDef& n) {
    Strings refs;
    if (functions.count(n.op()))
      refs.push_back(n.op());
    else
      ops.insert(n.op());
    for (const auto& [k, v] : n.attr()) FunctionRefs(v, &refs);
    for (const auto& r : refs) {
      if (functions.count(r) && seen.insert(r).second) todo.push_back(functions[r]);
    }
  };
  for (const auto& n : g.node()) visit(n);
  while (!todo.empty()) {
    const auto* f = todo.back();
    todo.pop_back();
    for (const auto& n : f->node_def()) visit(n);
  }
  return ops;
}

inline tensorflow::OpList StrippedOpList(const tensorflow::GraphDef& g,
                                         const std::vector<const tensorflow::OpList*>& layers) {
  tensorflow::OpList out;
  for (const auto& name : OpsUsed(g)) {  // std::set: sorted by code point
    if (name == "_Arg" || name == "_Retval" || name == "_ListToArray" || name == "_ArrayToList")
      continue;
    if (const auto* op = FindOp(layers, name)) {
      tensorflow::OpDef* copy = out.add_op();
      *copy = *op;
      copy->clear_summary();
      copy->clear_description();
      for (auto& a : *copy->mutable_input_arg()) a.clear_description();
      for (auto& a : *copy->mutable_output_arg()) a.clear_description();
      for (auto& a : *copy->mutable_attr()) a.clear_description();
    }
  }
  return out;
}

inline void StripAll(google::protobuf::RepeatedPtrField<std::string>* names,
                     const std::string& scope) {
  for (auto& n : *names) n = Strip(n, scope);
}

// ControlFlowContext._to_values_def.
inline void ScopeValues(tensorflow::ValuesDef* v, const std::string& scope) {
  StripAll(v->mutable_values(), scope);
  google::protobuf::Map<std::string, std::string> external;
  for (const auto& [k, x] : v->external_values()) external[Strip(k, scope)] = Strip(x, scope);
  *v->mutable_external_values() = external;
}

bool ScopeWhile(tensorflow::WhileContextDef* c, const std::string& scope);

// CondContext.to_proto(export_scope). Nested contexts are scoped too: TensorFlow's importer
// prefixes them with import_scope, so they must have been stripped (collections_test.cc).
inline bool ScopeCond(tensorflow::CondContextDef* c, const std::string& scope) {
  if (!InScope(c->context_name(), scope)) return false;
  c->set_context_name(Strip(c->context_name(), scope));
  c->set_pred_name(Strip(c->pred_name(), scope));
  c->set_pivot_name(Strip(c->pivot_name(), scope));
  if (c->has_values_def()) ScopeValues(c->mutable_values_def(), scope);
  for (auto& n : *c->mutable_nested_contexts()) {
    if (n.has_cond_ctxt()) ScopeCond(n.mutable_cond_ctxt(), scope);
    if (n.has_while_ctxt()) ScopeWhile(n.mutable_while_ctxt(), scope);
  }
  return true;
}

// WhileContext.to_proto(export_scope).
inline bool ScopeWhile(tensorflow::WhileContextDef* c, const std::string& scope) {
  if (!InScope(c->context_name(), scope)) return false;
  c->set_context_name(Strip(c->context_name(), scope));
  c->set_pivot_name(Strip(c->pivot_name(), scope));
  c->set_pivot_for_pred_name(Strip(c->pivot_for_pred_name(), scope));
  c->set_pivot_for_body_name(Strip(c->pivot_for_body_name(), scope));
  StripAll(c->mutable_loop_exit_names(), scope);
  StripAll(c->mutable_loop_enter_names(), scope);
  c->set_maximum_iterations_name(Strip(c->maximum_iterations_name(), scope));
  if (c->has_values_def()) ScopeValues(c->mutable_values_def(), scope);
  for (auto& n : *c->mutable_nested_contexts()) {
    if (n.has_cond_ctxt()) ScopeCond(n.mutable_cond_ctxt(), scope);
    if (n.has_while_ctxt()) ScopeWhile(n.mutable_while_ctxt(), scope);
  }
  return true;
}

// Decodes, scopes and re-encodes one proto-typed entry; unreadable entries stay as they are.
template <typename Proto>
void AddScoped(const std::string& bytes, const std::string& scope,
               bool (*scope_fn)(Proto*, const std::string&), tensorflow::CollectionDef* out) {
  Proto p;
  if (!p.ParseFromString(bytes) || scope.empty()) {
    out->mutable_bytes_list()->add_value(bytes);
  } else if (scope_fn(&p, scope)) {
    out->mutable_bytes_list()->add_value(p.SerializeAsString());
  }
}

inline bool IsVariableKey(const std::string& key) {
  static const std::set<std::string> kKeys = {
      "variables",       "trainable_variables",      "local_variables",
      "model_variables", "moving_average_variables", "metric_variables"};
  return kKeys.count(key) > 0;
}

// Saver.to_proto(export_scope).
inline std::optional<tensorflow::SaverDef> ScopedSaver(const tensorflow::SaverDef& s,
                                                       const std::string& scope) {
  if (!InScope(s.filename_tensor_name(), scope) || !InScope(s.save_tensor_name(), scope) ||
      !InScope(s.restore_op_name(), scope)) {
    return std::nullopt;
  }
  tensorflow::SaverDef out = s;
  out.set_filename_tensor_name(Strip(s.filename_tensor_name(), scope));
  out.set_save_tensor_name(Strip(s.save_tensor_name(), scope));
  out.set_restore_op_name(Strip(s.restore_op_name(), scope));
  return out;
}

// add_collection_def over an already-encoded collection.
inline std::optional<tensorflow::CollectionDef> Collection(const std::string& key,
                                                           const tensorflow::CollectionDef& in,
                                                           const std::string& scope,
                                                           const std::set<std::string>& excluded) {
  if (scope.empty() && excluded.empty()) return in;
  tensorflow::CollectionDef out;
  switch (in.kind_case()) {
    case tensorflow::CollectionDef::kNodeList:
      for (const auto& v : in.node_list().value()) {
        if (!excluded.count(v) && NameKept(v, scope))
          out.mutable_node_list()->add_value(Strip(v, scope));
      }
      if (out.node_list().value_size() == 0) return std::nullopt;
      return out;
    case tensorflow::CollectionDef::kBytesList:
      for (const auto& v : in.bytes_list().value()) {
        if (IsVariableKey(key)) {
          tensorflow::VariableDef var;
          if (!var.ParseFromString(v) || scope.empty()) {
            out.mutable_bytes_list()->add_value(v);
            continue;
          }
          if (!InScope(var.variable_name(), scope)) continue;
          var.set_variable_name(Strip(var.variable_name(), scope));
          var.set_initial_value_name(Strip(var.initial_value_name(), scope));
          var.set_initializer_name(Strip(var.initializer_name(), scope));
          var.set_snapshot_name(Strip(var.snapshot_name(), scope));
          if (var.has_save_slice_info_def()) {
            var.mutable_save_slice_info_def()->set_full_name(
                Strip(var.save_slice_info_def().full_name(), scope));
          }
          out.mutable_bytes_list()->add_value(var.SerializeAsString());
        } else if (key == "savers") {
          tensorflow::SaverDef saver;
          if (!saver.ParseFromString(v) || scope.empty()) {
            out.mutable_bytes_list()->add_value(v);
          } else if (auto scoped = ScopedSaver(saver, scope)) {
            out.mutable_bytes_list()->add_value(scoped->SerializeAsString());
          }
        } else if (key == "cond_context") {
          AddScoped<tensorflow::CondContextDef>(v, scope, &ScopeCond, &out);
        } else if (key == "while_context") {
          AddScoped<tensorflow::WhileContextDef>(v, scope, &ScopeWhile, &out);
        } else {
          EXPECT_NE(key, "queue_runners")
              << "the reference model does not cover it; collections_test does";
          if (!excluded.count(v) && NameKept(v, scope)) out.mutable_bytes_list()->add_value(v);
        }
      }
      if (out.bytes_list().value_size() == 0) return std::nullopt;
      return out;
    case tensorflow::CollectionDef::kInt64List:
    case tensorflow::CollectionDef::kFloatList:
    case tensorflow::CollectionDef::kAnyList:
      return in;
    default:
      return std::nullopt;
  }
}

struct Options {
  std::string scope;
  bool clear_devices = false;
  bool clear_savers = false;
  bool strip = false;
  bool with_registry = false;  // opRegistry = the corpus's ops.pbtxt
  bool debug_info = false;
  std::optional<Strings> collections;
  std::optional<tensorflow::SaverDef> saver_def;
};

struct Expected {
  tensorflow::MetaGraphDef meta_graph;
  Strings unbound;                 // the unbound_inputs collection's values
  std::set<std::string> excluded;  // dropped by clear_extraneous_savers
  std::set<std::string> exported;  // input names of the exported top-level nodes
};

// The MetaGraphDef TensorFlow's export_scoped_meta_graph(graph_def=...) builds from `in`.
// graphport's rule for what names tensors outside the graph (not TensorFlow's, which keeps
// them unchanged): a signature whose tensors are all in the scope is stripped of it, one with
// any tensor outside is dropped; the saver_def likewise.
inline void ScopeReferences(const std::string& scope, tensorflow::MetaGraphDef* out) {
  std::function<bool(tensorflow::TensorInfo*)> scope_info = [&](tensorflow::TensorInfo* info) {
    std::vector<std::string*> names;
    if (info->has_coo_sparse()) {
      names = {info->mutable_coo_sparse()->mutable_values_tensor_name(),
               info->mutable_coo_sparse()->mutable_indices_tensor_name(),
               info->mutable_coo_sparse()->mutable_dense_shape_tensor_name()};
    } else if (info->has_composite_tensor()) {
      for (auto& c : *info->mutable_composite_tensor()->mutable_components()) {
        if (!scope_info(&c)) return false;
      }
    } else if (info->encoding_case() == tensorflow::TensorInfo::kName) {
      names = {info->mutable_name()};
    }
    for (std::string* n : names) {
      if (!InScope(*n, scope)) return false;
      *n = Strip(*n, scope);
    }
    return true;
  };
  Strings dropped;
  for (auto& [key, sig] : *out->mutable_signature_def()) {
    bool inside = true;
    for (auto* side : {sig.mutable_inputs(), sig.mutable_outputs()}) {
      for (auto& [k, info] : *side) inside = inside && scope_info(&info);
    }
    if (!inside) dropped.push_back(key);
  }
  for (const auto& key : dropped) out->mutable_signature_def()->erase(key);
  if (out->has_saver_def()) {
    auto scoped = ScopedSaver(out->saver_def(), scope);
    if (scoped) {
      *out->mutable_saver_def() = *scoped;
    } else {
      out->clear_saver_def();
    }
  }
}

inline Expected ExpectedExport(const tensorflow::MetaGraphDef& in, const Options& o) {
  Expected e;
  tensorflow::MetaGraphDef& out = e.meta_graph;
  out = in;
  if (o.saver_def) *out.mutable_saver_def() = *o.saver_def;
  const tensorflow::SaverDef* saver = out.has_saver_def() ? &out.saver_def() : nullptr;
  const tensorflow::GraphDef& g = in.graph_def();
  if (o.clear_savers) e.excluded = ExtraneousSaverNodes(g, saver);
  bool rewrite = !o.scope.empty() || o.clear_devices || o.clear_savers;
  Strings all_unbound;
  tensorflow::GraphDef graph;
  if (rewrite) {
    // Only versions and library are copied (GraphDef.version and debug_info are dropped).
    if (g.has_versions()) *graph.mutable_versions() = g.versions();
    if (g.has_library()) *graph.mutable_library() = g.library();
    for (const auto& n : g.node()) {
      if (e.excluded.count(n.name()) || !NameKept(n.name(), o.scope)) continue;
      *graph.add_node() = RewriteNode(n, o.scope, o.clear_devices, &all_unbound);
      e.exported.insert(n.name());
    }
  } else {
    graph = g;
    for (const auto& n : g.node()) e.exported.insert(n.name());
  }
  std::vector<const tensorflow::OpList*> complete;
  if (o.with_registry) complete.push_back(&mgtest::TfOps());
  if (in.meta_info_def().stripped_op_list().op_size() > 0)
    complete.push_back(&in.meta_info_def().stripped_op_list());
  if (o.strip) {
    std::vector<const tensorflow::OpList*> layers = complete;
    layers.push_back(&BuiltinDefaultsOpList());
    StripDefaults(&graph, layers);
  }
  *out.mutable_graph_def() = graph;

  // stripped_op_list: TensorFlow computes it when absent; graphport also when the node set
  // changed (a kept list would name ops the graph no longer has).
  if (!o.scope.empty() || !e.excluded.empty() ||
      in.meta_info_def().stripped_op_list().op_size() == 0) {
    tensorflow::OpList ops = StrippedOpList(out.graph_def(), complete);
    if (ops.op_size() > 0)
      *out.mutable_meta_info_def()->mutable_stripped_op_list() = ops;
    else if (out.has_meta_info_def())
      out.mutable_meta_info_def()->clear_stripped_op_list();
  }
  if (o.strip) out.mutable_meta_info_def()->set_stripped_default_attrs(true);

  out.clear_collection_def();
  Strings keys;
  if (o.collections) {
    keys = *o.collections;
  } else {
    for (const auto& [k, v] : in.collection_def()) keys.push_back(k);
  }
  for (const auto& key : keys) {
    if ((key == "unbound_inputs" && rewrite) || !in.collection_def().count(key)) continue;
    if (key == "savers" && o.clear_savers) {
      // The savers collection is replaced by the exported saver alone.
      std::optional<tensorflow::SaverDef> scoped =
          saver ? ScopedSaver(*saver, o.scope) : std::nullopt;
      if (scoped)
        (*out.mutable_collection_def())[key].mutable_bytes_list()->add_value(
            scoped->SerializeAsString());
      continue;
    }
    if (auto c = Collection(key, in.collection_def().at(key), o.scope, e.excluded)) {
      (*out.mutable_collection_def())[key] = *c;
    }
  }
  std::set<std::string> seen;
  for (const auto& u : all_unbound) {
    if (!StartsWith(u, "^") && seen.insert(u).second) e.unbound.push_back(u);
  }
  bool wanted = !o.collections || std::count(keys.begin(), keys.end(), "unbound_inputs") > 0;
  if (rewrite && wanted && !e.unbound.empty()) {
    auto* list = (*out.mutable_collection_def())["unbound_inputs"].mutable_bytes_list();
    for (const auto& u : e.unbound) list->add_value(u);
  }
  if (!o.scope.empty()) ScopeReferences(o.scope, &out);
  return e;
}

// GraphDebugInfo filtered to the exported top-level nodes ("name" or "name@" keys).
inline tensorflow::GraphDebugInfo ExpectedDebugInfo(const tensorflow::GraphDebugInfo& in,
                                                    const std::set<std::string>& names) {
  auto top_level = [&](const std::string& key) {
    size_t at = key.find('@');
    if (at != std::string::npos && at + 1 != key.size()) return false;
    return names.count(key.substr(0, at)) > 0;
  };
  tensorflow::GraphDebugInfo out;
  for (const auto& [k, t] : in.traces()) {
    if (top_level(k)) (*out.mutable_traces())[k] = t;
  }
  if (out.traces_size() > 0) *out.mutable_files() = in.files();
  for (const auto& [k, id] : in.name_to_trace_id()) {
    if (!top_level(k)) continue;
    (*out.mutable_name_to_trace_id())[k] = id;
    if (!in.traces_by_id().count(id)) continue;
    const auto& trace = in.traces_by_id().at(id);
    (*out.mutable_traces_by_id())[id] = trace;
    for (uint64_t f : trace.frame_id()) {
      if (in.frames_by_id().count(f)) (*out.mutable_frames_by_id())[f] = in.frames_by_id().at(f);
    }
  }
  return out;
}

}  // namespace ref

}  // namespace graphport::tf::export_test

#endif  // GRAPHPORT_TESTS_CPP_TF_META_GRAPH_EXPORT_REFERENCE_H_

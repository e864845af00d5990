// export_meta_graph end to end: every corpus MetaGraphDef and SavedModel exported with each
// option alone and all together, checked node by node against TensorFlow's rules as
// tensorflow.md §1 states them (written out below, independently of src/), plus TensorFlow's
// own export tests rebuilt on graphs made here, and the error cases.
#include "tf/meta_graph/export_meta_graph.h"

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
#include "tf/export.h"
#include "tf/meta_graph/builtin_op_defaults.h"
#include "tf/tf_model.h"
#include "tf_test_graphs.h"

namespace graphport::tf {
namespace {

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

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// Node name of a node, tensor, control-input or colocation name.
std::string_view BareName(std::string_view name) {
  if (StartsWith(name, "^"))
    name.remove_prefix(1);
  else if (StartsWith(name, "loc:@"))
    name.remove_prefix(5);
  size_t colon = name.find(':');
  return colon == std::string_view::npos ? name : name.substr(0, colon);
}

bool InScope(std::string_view name, const std::string& scope) {
  if (scope.empty()) return true;
  std::string_view bare = BareName(name);
  return bare == scope || StartsWith(bare, scope + "/");
}

// ops.strip_name_scope: (^|"^"|"loc:@") scope "/+" rest -> prefix rest.
std::string Strip(const std::string& name, const std::string& scope) {
  if (scope.empty()) return name;
  std::string marker = StartsWith(name, "^") ? "^" : StartsWith(name, "loc:@") ? "loc:@" : "";
  std::string rest = name.substr(marker.size());
  if (!StartsWith(rest, scope + "/")) return name;
  size_t i = scope.size();
  while (i < rest.size() && rest[i] == '/') ++i;
  return marker + rest.substr(i);
}

// _should_include_node for names.
bool NameKept(const std::string& name, const std::string& scope) {
  return StartsWith(name, kUnbound) || InScope(name, scope);
}

std::string ScopeOf(std::string_view name) {
  size_t slash = name.rfind('/');
  return slash == std::string_view::npos ? "" : std::string(name.substr(0, slash));
}

// _find_extraneous_saver_nodes (with SaveSlices for SaveSlice).
std::set<std::string> ExtraneousSaverNodes(const tensorflow::GraphDef& g,
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
tensorflow::NodeDef RewriteNode(const tensorflow::NodeDef& in, const std::string& scope,
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

std::string Bytes(const google::protobuf::Message& m) {
  std::string out;
  {
    google::protobuf::io::StringOutputStream stream(&out);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    m.SerializeToCodedStream(&coded);
  }
  return out;
}

const tensorflow::OpDef* FindOp(const std::vector<const tensorflow::OpList*>& layers,
                                const std::string& name) {
  for (const auto* layer : layers) {
    if (const auto* op = mgtest::FindOp(*layer, name)) return op;
  }
  return nullptr;
}

std::set<std::string> FunctionNames(const tensorflow::GraphDef& g) {
  std::set<std::string> names;
  for (const auto& f : g.library().function()) names.insert(f.signature().name());
  return names;
}

// strip_graph_default_valued_attrs; the first layer knowing the op decides.
void StripDefaults(tensorflow::GraphDef* g, const std::vector<const tensorflow::OpList*>& layers) {
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

void FunctionRefs(const tensorflow::AttrValue& v, Strings* out) {
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
std::set<std::string> OpsUsed(const tensorflow::GraphDef& g) {
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

tensorflow::OpList StrippedOpList(const tensorflow::GraphDef& g,
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

void StripAll(google::protobuf::RepeatedPtrField<std::string>* names, const std::string& scope) {
  for (auto& n : *names) n = Strip(n, scope);
}

// ControlFlowContext._to_values_def.
void ScopeValues(tensorflow::ValuesDef* v, const std::string& scope) {
  StripAll(v->mutable_values(), scope);
  google::protobuf::Map<std::string, std::string> external;
  for (const auto& [k, x] : v->external_values()) external[Strip(k, scope)] = Strip(x, scope);
  *v->mutable_external_values() = external;
}

bool ScopeWhile(tensorflow::WhileContextDef* c, const std::string& scope);

// CondContext.to_proto(export_scope). Nested contexts are scoped too: TensorFlow's importer
// prefixes them with import_scope, so they must have been stripped (collections_test.cc).
bool ScopeCond(tensorflow::CondContextDef* c, const std::string& scope) {
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
bool ScopeWhile(tensorflow::WhileContextDef* c, const std::string& scope) {
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

bool IsVariableKey(const std::string& key) {
  static const std::set<std::string> kKeys = {
      "variables",       "trainable_variables",      "local_variables",
      "model_variables", "moving_average_variables", "metric_variables"};
  return kKeys.count(key) > 0;
}

// Saver.to_proto(export_scope).
std::optional<tensorflow::SaverDef> ScopedSaver(const tensorflow::SaverDef& s,
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
std::optional<tensorflow::CollectionDef> Collection(const std::string& key,
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
void ScopeReferences(const std::string& scope, tensorflow::MetaGraphDef* out) {
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

Expected ExpectedExport(const tensorflow::MetaGraphDef& in, const Options& o) {
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
tensorflow::GraphDebugInfo ExpectedDebugInfo(const tensorflow::GraphDebugInfo& in,
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

// ---------------------------------------------------------------------------------------------
// Running exports.

std::string OpsPbtxt() { return mgtest::ReadCorpus(mgtest::kOpsPbtxt); }

const tensorflow::OpList& RegistryOption() { return mgtest::TfOps(); }

TfExportOptions StructOptions(const ref::Options& o) {
  TfExportOptions t;
  t.to = TfKind::kMetaGraphDef;
  t.export_scope = o.scope;
  t.clear_devices = o.clear_devices;
  t.clear_extraneous_savers = o.clear_savers;
  t.strip_default_attrs = o.strip;
  t.save_debug_info = o.debug_info;
  if (o.with_registry) t.op_registry = &RegistryOption();
  t.collection_list = o.collections;
  if (o.saver_def) t.saver_def = &*o.saver_def;
  return t;
}

json JsonOptions(const ref::Options& o) {
  json j = json::object();
  j["to"] = "meta-graph";
  if (!o.scope.empty()) j["exportScope"] = o.scope;
  if (o.clear_devices) j["clearDevices"] = true;
  if (o.clear_savers) j["clearExtraneousSavers"] = true;
  if (o.strip) j["stripDefaultAttrs"] = true;
  if (o.debug_info) j["saveDebugInfo"] = true;
  if (o.with_registry) j["opRegistry"] = BytesOption(OpsPbtxt());  // the text OpList as given
  if (o.collections) j["collectionList"] = *o.collections;
  if (o.saver_def) {
    j["saverDef"] = {
        {"filenameTensorName", o.saver_def->filename_tensor_name()},
        {"saveTensorName", o.saver_def->save_tensor_name()},
        {"restoreOpName", o.saver_def->restore_op_name()},
        {"maxToKeep", o.saver_def->max_to_keep()},
        {"keepCheckpointEveryNHours", o.saver_def->keep_checkpoint_every_n_hours()},
        {"version", tensorflow::SaverDef::CheckpointFormatVersion_Name(o.saver_def->version())}};
  }
  return j;
}

struct Loaded {
  std::string bytes;
  std::unique_ptr<MemorySource> source;
  std::unique_ptr<TfModel> model;
};

std::unique_ptr<Loaded> LoadBytes(std::string bytes, const std::string& format) {
  auto l = std::make_unique<Loaded>();
  l->bytes = std::move(bytes);
  l->source = std::make_unique<MemorySource>(l->bytes);
  TfLoadOptions options;
  options.format = format;
  l->model = TfModel::Load(l->source.get(), options);
  return l;
}

std::unique_ptr<Loaded> LoadMeta(const tensorflow::MetaGraphDef& mg) {
  return LoadBytes(mg.SerializeAsString(), "meta-graph-binary");
}

std::unique_ptr<google::protobuf::Message> Snapshot(const TfModel& model) {
  std::unique_ptr<google::protobuf::Message> copy(model.root().New());
  copy->CopyFrom(model.root());
  return copy;
}

struct Output {
  std::vector<MemoryOutputSet::File> files;
  json info;
  tensorflow::MetaGraphDef meta_graph;  // files[0] parsed (binary or text)
  bool parsed = false;
};

Output RunExport(TfModel* model, const TfExportOptions& options) {
  auto before = Snapshot(*model);
  MemoryOutputSet out;
  Output o;
  o.info = Export(model, options, &out);
  o.files = out.files();
  EXPECT_TRUE(MessagesEqual(*before, model->root())) << "the export changed the loaded model";
  if (!o.files.empty()) {
    o.parsed = options.as_text
                   ? google::protobuf::TextFormat::ParseFromString(o.files[0].bytes, &o.meta_graph)
                   : o.meta_graph.ParseFromString(o.files[0].bytes);
  }
  return o;
}

std::string ChooseScope(const tensorflow::GraphDef& g) {
  for (const auto& n : g.node()) {
    if (ref::StartsWith(n.name(), "save/")) return "save";
  }
  for (const auto& n : g.node()) {
    size_t slash = n.name().find('/');
    if (slash != std::string::npos) return n.name().substr(0, slash);
  }
  return g.node_size() > 0 ? g.node(0).name() : "";
}

// Compares an export with the expectation, node by node first for readable failures.
void ExpectMetaGraph(const ref::Expected& expected, const Output& out) {
  ASSERT_TRUE(out.parsed) << "the export does not parse as a MetaGraphDef";
  const tensorflow::GraphDef& want = expected.meta_graph.graph_def();
  const tensorflow::GraphDef& got = out.meta_graph.graph_def();
  EXPECT_EQ(mgtest::NodeNames(got), mgtest::NodeNames(want));
  if (got.node_size() == want.node_size()) {
    for (int i = 0; i < want.node_size(); ++i) {
      SCOPED_TRACE("node " + want.node(i).name());
      EXPECT_TRUE(MessagesEqual(want.node(i), got.node(i)));
    }
  }
  EXPECT_TRUE(MessagesEqual(want.library(), got.library()));
  EXPECT_TRUE(MessagesEqual(expected.meta_graph.meta_info_def(), out.meta_graph.meta_info_def()));
  auto keys = [](const tensorflow::MetaGraphDef& mg) {
    Strings k;
    for (const auto& [key, v] : mg.collection_def()) k.push_back(key);
    std::sort(k.begin(), k.end());
    return k;
  };
  EXPECT_EQ(keys(out.meta_graph), keys(expected.meta_graph));
  EXPECT_TRUE(MessagesEqual(expected.meta_graph, out.meta_graph));
  EXPECT_EQ(out.info["nodeCount"], want.node_size());
  EXPECT_EQ(out.info["unboundInputs"].get<Strings>(), expected.unbound);
  EXPECT_EQ(out.info["excludedNodes"].get<Strings>(),
            Strings(expected.excluded.begin(), expected.excluded.end()));
}

// Attrs of every node, top-level and in functions.
int AttrCount(const tensorflow::GraphDef& g) {
  int n = 0;
  for (const auto& node : g.node()) n += node.attr_size();
  for (const auto& f : g.library().function()) {
    for (const auto& node : f.node_def()) n += node.attr_size();
  }
  return n;
}

// ---------------------------------------------------------------------------------------------
// Every corpus MetaGraphDef and SavedModel.

class CorpusExportTest : public ::testing::TestWithParam<mgtest::CorpusFile> {
 protected:
  void SetUp() override {
    std::string bytes = mgtest::ReadFile(GetParam().path());
    // The input as plain libprotobuf reads it: the reference for every expectation.
    if (GetParam().kind == TfKind::kSavedModel) {
      tensorflow::SavedModel sm;
      ASSERT_TRUE(sm.ParseFromString(bytes));
      ASSERT_EQ(sm.meta_graphs_size(), 1);
      input_ = sm.meta_graphs(0);
    } else {
      ASSERT_TRUE(input_.ParseFromString(bytes));
    }
    ASSERT_GT(input_.graph_def().node_size(), 0);
    loaded_ = LoadBytes(std::move(bytes), "auto");
    ASSERT_EQ(loaded_->model->format().kind, GetParam().kind);
    scope_ = ChooseScope(input_.graph_def());
  }

  // Exports with `o`, checks the result against TensorFlow's rules, that text and binary agree,
  // and that exporting the export again gives the same bytes.
  Output CheckExport(const ref::Options& o) {
    ref::Expected expected = ref::ExpectedExport(input_, o);
    TfExportOptions options = StructOptions(o);
    Output out = RunExport(loaded_->model.get(), options);
    EXPECT_EQ(out.files.size(), o.debug_info ? 2u : 1u);
    if (out.files.empty()) return out;
    EXPECT_EQ(out.files[0].name, "model.meta");
    ExpectMetaGraph(expected, out);

    if (o.debug_info && out.files.size() == 2) {
      EXPECT_EQ(out.files[1].name, "model_debug.meta");
      tensorflow::GraphDebugInfo debug;
      EXPECT_TRUE(debug.ParseFromString(out.files[1].bytes));
      EXPECT_TRUE(MessagesEqual(
          ref::ExpectedDebugInfo(input_.graph_def().debug_info(), expected.exported), debug));
      EXPECT_EQ(out.info["debugInfoNodes"], debug.traces_size() + debug.name_to_trace_id_size());
    }

    // Text and binary carry the same message.
    TfExportOptions text_options = options;
    text_options.as_text = true;
    Output text = RunExport(loaded_->model.get(), text_options);
    EXPECT_TRUE(text.parsed) << "the text export does not parse";
    EXPECT_EQ(text.files.at(0).name, "model.pbtxt");
    EXPECT_TRUE(MessagesEqual(out.meta_graph, text.meta_graph));

    // Exporting the export with the same options changes nothing. The scope is left out the
    // second time: the first export already stripped it, so no node name carries it any more
    // (the same scope would match nothing, or only nodes that happen to share its name). The
    // collection list keeps the keys the first export wrote: the ones it dropped are gone.
    ref::Options again = o;
    again.scope.clear();
    if (again.collections) {
      again.collections->clear();
      for (const auto& [key, value] : out.meta_graph.collection_def())
        again.collections->push_back(key);
    }
    std::unique_ptr<Loaded> reloaded = LoadBytes(out.files[0].bytes, "meta-graph-binary");
    Output second = RunExport(reloaded->model.get(), StructOptions(again));
    EXPECT_TRUE(second.files.at(0).bytes == out.files[0].bytes)
        << "re-export is not byte-identical";
    return out;
  }

  ref::Options AllOptions() const;

  Strings Keys() const {
    Strings keys;
    for (const auto& [k, v] : input_.collection_def()) keys.push_back(k);
    std::sort(keys.begin(), keys.end());
    return keys;
  }

  tensorflow::MetaGraphDef input_;
  std::unique_ptr<Loaded> loaded_;
  std::string scope_;
};

TEST_P(CorpusExportTest, NoOptions) {
  Output out = CheckExport({});
  // Nothing asked to change the graph: it is the input's, byte for byte, and so is every
  // collection; tensorflow_version is the producer's (graphport does not overwrite it).
  EXPECT_TRUE(MessagesEqual(input_, out.meta_graph));
  EXPECT_EQ(out.meta_graph.meta_info_def().tensorflow_version(),
            input_.meta_info_def().tensorflow_version());
}

TEST_P(CorpusExportTest, ExportScope) {
  ASSERT_FALSE(scope_.empty());
  SCOPED_TRACE("exportScope " + scope_);
  ref::Options o;
  o.scope = scope_;
  Output out = CheckExport(o);
  const tensorflow::GraphDef& in = input_.graph_def();
  const tensorflow::GraphDef& got = out.meta_graph.graph_def();
  // Kept nodes are exactly those in the scope, in input order, with the scope stripped.
  Strings expected_names;
  std::set<std::string> outside_inputs;
  for (const auto& node : in.node()) {
    bool inside = node.name() == scope_ || node.name().rfind(scope_ + "/", 0) == 0;
    if (!inside) continue;
    expected_names.push_back(node.name() == scope_ ? node.name()
                                                   : node.name().substr(scope_.size() + 1));
    for (const auto& input : node.input()) {
      std::string bare = input[0] == '^' ? input.substr(1) : input;
      std::string node_name = bare.substr(0, bare.find(':'));
      if (node_name != scope_ && node_name.rfind(scope_ + "/", 0) != 0 && input[0] != '^') {
        outside_inputs.insert("$unbound_inputs_" + bare);
      }
    }
  }
  ASSERT_FALSE(expected_names.empty());
  EXPECT_EQ(mgtest::NodeNames(got), expected_names);
  // No input of a kept node names a node outside: they are all unbound now.
  std::set<std::string> kept(expected_names.begin(), expected_names.end());
  for (const auto& node : got.node()) {
    for (const auto& input : node.input()) {
      std::string bare = input[0] == '^' ? input.substr(1) : input;
      std::string node_name = bare.substr(0, bare.find(':'));
      EXPECT_TRUE(kept.count(node_name) || node_name.rfind("$unbound_inputs_", 0) == 0)
          << node.name() << " reads " << input;
    }
  }
  // The unbound_inputs collection is the set of outside data inputs, each once.
  if (outside_inputs.empty()) {
    EXPECT_EQ(out.meta_graph.collection_def().count("unbound_inputs"), 0u);
  } else {
    ASSERT_EQ(out.meta_graph.collection_def().count("unbound_inputs"), 1u);
    Strings values =
        ToVector(out.meta_graph.collection_def().at("unbound_inputs").bytes_list().value());
    EXPECT_EQ(std::set<std::string>(values.begin(), values.end()), outside_inputs);
    EXPECT_EQ(values.size(), outside_inputs.size()) << "an unbound input is listed twice";
  }
  // The saver_def is stripped of the scope when its tensors are in it, and dropped (and listed)
  // when they are not: the export never names a tensor it does not hold.
  if (input_.has_saver_def()) {
    const auto& saver = input_.saver_def();
    bool inside = saver.save_tensor_name().rfind(scope_ + "/", 0) == 0 &&
                  saver.restore_op_name().rfind(scope_ + "/", 0) == 0 &&
                  saver.filename_tensor_name().rfind(scope_ + "/", 0) == 0;
    EXPECT_EQ(out.meta_graph.has_saver_def(), inside);
    if (inside) {
      EXPECT_EQ(out.meta_graph.saver_def().restore_op_name(),
                saver.restore_op_name().substr(scope_.size() + 1));
    }
  }
  EXPECT_TRUE(MessagesEqual(input_.graph_def().versions(), got.versions()));
}

TEST_P(CorpusExportTest, ClearDevices) {
  ref::Options o;
  o.clear_devices = true;
  Output out = CheckExport(o);
  const tensorflow::GraphDef& in = input_.graph_def();
  const tensorflow::GraphDef& got = out.meta_graph.graph_def();
  ASSERT_EQ(got.node_size(), in.node_size());
  for (int i = 0; i < in.node_size(); ++i) {
    SCOPED_TRACE(in.node(i).name());
    EXPECT_EQ(got.node(i).device(), "");
    tensorflow::NodeDef expected = in.node(i);
    expected.clear_device();
    EXPECT_TRUE(MessagesEqual(expected, got.node(i)));
  }
  // Function bodies keep their devices (TensorFlow copies the library verbatim).
  EXPECT_TRUE(MessagesEqual(in.library(), got.library()));
  for (const auto& [key, value] : input_.collection_def()) {
    EXPECT_TRUE(MessagesEqual(value, out.meta_graph.collection_def().at(key))) << key;
  }
}

TEST_P(CorpusExportTest, ClearExtraneousSavers) {
  ref::Options o;
  o.clear_savers = true;
  Output out = CheckExport(o);
  // Each corpus graph holds at most the one saver its saver_def names: nothing is cleared.
  EXPECT_TRUE(out.info["excludedNodes"].empty());
  ASSERT_EQ(out.meta_graph.graph_def().node_size(), input_.graph_def().node_size());
  for (int i = 0; i < input_.graph_def().node_size(); ++i) {
    EXPECT_TRUE(MessagesEqual(input_.graph_def().node(i), out.meta_graph.graph_def().node(i)));
  }
}

// A second saver is added to the corpus graph (the nodes a TF 1.x Saver would add), then cleared.
TEST_P(CorpusExportTest, ClearExtraneousSaversRemovesAnAddedSaver) {
  tensorflow::MetaGraphDef with_extra = input_;
  const std::string variable = input_.graph_def().node(0).name();
  tensorflow::SaverDef extra =
      mgtest::AddV2Saver(with_extra.mutable_graph_def(), "graphport_extra_saver", variable, "k");
  std::unique_ptr<Loaded> loaded = LoadMeta(with_extra);

  // The file's own saver (if any) stays, the added one goes.
  ref::Options o;
  o.clear_savers = true;
  Output out = RunExport(loaded->model.get(), StructOptions(o));
  ref::Expected expected = ref::ExpectedExport(with_extra, o);
  ExpectMetaGraph(expected, out);
  Strings extra_nodes;
  for (const auto& n : with_extra.graph_def().node()) {
    if (n.name().rfind("graphport_extra_saver/", 0) == 0) extra_nodes.push_back(n.name());
  }
  std::sort(extra_nodes.begin(), extra_nodes.end());
  ASSERT_EQ(extra_nodes.size(), size_t{mgtest::kSaverNodes});
  EXPECT_EQ(out.info["excludedNodes"].get<Strings>(), extra_nodes);
  ASSERT_EQ(out.meta_graph.graph_def().node_size(), input_.graph_def().node_size());
  for (int i = 0; i < input_.graph_def().node_size(); ++i) {
    EXPECT_TRUE(MessagesEqual(input_.graph_def().node(i), out.meta_graph.graph_def().node(i)));
  }

  // Exporting the added saver instead (saverDef as protobuf JSON): the file's own saver scopes go.
  ref::Options keep_extra = o;
  keep_extra.saver_def = extra;
  ref::Expected expected_extra = ref::ExpectedExport(with_extra, keep_extra);
  ASSERT_TRUE(loaded->source->Rewind());
  std::unique_ptr<Model> model =
      Model::Load(loaded->source.get(), LoadOptions{"meta-graph-binary", {}, "extra.meta"});
  MemoryOutputSet files;
  json info = json::parse(model->ExportJson(JsonOptions(keep_extra).dump(), &files));
  ASSERT_EQ(files.files().size(), 1u);
  Output via_json;
  via_json.files = files.files();
  via_json.info = info;
  via_json.parsed = via_json.meta_graph.ParseFromString(files.files()[0].bytes);
  ExpectMetaGraph(expected_extra, via_json);
  EXPECT_TRUE(MessagesEqual(extra, via_json.meta_graph.saver_def()));
  for (const auto& name : expected_extra.excluded) {
    EXPECT_NE(name.rfind("graphport_extra_saver/", 0), 0u) << name;
  }
  for (const auto& name : extra_nodes)
    EXPECT_NE(mgtest::FindNode(via_json.meta_graph.graph_def(), name), nullptr);
}

TEST_P(CorpusExportTest, StripDefaultAttrs) {
  ref::Options o;
  o.strip = true;
  Output out = CheckExport(o);
  EXPECT_TRUE(out.meta_graph.meta_info_def().stripped_default_attrs());
  // Every attr that is gone had its default value; the rest are the input's, unchanged.
  const tensorflow::GraphDef& in = input_.graph_def();
  const tensorflow::GraphDef& got = out.meta_graph.graph_def();
  ASSERT_EQ(got.node_size(), in.node_size());
  for (int i = 0; i < in.node_size(); ++i) {
    for (const auto& [key, value] : got.node(i).attr()) {
      EXPECT_TRUE(MessagesEqual(in.node(i).attr().at(key), value))
          << in.node(i).name() << "." << key;
    }
  }
  EXPECT_EQ(out.info["strippedDefaultAttrs"], AttrCount(in) - AttrCount(got));
  EXPECT_EQ(AttrCount(got), AttrCount(ref::ExpectedExport(input_, o).meta_graph.graph_def()));
}

TEST_P(CorpusExportTest, StripDefaultAttrsWithTensorFlowsRegistry) {
  ref::Options o;
  o.strip = true;
  o.with_registry = true;
  Output out = CheckExport(o);
  EXPECT_TRUE(out.meta_graph.meta_info_def().stripped_default_attrs());
  EXPECT_EQ(out.info["strippedDefaultAttrs"],
            AttrCount(input_.graph_def()) - AttrCount(out.meta_graph.graph_def()));
  // Every op of the corpus is registered in TensorFlow: nothing is left unknown.
  EXPECT_TRUE(out.info["unknownDefaultOps"].empty()) << out.info["unknownDefaultOps"].dump();
}

TEST_P(CorpusExportTest, SaveDebugInfo) {
  ref::Options o;
  o.debug_info = true;
  Output out = CheckExport(o);
  // The corpus graphs carry no GraphDef.debug_info: an empty GraphDebugInfo, as TensorFlow's
  // rule gives with no traceback available.
  ASSERT_EQ(out.files.size(), 2u);
  EXPECT_EQ(out.files[1].bytes, "");
  EXPECT_TRUE(MessagesEqual(input_, out.meta_graph));
}

TEST_P(CorpusExportTest, CollectionListSubset) {
  Strings keys = Keys();
  ref::Options o;
  o.collections = Strings(keys.begin(), keys.begin() + keys.size() / 2);
  Output out = CheckExport(o);
  EXPECT_EQ(out.meta_graph.collection_def_size(), static_cast<int>(o.collections->size()));
  for (const auto& key : *o.collections) {
    ASSERT_EQ(out.meta_graph.collection_def().count(key), 1u) << key;
    EXPECT_TRUE(
        MessagesEqual(input_.collection_def().at(key), out.meta_graph.collection_def().at(key)));
  }
  ref::Options none;
  none.collections = Strings{};
  EXPECT_EQ(CheckExport(none).meta_graph.collection_def_size(), 0);
}

// Every option on at once, with the file's own scope and collections.
ref::Options CorpusExportTest::AllOptions() const {
  ref::Options o;
  o.scope = scope_;
  o.clear_devices = true;
  o.clear_savers = true;
  o.strip = true;
  o.with_registry = true;
  o.debug_info = true;
  o.collections = Keys();
  o.collections->push_back("unbound_inputs");
  return o;
}

TEST_P(CorpusExportTest, AllOptionsTogether) {
  ref::Options o = AllOptions();
  Output out = CheckExport(o);
  for (const auto& node : out.meta_graph.graph_def().node())
    EXPECT_EQ(node.device(), "") << node.name();
  EXPECT_TRUE(out.meta_graph.meta_info_def().stripped_default_attrs());
}

// The facade reads the same options from JSON (camelCase, protos as JSON or bytes) and gives
// the same bytes and info as the struct.
TEST_P(CorpusExportTest, JsonOptionsThroughTheFacade) {
  ref::Options o = AllOptions();
  Output direct = RunExport(loaded_->model.get(), StructOptions(o));
  ASSERT_TRUE(loaded_->source->Rewind());
  std::unique_ptr<Model> model = Model::Load(loaded_->source.get(), LoadOptions{});
  MemoryOutputSet files;
  json info = json::parse(model->ExportJson(JsonOptions(o).dump(), &files));
  ASSERT_EQ(files.files().size(), direct.files.size());
  for (size_t i = 0; i < direct.files.size(); ++i) {
    EXPECT_EQ(files.files()[i].name, direct.files[i].name);
    EXPECT_TRUE(files.files()[i].bytes == direct.files[i].bytes) << direct.files[i].name;
  }
  EXPECT_EQ(info, direct.info);
}

// Errors leave the model as it was: the next export gives the same bytes as before.
TEST_P(CorpusExportTest, BadOptionsThroughTheFacade) {
  ASSERT_TRUE(loaded_->source->Rewind());
  std::unique_ptr<Model> model = Model::Load(loaded_->source.get(), LoadOptions{});
  MemoryOutputSet reference;
  model->ExportJson("{}", &reference);
  struct Case {
    json options;
    ErrorCode code;
    Strings mentions;
  };
  const std::vector<Case> cases = {
      {{{"collectionList", json::array({"no_such_key"})}}, ErrorCode::kNotFound, {"no_such_key"}},
      {{{"exportScope", "no_such_scope"}}, ErrorCode::kNotFound, {"no_such_scope"}},
      {{{"saverDef", {{"saveTensorName", 5}}}},
       ErrorCode::kInvalidOption,
       {"saverDef", "save_tensor_name"}},
      {{{"saverDef", {{"bogusField", "x"}}}},
       ErrorCode::kInvalidOption,
       {"saverDef", "bogusField"}},
      {{{"metaInfoDef", {{"tensorflowVersion", "mylib-0.1"}}}},
       ErrorCode::kInvalidOption,
       {"mylib-0.1"}},
      {{{"metaInfoDef", {{"tensorflowVersion", "0.12.head"}}}},
       ErrorCode::kInvalidOption,
       {"0.12.head"}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.options.dump());
    MemoryOutputSet out;
    try {
      model->ExportJson(c.options.dump(), &out);
      ADD_FAILURE() << "no error";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), c.code) << ErrorCodeName(e.code()) << ": " << e.what();
      for (const auto& m : c.mentions)
        EXPECT_NE(std::string(e.what()).find(m), std::string::npos) << e.what();
    }
    MemoryOutputSet after;
    model->ExportJson("{}", &after);
    ASSERT_EQ(after.files().size(), 1u);
    EXPECT_TRUE(after.files()[0].bytes == reference.files()[0].bytes);
  }
}

// A SavedModel exported as a SavedModel: the selected MetaGraphDef is the export, the rest
// of the SavedModel is the input's.
TEST_P(CorpusExportTest, SavedModelWrapsTheExport) {
  ref::Options o;
  o.scope = scope_;
  o.clear_devices = true;
  TfExportOptions options = StructOptions(o);
  options.to = TfKind::kSavedModel;
  auto before = Snapshot(*loaded_->model);
  MemoryOutputSet out;
  Export(loaded_->model.get(), options, &out);
  EXPECT_TRUE(MessagesEqual(*before, loaded_->model->root()));
  ASSERT_EQ(out.files().size(), 1u);
  tensorflow::SavedModel sm;
  ASSERT_TRUE(sm.ParseFromString(out.files()[0].bytes));
  ASSERT_EQ(sm.meta_graphs_size(), 1);
  tensorflow::MetaGraphDef expected = ref::ExpectedExport(input_, o).meta_graph;
  if (GetParam().kind == TfKind::kSavedModel) {
    EXPECT_TRUE(MessagesEqual(expected, sm.meta_graphs(0)));
    tensorflow::SavedModel in;
    ASSERT_TRUE(in.ParseFromString(mgtest::ReadFile(GetParam().path())));
    EXPECT_EQ(sm.saved_model_schema_version(), in.saved_model_schema_version());
  } else {
    // A MetaGraphDef without tags gets the serving tag so a SavedModel loader can select it.
    if (expected.meta_info_def().tags_size() == 0)
      expected.mutable_meta_info_def()->add_tags("serve");
    EXPECT_TRUE(MessagesEqual(expected, sm.meta_graphs(0)));
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusExportTest,
                         ::testing::ValuesIn(mgtest::CorpusMetaGraphFiles()),
                         mgtest::CorpusFileTestName);

TEST(CorpusListTest, HoldsEveryMetaGraphAndSavedModelOfTheCorpus) {
  ASSERT_TRUE(mgtest::CorpusPresent()) << mgtest::MissingCorpusMessage();
  std::vector<mgtest::CorpusFile> files = mgtest::CorpusMetaGraphFiles();
  int metas = 0, saved_models = 0;
  for (const auto& f : files) (f.kind == TfKind::kSavedModel ? saved_models : metas)++;
  EXPECT_EQ(metas, 2) << "both export.meta files";
  EXPECT_GE(saved_models, 13);
}

// ---------------------------------------------------------------------------------------------
// TensorFlow's tests, rebuilt.

Output ExportBuilt(const tensorflow::MetaGraphDef& mg, const ref::Options& o) {
  std::unique_ptr<Loaded> loaded = LoadMeta(mg);
  Output out = RunExport(loaded->model.get(), StructOptions(o));
  ExpectMetaGraph(ref::ExpectedExport(mg, o), out);
  return out;
}

Strings CollectionValues(const tensorflow::MetaGraphDef& mg, const std::string& key) {
  if (!mg.collection_def().count(key)) return {};
  const auto& c = mg.collection_def().at(key);
  return c.has_node_list() ? ToVector(c.node_list().value()) : ToVector(c.bytes_list().value());
}

Strings VariableNames(const tensorflow::MetaGraphDef& mg, const std::string& key = "variables") {
  Strings names;
  for (const auto& bytes : CollectionValues(mg, key)) {
    tensorflow::VariableDef v;
    EXPECT_TRUE(v.ParseFromString(bytes));
    names.push_back(v.variable_name());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// meta_graph_test.py testScopedExportAndImport, hidden1.
TEST(TfScopedExportTest, Hidden1) {
  tensorflow::MetaGraphDef mg = mgtest::MakeHiddenLayersGraph();
  ref::Options o;
  o.scope = "hidden1";
  Output out = ExportBuilt(mg, o);
  const tensorflow::GraphDef& g = out.meta_graph.graph_def();
  for (const auto& n : g.node()) EXPECT_EQ(n.name().find("hidden1"), std::string::npos) << n.name();
  const tensorflow::NodeDef* matmul = mgtest::FindNode(g, "MatMul");
  ASSERT_NE(matmul, nullptr);
  EXPECT_EQ(ToVector(matmul->input()), (Strings{"$unbound_inputs_images", "weights/read"}));
  // Import needs input_map {"$unbound_inputs_images": ...} and nothing else.
  EXPECT_EQ(CollectionValues(out.meta_graph, "unbound_inputs"),
            (Strings{"$unbound_inputs_images"}));
  // var_list keys ["biases:0", "weights:0"].
  EXPECT_EQ(VariableNames(out.meta_graph), (Strings{"biases:0", "weights:0"}));
  EXPECT_EQ(VariableNames(out.meta_graph, "trainable_variables"),
            (Strings{"biases:0", "weights:0"}));
  // The weights were colocated with "constraint", outside the scope: the entry goes, the attr
  // stays.
  const tensorflow::NodeDef* weights = mgtest::FindNode(g, "weights");
  ASSERT_NE(weights, nullptr);
  EXPECT_EQ(weights->attr().at("_class").list().s_size(), 0);
  EXPECT_EQ(ToVector(mgtest::FindNode(g, "biases/read")->attr().at("_class").list().s()),
            (Strings{"loc:@biases"}));
  // The cond contexts are scoped; the while context, logits and the string and bytes user
  // collections (filtered as node names) are not in hidden1; the Any one passes.
  std::vector<std::string> contexts;
  for (const auto& bytes : CollectionValues(out.meta_graph, "cond_context")) {
    tensorflow::CondContextDef c;
    ASSERT_TRUE(c.ParseFromString(bytes));
    contexts.push_back(c.context_name() + " " + c.pred_name() + " " + c.pivot_name());
  }
  EXPECT_EQ(contexts, (Strings{"cond/cond_text cond/pred_id:0 cond/switch_t:0",
                               "cond/cond_text_1 cond/pred_id:0 cond/switch_f:0"}));
  for (const char* gone : {"while_context", "logits", "user_defined_string_collection",
                           "user_defined_bytes_collection"}) {
    EXPECT_EQ(out.meta_graph.collection_def().count(gone), 0u) << gone;
  }
  EXPECT_TRUE(MessagesEqual(mg.collection_def().at("user_defined_any_collection"),
                            out.meta_graph.collection_def().at("user_defined_any_collection")));
}

// ... hidden2: the while loop's frame and context are scoped.
TEST(TfScopedExportTest, Hidden2) {
  tensorflow::MetaGraphDef mg = mgtest::MakeHiddenLayersGraph();
  ref::Options o;
  o.scope = "hidden2";
  Output out = ExportBuilt(mg, o);
  const tensorflow::GraphDef& g = out.meta_graph.graph_def();
  EXPECT_EQ(CollectionValues(out.meta_graph, "unbound_inputs"),
            (Strings{"$unbound_inputs_hidden1/Relu"}));
  EXPECT_EQ(ToVector(mgtest::FindNode(g, "MatMul")->input()),
            (Strings{"$unbound_inputs_hidden1/Relu", "weights/read"}));
  EXPECT_EQ(VariableNames(out.meta_graph), (Strings{"biases:0", "weights:0"}));
  for (const char* enter : {"while/Enter", "while/Enter_1"}) {
    const tensorflow::NodeDef* n = mgtest::FindNode(g, enter);
    ASSERT_NE(n, nullptr) << enter;
    EXPECT_EQ(n->attr().at("frame_name").s(), "while/while_context");
  }
  Strings loops = CollectionValues(out.meta_graph, "while_context");
  ASSERT_EQ(loops.size(), 1u);
  tensorflow::WhileContextDef w;
  ASSERT_TRUE(w.ParseFromString(loops[0]));
  EXPECT_EQ(w.context_name(), "while/while_context");
  EXPECT_EQ(ToVector(w.loop_exit_names()), (Strings{"while/Exit:0", "while/Exit_1:0"}));
  EXPECT_EQ(w.values_def().external_values().at("zeros:0"), "while/Enter_1:0");
  EXPECT_EQ(out.meta_graph.collection_def().count("cond_context"), 0u);
}

// ... softmax_linear: logits survive, stripped.
TEST(TfScopedExportTest, SoftmaxLinear) {
  tensorflow::MetaGraphDef mg = mgtest::MakeHiddenLayersGraph();
  ref::Options o;
  o.scope = "softmax_linear";
  Output out = ExportBuilt(mg, o);
  EXPECT_EQ(CollectionValues(out.meta_graph, "logits"), (Strings{"add:0"}));
  EXPECT_EQ(CollectionValues(out.meta_graph, "unbound_inputs"),
            (Strings{"$unbound_inputs_hidden2/Relu"}));
  EXPECT_EQ(VariableNames(out.meta_graph), (Strings{"biases:0", "weights:0"}));
}

// graphport's difference from TensorFlow (issue #10250): one outside tensor used twice is
// listed once, so TensorFlow's importer accepts the input_map that supplies it.
TEST(TfScopedExportTest, AnUnboundInputUsedTwiceIsListedOnce) {
  tensorflow::MetaGraphDef mg;
  mgtest::AddConst(mg.mutable_graph_def(), "x", 1.0f);
  mgtest::AddNode(mg.mutable_graph_def(), "s/a", "Neg", {"x"});
  mgtest::AddNode(mg.mutable_graph_def(), "s/b", "Add", {"x", "x:0", "^x"});
  ref::Options o;
  o.scope = "s";
  Output out = ExportBuilt(mg, o);
  EXPECT_EQ(ToVector(mgtest::FindNode(out.meta_graph.graph_def(), "b")->input()),
            (Strings{"$unbound_inputs_x", "$unbound_inputs_x:0", "^$unbound_inputs_x"}));
  // The control form drops out (TensorFlow's collection filter); "x" and "x:0" are two names.
  EXPECT_EQ(CollectionValues(out.meta_graph, "unbound_inputs"),
            (Strings{"$unbound_inputs_x", "$unbound_inputs_x:0"}));
}

// meta_graph_test.py testExportNestedNames.
TEST(TfScopedExportTest, NestedNames) {
  tensorflow::MetaGraphDef mg = mgtest::MakeNestedNamesGraph();
  ref::Options o;
  o.scope = "hidden1/hidden2";
  Output out = ExportBuilt(mg, o);
  const tensorflow::GraphDef& g = out.meta_graph.graph_def();
  ASSERT_EQ(g.node_size(), mg.graph_def().node_size());
  for (const auto& n : g.node()) EXPECT_EQ(n.name().rfind("hidden3/", 0), 0u) << n.name();
  EXPECT_EQ(VariableNames(out.meta_graph), (Strings{"hidden3/biases:0", "hidden3/weights:0"}));
  EXPECT_EQ(ToVector(mgtest::FindNode(g, "hidden3/weights/Assign")->attr().at("_class").list().s()),
            (Strings{"loc:@hidden3/weights"}));
  EXPECT_EQ(out.meta_graph.collection_def().count("unbound_inputs"), 0u);
}

// meta_graph_test.py testPotentialCycle: the outside MatMul becomes $unbound_inputs_MatMul,
// distinct from hidden1's own MatMul.
TEST(TfScopedExportTest, PotentialCycle) {
  tensorflow::MetaGraphDef mg = mgtest::MakePotentialCycleGraph();
  ref::Options o;
  o.scope = "hidden1";
  Output out = ExportBuilt(mg, o);
  const tensorflow::GraphDef& g = out.meta_graph.graph_def();
  EXPECT_EQ(mgtest::NodeNames(g), (Strings{"Relu", "Const", "MatMul"}));
  EXPECT_EQ(ToVector(mgtest::FindNode(g, "Relu")->input()), (Strings{"$unbound_inputs_MatMul"}));
  EXPECT_EQ(ToVector(mgtest::FindNode(g, "MatMul")->input()), (Strings{"Relu", "Const"}));
  EXPECT_EQ(CollectionValues(out.meta_graph, "unbound_inputs"),
            (Strings{"$unbound_inputs_MatMul"}));
}

// An export's unbound inputs are still unbound when that export is exported again with a node
// option: the collection that tells an importer to map them must not be lost.
TEST(TfScopedExportTest, ReexportKeepsTheUnboundInputs) {
  tensorflow::MetaGraphDef mg = mgtest::MakeHiddenLayersGraph();
  ref::Options o;
  o.scope = "hidden2";
  Output first = ExportBuilt(mg, o);
  std::unique_ptr<Loaded> reloaded = LoadBytes(first.files[0].bytes, "meta-graph-binary");
  for (bool clear_savers : {false, true}) {
    TfExportOptions again;
    again.clear_devices = !clear_savers;
    again.clear_extraneous_savers = clear_savers;
    Output second = RunExport(reloaded->model.get(), again);
    EXPECT_EQ(CollectionValues(second.meta_graph, "unbound_inputs"),
              (Strings{"$unbound_inputs_hidden1/Relu"}));
    EXPECT_EQ(second.info["unboundInputs"].get<Strings>(),
              (Strings{"$unbound_inputs_hidden1/Relu"}));
    EXPECT_TRUE(second.files[0].bytes == first.files[0].bytes);
  }
}

// meta_graph_test.py testClearDevices, through the graph and the graph_def path.
TEST(TfClearDevicesTest, GraphAndGraphDefPaths) {
  tensorflow::MetaGraphDef mg = mgtest::MakeClearDevicesGraph();
  ref::Options o;
  o.clear_devices = true;
  Output out = ExportBuilt(mg, o);
  const tensorflow::GraphDef& g = out.meta_graph.graph_def();
  ASSERT_EQ(g.node_size(), mg.graph_def().node_size());
  for (int i = 0; i < g.node_size(); ++i) {
    EXPECT_EQ(g.node(i).device(), "");
    EXPECT_NE(mg.graph_def().node(i).device(), "") << "the test graph pins every node";
  }
  // _class is untouched without a scope; function bodies keep their devices.
  EXPECT_TRUE(
      MessagesEqual(mg.graph_def().node(2).attr().at("_class"), g.node(2).attr().at("_class")));
  EXPECT_EQ(g.library().function(0).node_def(0).device(), "/device:GPU:0");

  // graph_def given as an option, to a model loaded from a different graph.
  std::unique_ptr<Loaded> other = LoadMeta(mgtest::MakePotentialCycleGraph());
  TfExportOptions options;
  options.clear_devices = true;
  options.graph_def = &mg.graph_def();
  Output via_graph_def = RunExport(other->model.get(), options);
  ASSERT_TRUE(via_graph_def.parsed);
  EXPECT_TRUE(MessagesEqual(g, via_graph_def.meta_graph.graph_def()));
}

// saver_test.py testClearExtraneousSavers: 29 nodes; saver1's export with clearing has 19 and
// a savers collection of one.
TEST(TfClearExtraneousSaversTest, TwoSavers) {
  mgtest::TwoSaverGraph two = mgtest::MakeTwoSaverGraph();
  ref::Options saver0;
  saver0.saver_def = two.saver0;
  Output normal = ExportBuilt(two.meta_graph, saver0);
  EXPECT_EQ(normal.meta_graph.graph_def().node_size(), 29);
  EXPECT_EQ(CollectionValues(normal.meta_graph, "savers").size(), 2u);

  ref::Options saver1;
  saver1.saver_def = two.saver1;
  saver1.clear_savers = true;
  Output cleared = ExportBuilt(two.meta_graph, saver1);
  EXPECT_EQ(cleared.meta_graph.graph_def().node_size(), 19);
  for (const auto& name : two.saver0_nodes)
    EXPECT_EQ(mgtest::FindNode(cleared.meta_graph.graph_def(), name), nullptr);
  for (const auto& name : two.saver1_nodes)
    EXPECT_NE(mgtest::FindNode(cleared.meta_graph.graph_def(), name), nullptr);
  Strings savers = CollectionValues(cleared.meta_graph, "savers");
  ASSERT_EQ(savers.size(), 1u);
  tensorflow::SaverDef kept;
  ASSERT_TRUE(kept.ParseFromString(savers[0]));
  EXPECT_TRUE(MessagesEqual(two.saver1, kept));
  EXPECT_TRUE(MessagesEqual(two.saver1, cleared.meta_graph.saver_def()));
  EXPECT_EQ(cleared.info["excludedNodes"].get<Strings>(), [&] {
    Strings s = two.saver0_nodes;
    std::sort(s.begin(), s.end());
    return s;
  }());
  // The variables collections hold tensor names, which never equal an excluded node name.
  EXPECT_TRUE(MessagesEqual(two.meta_graph.collection_def().at("variables"),
                            cleared.meta_graph.collection_def().at("variables")));

  // With a scope too: the savers collection entry is scoped like the graph.
  ref::Options scoped = saver1;
  scoped.scope = "saver1";
  Output in_scope = ExportBuilt(two.meta_graph, scoped);
  Strings scoped_savers = CollectionValues(in_scope.meta_graph, "savers");
  ASSERT_EQ(scoped_savers.size(), 1u);
  ASSERT_TRUE(kept.ParseFromString(scoped_savers[0]));
  EXPECT_EQ(kept.save_tensor_name(), "control_dependency:0");
  EXPECT_EQ(kept.restore_op_name(), "restore_all");
  EXPECT_EQ(kept.filename_tensor_name(), "Const:0");
  // ... and so is the top-level saver_def (TensorFlow leaves it naming the tensors with the
  // scope, which the export no longer has).
  EXPECT_EQ(in_scope.meta_graph.saver_def().save_tensor_name(), "control_dependency:0");
}

// The module-level export has no saver_def: every saver is extraneous.
TEST(TfClearExtraneousSaversTest, NoSaverDefClearsEverySaver) {
  mgtest::TwoSaverGraph two = mgtest::MakeTwoSaverGraph();
  ref::Options o;
  o.clear_savers = true;
  Output out = ExportBuilt(two.meta_graph, o);
  EXPECT_EQ(out.meta_graph.graph_def().node_size(), 9);
  EXPECT_EQ(out.meta_graph.collection_def().count("savers"), 0u);
}

tensorflow::GraphDef ComplexGraph(const char* in_type, const char* out_type) {
  tensorflow::GraphDef g;
  for (const char* name : {"real", "imag"}) {
    tensorflow::NodeDef* n = mgtest::AddNode(&g, name, "Const");
    mgtest::SetAttr(n, "dtype", std::string("type: ") + in_type);
  }
  tensorflow::NodeDef* c = mgtest::AddNode(&g, "complex", "Complex", {"real", "imag"});
  mgtest::SetAttr(c, "T", std::string("type: ") + in_type);
  mgtest::SetAttr(c, "Tout", std::string("type: ") + out_type);
  return g;
}

// meta_graph_test.py testDefaultAttrStripping, end to end from a GraphDef.
TEST(TfDefaultAttrStrippingTest, ComplexThroughTheFacade) {
  for (bool float64 : {false, true}) {
    SCOPED_TRACE(float64 ? "float64" : "float32");
    tensorflow::GraphDef g = float64 ? ComplexGraph("DT_DOUBLE", "DT_COMPLEX128")
                                     : ComplexGraph("DT_FLOAT", "DT_COMPLEX64");
    std::string bytes = g.SerializeAsString();
    MemorySource source(bytes);
    std::unique_ptr<Model> model =
        Model::Load(&source, LoadOptions{"graph-def-binary", {}, "complex.pb"});
    for (bool strip : {true, false}) {
      SCOPED_TRACE(strip ? "strip" : "no strip");
      json options = {{"stripDefaultAttrs", strip}, {"opRegistry", BytesOption(OpsPbtxt())}};
      MemoryOutputSet out;
      json info = json::parse(model->ExportJson(options.dump(), &out));
      tensorflow::MetaGraphDef mg;
      ASSERT_TRUE(mg.ParseFromString(out.files().at(0).bytes));
      const tensorflow::NodeDef* complex = mgtest::FindNode(mg.graph_def(), "complex");
      ASSERT_NE(complex, nullptr);
      bool removed = strip && !float64;
      EXPECT_EQ(complex->attr().count("T"), removed ? 0u : 1u);
      EXPECT_EQ(complex->attr().count("Tout"), removed ? 0u : 1u);
      // The flag says the option was on, whether or not anything was removed.
      EXPECT_EQ(mg.meta_info_def().stripped_default_attrs(), strip);
      // A GraphDef has no op list of its own; the registry given supplies it.
      EXPECT_EQ(info["strippedOpList"], json::array({"Complex", "Const"}));
      ASSERT_EQ(mg.meta_info_def().stripped_op_list().op_size(), 2);
      EXPECT_TRUE(MessagesEqual(*mgtest::FindOp(mgtest::TfOps(), "Complex"),
                                mg.meta_info_def().stripped_op_list().op(0)));
      if (strip) {
        EXPECT_EQ(info["strippedDefaultAttrs"], removed ? 2 : 0);
      }
    }
  }
}

// testDefaultAttrStrippingUnregisteredOps: graph_def and a pre-filled stripped_op_list given.
TEST(TfDefaultAttrStrippingTest, UnregisteredOpsThroughTheFacade) {
  tensorflow::GraphDef g = Text<tensorflow::GraphDef>(R"pb(node {
                                                             name: "node_with_unreg_op"
                                                             op: "unreg_op"
                                                             attr {
                                                               key: "attr_1"
                                                               value { i: 1 }
                                                             }
                                                           })pb");
  std::string bytes = mgtest::MakePotentialCycleGraph().SerializeAsString();
  MemorySource source(bytes);
  std::unique_ptr<Model> model =
      Model::Load(&source, LoadOptions{"meta-graph-binary", {}, "m.meta"});
  json options = {{"graphDef", BytesOption(g.SerializeAsString())},
                  {"metaInfoDef", {{"strippedOpList", {{"op", json::array({json::object()})}}}}},
                  {"stripDefaultAttrs", true}};
  MemoryOutputSet out;
  json info = json::parse(model->ExportJson(options.dump(), &out));
  tensorflow::MetaGraphDef mg;
  ASSERT_TRUE(mg.ParseFromString(out.files().at(0).bytes));
  ASSERT_EQ(mg.graph_def().node_size(), 1);
  EXPECT_EQ(mg.graph_def().node(0).attr().at("attr_1").i(), 1);
  EXPECT_TRUE(mg.meta_info_def().stripped_default_attrs());
  EXPECT_EQ(info["unknownDefaultOps"], json::array({"unreg_op"}));
  // The caller's op list is kept as given (TensorFlow computes one only when it is empty).
  ASSERT_EQ(mg.meta_info_def().stripped_op_list().op_size(), 1);
  EXPECT_EQ(mg.meta_info_def().stripped_op_list().op(0).ByteSizeLong(), 0u);
}

// ScopedGraphTest.testExportGraphDefWithScope: graph_def and export_scope together.
TEST(TfGraphDefWithScopeTest, Accepted) {
  tensorflow::MetaGraphDef nested = mgtest::MakeNestedNamesGraph();
  std::string bytes = mgtest::MakePotentialCycleGraph().SerializeAsString();
  MemorySource source(bytes);
  std::unique_ptr<Model> model =
      Model::Load(&source, LoadOptions{"meta-graph-binary", {}, "m.meta"});
  json options = {{"graphDef", BytesOption(nested.graph_def().SerializeAsString())},
                  {"exportScope", "hidden1/hidden2/hidden3"}};
  MemoryOutputSet out;
  json info = json::parse(model->ExportJson(options.dump(), &out));
  tensorflow::MetaGraphDef mg;
  ASSERT_TRUE(mg.ParseFromString(out.files().at(0).bytes));
  ASSERT_EQ(mg.graph_def().node_size(), nested.graph_def().node_size());
  for (int i = 0; i < nested.graph_def().node_size(); ++i) {
    tensorflow::NodeDef expected = nested.graph_def().node(i);
    Strings unused;
    expected = ref::RewriteNode(expected, "hidden1/hidden2/hidden3", false, &unused);
    EXPECT_TRUE(MessagesEqual(expected, mg.graph_def().node(i)));
    EXPECT_TRUE(unused.empty());
  }
  EXPECT_EQ(mg.graph_def().node(0).name(), "images");
  // The given graph_def as a protobuf-JSON object works the same.
  std::string json_graph;
  ASSERT_TRUE(google::protobuf::util::MessageToJsonString(nested.graph_def(), &json_graph).ok());
  options["graphDef"] = json::parse(json_graph);
  MemoryOutputSet out2;
  model->ExportJson(options.dump(), &out2);
  EXPECT_TRUE(out2.files().at(0).bytes == out.files().at(0).bytes);
}

// save_debug_info keeps the traces of the exported top-level nodes, keyed by their names
// before stripping; the rebuilt GraphDef itself has no debug_info (TensorFlow drops it).
TEST(TfDebugInfoTest, ScopedExportKeepsTheExportedNodesTraces) {
  tensorflow::MetaGraphDef mg = mgtest::MakePotentialCycleGraph();
  *mg.mutable_graph_def()->mutable_debug_info() = Text<tensorflow::GraphDebugInfo>(R"pb(
    files: "model.py"
    traces {
      key: "MatMul@"
      value { file_line_cols { file_index: 0 line: 3 } }
    }
    traces {
      key: "hidden1/Relu@"
      value { file_line_cols { file_index: 0 line: 5 } }
    }
    traces {
      key: "hidden1/MatMul@"
      value { file_line_cols { file_index: 0 line: 7 } }
    }
    traces {
      key: "hidden1/MatMul@some_function"
      value { file_line_cols { file_index: 0 line: 9 } }
    }
  )pb");
  std::unique_ptr<Loaded> loaded = LoadMeta(mg);
  for (bool as_text : {false, true}) {
    SCOPED_TRACE(as_text ? "text" : "binary");
    TfExportOptions options;
    options.export_scope = "hidden1";
    options.save_debug_info = true;
    options.as_text = as_text;
    options.filename = "out/model.meta";
    Output out = RunExport(loaded->model.get(), options);
    ASSERT_EQ(out.files.size(), 2u);
    EXPECT_EQ(out.files[0].name, "out/model.meta");
    EXPECT_EQ(out.files[1].name, "out/model_debug.meta");
    tensorflow::GraphDebugInfo debug;
    ASSERT_TRUE(as_text ? google::protobuf::TextFormat::ParseFromString(out.files[1].bytes, &debug)
                        : debug.ParseFromString(out.files[1].bytes));
    EXPECT_TRUE(MessagesEqual(Text<tensorflow::GraphDebugInfo>(R"pb(
                                files: "model.py"
                                traces {
                                  key: "hidden1/Relu@"
                                  value { file_line_cols { file_index: 0 line: 5 } }
                                }
                                traces {
                                  key: "hidden1/MatMul@"
                                  value { file_line_cols { file_index: 0 line: 7 } }
                                }
                              )pb"),
                              debug));
    EXPECT_EQ(out.info["debugInfoNodes"], 2);
    EXPECT_FALSE(out.meta_graph.graph_def().has_debug_info());
  }
  // No node option: the graph passes through with its debug_info, and every top-level trace
  // goes to the debug file.
  TfExportOptions plain;
  plain.save_debug_info = true;
  Output out = RunExport(loaded->model.get(), plain);
  ASSERT_EQ(out.files.size(), 2u);
  tensorflow::GraphDebugInfo debug;
  ASSERT_TRUE(debug.ParseFromString(out.files[1].bytes));
  EXPECT_EQ(debug.traces_size(), 3);
  EXPECT_TRUE(MessagesEqual(mg.graph_def().debug_info(), out.meta_graph.graph_def().debug_info()));
}

// TensorFlow's "GraphDef cannot be larger than 2GB", with the limit lowered.
TEST(TfGraphSizeTest, RebuiltGraphOverTheLimitIsTooLarge) {
  EXPECT_EQ(TfExportOptions{}.max_graph_bytes, (uint64_t{1} << 31) - 1);
  tensorflow::MetaGraphDef mg = mgtest::MakeHiddenLayersGraph();
  std::unique_ptr<Loaded> loaded = LoadMeta(mg);
  TfExportOptions options;
  options.export_scope = "hidden1";
  Output fits = RunExport(loaded->model.get(), options);
  ASSERT_TRUE(fits.parsed);
  uint64_t size = fits.meta_graph.graph_def().ByteSizeLong();
  ASSERT_GT(size, 0u);

  options.max_graph_bytes = size;  // exactly at the limit: allowed
  EXPECT_EQ(RunExport(loaded->model.get(), options).files.size(), 1u);

  auto before = Snapshot(*loaded->model);
  for (bool clear_devices_only : {false, true}) {
    TfExportOptions over = options;
    if (clear_devices_only) {
      over.export_scope.clear();
      over.clear_devices = true;
      over.max_graph_bytes = mg.graph_def().ByteSizeLong() - 1;
    } else {
      over.max_graph_bytes = size - 1;
    }
    MemoryOutputSet out;
    try {
      Export(loaded->model.get(), over, &out);
      ADD_FAILURE() << "no error";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kTooLarge);
      EXPECT_NE(std::string(e.what()).find("GraphDef cannot be larger than 2GB"), std::string::npos)
          << e.what();
    }
    EXPECT_TRUE(out.files().empty()) << "nothing is written when the graph is too large";
    EXPECT_TRUE(MessagesEqual(*before, loaded->model->root()));
  }

  // A graph_def given as an option is measured too.
  TfExportOptions given;
  given.graph_def = &mg.graph_def();
  given.max_graph_bytes = mg.graph_def().ByteSizeLong() - 1;
  MemoryOutputSet out;
  EXPECT_THROW(Export(loaded->model.get(), given, &out), Error);
}

// metaInfoDef: fields it sets replace the loaded ones, the rest stay.
TEST(TfMetaInfoDefTest, MergedIntoTheLoadedOne) {
  tensorflow::MetaGraphDef mg = mgtest::MakePotentialCycleGraph();
  mg.mutable_meta_info_def()->set_tensorflow_version("1.15.0");
  mg.mutable_meta_info_def()->set_tensorflow_git_version("v1.15.0-rc3-22-g590d6ee");
  mg.mutable_meta_info_def()->add_tags("serve");
  std::string bytes = mg.SerializeAsString();
  MemorySource source(bytes);
  std::unique_ptr<Model> model =
      Model::Load(&source, LoadOptions{"meta-graph-binary", {}, "m.meta"});
  MemoryOutputSet out;
  model->ExportJson(
      json({{"metaInfoDef", {{"tags", json::array({"train"})}, {"tensorflowVersion", "2.14.0"}}}})
          .dump(),
      &out);
  tensorflow::MetaGraphDef got;
  ASSERT_TRUE(got.ParseFromString(out.files().at(0).bytes));
  EXPECT_EQ(got.meta_info_def().tensorflow_version(), "2.14.0");
  EXPECT_EQ(got.meta_info_def().tensorflow_git_version(), "v1.15.0-rc3-22-g590d6ee");
  EXPECT_EQ(ToVector(got.meta_info_def().tags()), (Strings{"train"}));
}

}  // namespace
}  // namespace graphport::tf

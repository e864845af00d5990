#include "tf/meta_graph/export_meta_graph.h"

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <set>

#include "core/error.h"
#include "core/message_text.h"
#include "proto/unknown_fields.h"
#include "tf/meta_graph/builtin_op_defaults.h"
#include "tf/meta_graph/clear_devices.h"
#include "tf/meta_graph/clear_extraneous_savers.h"
#include "tf/meta_graph/collection_list.h"
#include "tf/meta_graph/collections.h"
#include "tf/meta_graph/debug_info.h"
#include "tf/meta_graph/export_nodes.h"
#include "tf/meta_graph/export_scope.h"
#include "tf/meta_graph/meta_info_def.h"
#include "tf/meta_graph/op_registry.h"
#include "tf/meta_graph/scope.h"
#include "tf/meta_graph/scoped_references.h"
#include "tf/meta_graph/strip_default_attrs.h"
#include "tf/option_names.h"

namespace graphport::tf {
namespace {

using google::protobuf::Arena;
using nlohmann::json;

constexpr char kSaversKey[] = "savers";

// Everything of the loaded MetaGraphDef except its graph, which is rebuilt or lent.
void CopyAllButGraph(const tensorflow::MetaGraphDef& in, tensorflow::MetaGraphDef* out) {
  if (in.has_meta_info_def()) *out->mutable_meta_info_def() = in.meta_info_def();
  if (in.has_saver_def()) *out->mutable_saver_def() = in.saver_def();
  *out->mutable_collection_def() = in.collection_def();
  *out->mutable_signature_def() = in.signature_def();
  *out->mutable_asset_file_def() = in.asset_file_def();
  if (in.has_object_graph_def()) *out->mutable_object_graph_def() = in.object_graph_def();
  proto::CopyUnknownFields(in, out);
}

// Every GraphDef field but the nodes (and the library, which the caller lends or copies).
void CopyGraphHeader(const tensorflow::GraphDef& in, tensorflow::GraphDef* out) {
  // The deprecated `version` (field 3) still appears in old graphs and is kept as it is.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  out->set_version(in.version());
#pragma GCC diagnostic pop
  if (in.has_versions()) *out->mutable_versions() = in.versions();
  if (in.has_debug_info()) *out->mutable_debug_info() = in.debug_info();
  proto::CopyUnknownFields(in, out);
}

}  // namespace

MetaGraphExport BuildMetaGraph(const TfModel& model, const TfExportOptions& options, Arena* arena) {
  MetaGraphExport result;
  // The graph's nodes, whichever form holds them: the export asks no more of them than this.
  std::unique_ptr<ExportNodes> nodes = NodesToExport(model, options);
  const tensorflow::GraphDef& source = nodes->rest();
  const tensorflow::MetaGraphDef* loaded = model.meta_graph();
  auto* mg = Arena::CreateMessage<tensorflow::MetaGraphDef>(arena);
  result.meta_graph = mg;
  if (loaded != nullptr) CopyAllButGraph(*loaded, mg);
  if (options.saver_def != nullptr) *mg->mutable_saver_def() = *options.saver_def;
  const tensorflow::SaverDef* saver = mg->has_saver_def() ? &mg->saver_def() : nullptr;

  // --- Nodes: rewritten when a node option is on, otherwise the graph passes through. ---
  Scope scope(options.export_scope);
  if (scope.empty() && !options.export_scope.empty()) {
    // "/" (or "//") strips to nothing: exporting the whole graph would hide the mistake.
    throw Error(ErrorCode::kInvalidOption, "exportScope '" + CapForMessage(options.export_scope) +
                                               "' names no scope; give a name such as 'tower_0'");
  }
  // The op registry: the caller's, the producer's stripped_op_list, the built-in table.
  OpRegistry registry;
  if (options.op_registry) registry.AddLayer(options.op_registry, option::kOpRegistry, true);
  if (loaded && loaded->meta_info_def().stripped_op_list().op_size() > 0) {
    registry.AddLayer(&loaded->meta_info_def().stripped_op_list(), "stripped_op_list", true);
  }
  registry.AddLayer(&BuiltinDefaultsOpList(), "built-in defaults", false);

  const ForEachNode for_each_node = [&](const NodeVisitor& visit) { nodes->ForEach(visit); };
  // The node passes (node_view.h), in TensorFlow's order: savers left out, then each node
  // rewritten: scoped, then its device cleared.
  NodePasses passes;
  std::set<std::string> excluded;
  if (options.clear_extraneous_savers) {
    auto savers = std::make_shared<ClearExtraneousSavers>(for_each_node, saver);
    excluded = savers->excluded();
    // Keeping every node needs no walk over them.
    if (!excluded.empty()) passes.push_back(std::move(savers));
  }
  if (!scope.empty()) passes.push_back(std::make_shared<ExportScope>(scope));
  if (options.clear_devices) passes.push_back(std::make_shared<ClearDevices>());
  // Last, as TensorFlow strips the graph it built. Nodes held parsed are stripped with the
  // library below, after the stripped op list (TensorFlow lists the ops first); nodes held as
  // bytes as they are written, and the op list reads their loaded bytes.
  std::shared_ptr<StripDefaultAttrs> strip;
  if (options.strip_default_attrs) {
    strip = std::make_shared<StripDefaultAttrs>(registry, nodes->FunctionNames());
  }
  bool rewrite = !scope.empty() || options.clear_devices || options.clear_extraneous_savers;
  tensorflow::GraphDef* graph = nullptr;
  if (rewrite) {
    // TensorFlow's graph_def path keeps only versions and library; the deprecated `version`
    // and `debug_info` are dropped.
    graph = Arena::CreateMessage<tensorflow::GraphDef>(arena);
    if (source.has_versions()) *graph->mutable_versions() = source.versions();
    nodes->AddLibrary(options.strip_default_attrs, graph, arena);
  } else if (options.strip_default_attrs) {
    graph = Arena::CreateMessage<tensorflow::GraphDef>(arena);
    CopyGraphHeader(source, graph);
    nodes->AddLibrary(/*copy=*/true, graph, arena);
  } else {
    // A MetaGraphDef loaded without a graph_def is written without one.
    bool has_graph = options.graph_def != nullptr || loaded == nullptr || loaded->has_graph_def();
    if (has_graph) graph = const_cast<tensorflow::GraphDef*>(&source);
  }
  // The nodes, kept and edited by the passes. list_unbound: the unbound_inputs collection is
  // rebuilt below, so it must list every input an importer has to map: the ones made unbound
  // here and, in a graph that an earlier scoped export wrote, the ones it made (else
  // re-exporting that file with clear_devices loses them). With a scope the second kind is
  // outside it and renamed again, so the list is the same. want_names: only save_debug_info
  // reads the exported node names; a copy of every name costs ~140 bytes a node (0.7x the
  // file of a 200k-node graph) and a third of a plain export's time.
  const bool nodes_rebuilt = rewrite || options.strip_default_attrs;
  ExportedNodes exported;
  nodes->Write(passes, strip, /*list_unbound=*/rewrite, /*want_names=*/options.save_debug_info,
               nodes_rebuilt ? graph : nullptr, &exported);
  if (!scope.empty() && exported.count == 0) {
    throw Error(ErrorCode::kNotFound, "exportScope '" + CapForMessage(scope.name()) +
                                          "' matches no node of the " +
                                          std::to_string(nodes->loaded_count()) + "-node graph");
  }
  nodes->Attach(graph);
  // A graph lent unchanged from the loaded input is smaller than that input, which was under
  // 2 GiB; only a rebuilt or given graph can break TensorFlow's limit (and sizing costs a pass).
  bool graph_is_loaded_one = options.graph_def == nullptr && graph == &source;
  if (graph != nullptr && !graph_is_loaded_one) {
    const uint64_t bytes = nodes->WrittenSize(*graph);
    if (bytes > options.max_graph_bytes) {
      throw Error(ErrorCode::kTooLarge,
                  "GraphDef cannot be larger than 2GB: the exported graph has " +
                      std::to_string(bytes) + " bytes");
    }
  }
  if (graph != nullptr) mg->unsafe_arena_set_allocated_graph_def(graph);

  // --- meta_info_def ---
  if (options.meta_info_def) ApplyMetaInfoDef(*options.meta_info_def, mg->mutable_meta_info_def());
  bool op_list_given =
      options.meta_info_def && options.meta_info_def->stripped_op_list().op_size() > 0;
  bool node_set_changed = !scope.empty() || !excluded.empty() || options.graph_def != nullptr;
  std::vector<std::string> unregistered;
  if (!op_list_given && graph != nullptr &&
      (node_set_changed || mg->meta_info_def().stripped_op_list().op_size() == 0)) {
    tensorflow::OpList ops;
    nodes->BuildOpList(*graph, registry, arena, &ops, &unregistered);
    if (ops.op_size() > 0) {
      *mg->mutable_meta_info_def()->mutable_stripped_op_list() = ops;
    } else if (mg->has_meta_info_def()) {
      mg->mutable_meta_info_def()->clear_stripped_op_list();
    }
  }
  int attrs_stripped = exported.attrs_removed;
  if (strip != nullptr) {
    if (graph != nullptr) StripParsedGraph(*strip, graph, &attrs_stripped);
    mg->mutable_meta_info_def()->set_stripped_default_attrs(true);
  }

  // --- Collections ---
  std::vector<std::string> keys = ExportedCollectionKeys(loaded, options.collection_list);
  mg->clear_collection_def();
  CollectionRules rules{&scope, &excluded};
  for (const auto& key : keys) {
    if (key == kUnboundInputsKey && rewrite) continue;  // rebuilt below, as TensorFlow does
    if (loaded == nullptr || !loaded->collection_def().count(key)) continue;
    tensorflow::CollectionDef out;
    if (key == kSaversKey && options.clear_extraneous_savers) {
      // Only the exported saver remains.
      tensorflow::SaverDef scoped;
      if (saver == nullptr || !ScopeSaverDef(*saver, scope, &scoped)) continue;
      out.mutable_bytes_list()->add_value(scoped.SerializeAsString());
    } else if (!ExportCollection(key, loaded->collection_def().at(key), rules, &out)) {
      continue;
    }
    (*mg->mutable_collection_def())[key] = std::move(out);
  }
  std::vector<std::string> unbound_values = UnboundCollectionValues(exported.unbound);
  bool unbound_wanted =
      !options.collection_list || std::count(keys.begin(), keys.end(), kUnboundInputsKey) > 0;
  if (rewrite && unbound_wanted && !unbound_values.empty()) {
    auto* list = (*mg->mutable_collection_def())[kUnboundInputsKey].mutable_bytes_list();
    for (const auto& name : unbound_values) list->add_value(name);
  }

  // --- Signatures and the saver: what names tensors must name the exported ones. ---
  nlohmann::json dropped = json::array();
  if (!scope.empty()) dropped = ScopeSignaturesAndSaver(scope, mg);

  // --- Debug info ---
  int traced = 0;
  if (options.save_debug_info) {
    result.debug_info = Arena::CreateMessage<tensorflow::GraphDebugInfo>(arena);
    traced = FilterDebugInfo(source.debug_info(), exported.names, result.debug_info);
  }

  json& info = result.info;
  info["nodeCount"] = graph != nullptr ? static_cast<int>(exported.count) : 0;
  nodes->HeldAsBytes(&result.wire_nodes, &result.node_plan);
  result.nodes = std::move(nodes);
  json ops = json::array();
  for (const auto& op : mg->meta_info_def().stripped_op_list().op()) ops.push_back(op.name());
  info["strippedOpList"] = ops;
  info["unregisteredOps"] = unregistered;
  json collections = json::array();
  std::set<std::string> sorted_keys;
  for (const auto& [key, value] : mg->collection_def()) sorted_keys.insert(key);
  for (const auto& key : sorted_keys) collections.push_back(key);
  info["collections"] = collections;
  info["unboundInputs"] = unbound_values;
  info["excludedNodes"] = std::vector<std::string>(excluded.begin(), excluded.end());
  if (strip != nullptr) {
    info["strippedDefaultAttrs"] = attrs_stripped;
    info["unknownDefaultOps"] =
        std::vector<std::string>(strip->unknown_ops().begin(), strip->unknown_ops().end());
  }
  if (options.save_debug_info) info["debugInfoNodes"] = traced;
  if (!scope.empty()) info["droppedReferences"] = dropped;
  return result;
}

}  // namespace graphport::tf

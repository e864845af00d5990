#include "tf/inspect.h"

#include <algorithm>
#include <map>
#include <utility>

#include "tf/dtype.h"
#include "tf/name_scopes.h"
#include "tf/wire_tensor.h"

namespace graphport::tf {
namespace {

using nlohmann::json;

const char* CollectionKind(const tensorflow::CollectionDef& c) {
  switch (c.kind_case()) {
    case tensorflow::CollectionDef::kNodeList:
      return "node_list";
    case tensorflow::CollectionDef::kBytesList:
      return "bytes_list";
    case tensorflow::CollectionDef::kInt64List:
      return "int64_list";
    case tensorflow::CollectionDef::kFloatList:
      return "float_list";
    case tensorflow::CollectionDef::kAnyList:
      return "any_list";
    default:
      return "none";
  }
}

int CollectionSize(const tensorflow::CollectionDef& c) {
  switch (c.kind_case()) {
    case tensorflow::CollectionDef::kNodeList:
      return c.node_list().value_size();
    case tensorflow::CollectionDef::kBytesList:
      return c.bytes_list().value_size();
    case tensorflow::CollectionDef::kInt64List:
      return c.int64_list().value_size();
    case tensorflow::CollectionDef::kFloatList:
      return c.float_list().value_size();
    case tensorflow::CollectionDef::kAnyList:
      return c.any_list().value_size();
    default:
      return 0;
  }
}

json TensorInfoSummary(const tensorflow::TensorInfo& info) {
  json out;
  if (info.has_coo_sparse()) {
    out["name"] = info.coo_sparse().values_tensor_name();
    out["sparse"] = true;
  } else {
    out["name"] = info.name();
  }
  out["dtype"] = tensorflow::DataType_Name(info.dtype());
  if (info.has_tensor_shape() && !info.tensor_shape().unknown_rank()) {
    json dims = json::array();
    for (const auto& d : info.tensor_shape().dim()) dims.push_back(d.size());
    out["shape"] = dims;
  } else {
    out["shape"] = nullptr;
  }
  return out;
}

// Enough for any real model's scopes to be listed whole (Inception v3 has about 500).
constexpr size_t kMaxListedScopes = 2000;

// The scope list as inspect() gives it. Built by moves: it is most of the summary's entries.
json ScopeListJson(NameScopeList* scopes) {
  json list = json::array();
  list.get_ref<json::array_t&>().reserve(scopes->scopes.size());
  for (auto& scope : scopes->scopes) {
    json entry = json::object();
    entry["name"] = std::move(scope.name);
    entry["nodeCount"] = scope.node_count;
    list.push_back(std::move(entry));
  }
  return list;
}

json MetaGraphTags(const tensorflow::MetaGraphDef& mg) {
  json tags = json::array();
  for (const auto& t : mg.meta_info_def().tags()) tags.push_back(t);
  return tags;
}

}  // namespace

uint64_t TensorPayloadBytes(const tensorflow::TensorProto& t) {
  if (!t.tensor_content().empty()) return t.tensor_content().size();
  if (t.string_val_size() > 0) {
    uint64_t total = 0;
    for (const auto& s : t.string_val()) total += s.size();
    return total;
  }
  // Typed fields may hold one value standing for a whole splatted tensor; the logical
  // payload is the full shape.
  uint64_t width = DtypeBytes(t.dtype());
  bool has_values = t.float_val_size() || t.double_val_size() || t.int_val_size() ||
                    t.int64_val_size() || t.bool_val_size() || t.half_val_size() ||
                    t.scomplex_val_size() || t.dcomplex_val_size() || t.uint32_val_size() ||
                    t.uint64_val_size() || !t.float8_val().empty();
  int64_t count = ElementCount(t.tensor_shape());
  return has_values && count > 0 ? width * static_cast<uint64_t>(count) : 0;
}

namespace {

// Ops, constants and scopes of a graph whose nodes are still wire bytes: names and ops come
// from the index; a Const node's tensor size is read from its bytes (parsed, one at a time on
// a scratch arena, only when they are not canonical).
void InspectWireNodes(const WireGraph& wire, json* out) {
  json ops = json::object();
  for (const auto& [op, count] : wire.op_counts()) ops[std::string(op)] = count;
  uint64_t const_count = 0, const_bytes = 0;
  // Nodes name their op by its number in the op list: one number to compare, not a string.
  const auto& op_list = wire.ops();
  const uint32_t const_op =
      static_cast<uint32_t>(std::find(op_list.begin(), op_list.end(), "Const") - op_list.begin());
  const std::string_view bytes = wire.bytes();
  std::vector<std::string_view> names;
  names.reserve(wire.nodes().size());
  google::protobuf::Arena scratch;
  for (size_t i = 0; i < wire.nodes().size(); ++i) {
    const WireNode& node = wire.nodes()[i];
    names.push_back(bytes.substr(node.name_offset, node.name_length));
    if (node.op != const_op) continue;
    ++const_count;
    if (node.canonical) {
      const_bytes += CanonicalConstPayloadBytes(wire.NodeBytes(i));
      continue;
    }
    auto* parsed = google::protobuf::Arena::CreateMessage<tensorflow::NodeDef>(&scratch);
    wire.ParseNode(i, parsed);
    auto it = parsed->attr().find("value");
    if (it != parsed->attr().end() && it->second.has_tensor()) {
      const_bytes += TensorPayloadBytes(it->second.tensor());
    }
    scratch.Reset();
  }
  (*out)["nodeCount"] = wire.nodes().size();
  (*out)["ops"] = std::move(ops);
  (*out)["constants"] = {{"count", const_count}, {"bytes", const_bytes}};
  NameScopeList scopes = NameScopes(names, kMaxListedScopes);
  (*out)["scopes"] = ScopeListJson(&scopes);
  (*out)["scopeCount"] = scopes.total;
}

}  // namespace

json InspectHeader(const TfModel& model) {
  return {{"family", "tensorflow"},
          {"format", KindName(model.format().kind)},
          {"encoding", model.format().text ? "text" : "binary"},
          {"detection", model.detection_reason()},
          {"inputBytes", model.input_bytes()}};
}

json Inspect(const TfModel& model) {
  json out = InspectGraph(model);
  out.update(InspectHeader(model));
  return out;
}

json InspectGraph(const TfModel& model) {
  json out;
  const WireGraph* wire = model.wire_graph();
  const tensorflow::GraphDef& graph = wire != nullptr ? wire->header() : model.graph();

  json producer;
  producer["graphProducer"] = graph.versions().producer();
  producer["minConsumer"] = graph.versions().min_consumer();
  if (const auto* mg = model.meta_graph()) {
    producer["tensorflowVersion"] = mg->meta_info_def().tensorflow_version();
    producer["tensorflowGitVersion"] = mg->meta_info_def().tensorflow_git_version();
  }
  out["producer"] = std::move(producer);

  if (wire != nullptr) {
    InspectWireNodes(*wire, &out);
  } else {
    std::map<std::string, int> ops;
    uint64_t const_count = 0, const_bytes = 0;
    for (const auto& node : graph.node()) {
      ++ops[node.op()];
      if (node.op() == "Const") {
        ++const_count;
        auto it = node.attr().find("value");
        if (it != node.attr().end() && it->second.has_tensor()) {
          const_bytes += TensorPayloadBytes(it->second.tensor());
        }
      }
    }
    out["nodeCount"] = graph.node_size();
    out["ops"] = ops;  // sorted by op name
    out["constants"] = {{"count", const_count}, {"bytes", const_bytes}};

    NameScopeList scopes = NameScopes(graph, kMaxListedScopes);
    out["scopes"] = ScopeListJson(&scopes);
    out["scopeCount"] = scopes.total;
  }

  json functions = json::array();
  if (wire != nullptr) {
    for (const WireFunction& f : wire->functions()) {
      functions.push_back({{"name", f.name}, {"nodeCount", static_cast<int>(f.node_count)}});
    }
  } else {
    for (const auto& f : graph.library().function()) {
      functions.push_back({{"name", f.signature().name()}, {"nodeCount", f.node_def_size()}});
    }
  }
  out["functions"] = std::move(functions);

  json collections = json::array(), signatures = json::array();
  if (const auto* mg = model.meta_graph()) {
    std::map<std::string, const tensorflow::CollectionDef*> sorted_collections;
    for (const auto& [key, c] : mg->collection_def()) sorted_collections[key] = &c;
    for (const auto& [key, c] : sorted_collections) {
      collections.push_back(
          {{"name", key}, {"kind", CollectionKind(*c)}, {"size", CollectionSize(*c)}});
    }
    std::map<std::string, const tensorflow::SignatureDef*> sorted_signatures;
    for (const auto& [key, s] : mg->signature_def()) sorted_signatures[key] = &s;
    for (const auto& [key, s] : sorted_signatures) {
      // nlohmann objects keep their keys sorted, so the summary is deterministic.
      json inputs = json::object(), outputs = json::object();
      for (const auto& [k, v] : s->inputs()) inputs[k] = TensorInfoSummary(v);
      for (const auto& [k, v] : s->outputs()) outputs[k] = TensorInfoSummary(v);
      signatures.push_back({{"name", key},
                            {"methodName", s->method_name()},
                            {"inputs", inputs},
                            {"outputs", outputs}});
    }
    out["tags"] = MetaGraphTags(*mg);
    out["hasSaver"] = mg->has_saver_def();
  } else {
    out["tags"] = json::array();
    out["hasSaver"] = false;
  }
  out["collections"] = std::move(collections);
  out["signatures"] = std::move(signatures);

  json meta_graphs = json::array();
  if (const auto* sm = model.saved_model()) {
    for (int i = 0; i < sm->meta_graphs_size(); ++i) {
      const auto& mg = sm->meta_graphs(i);
      // The selected graph's nodes may still be wire bytes.
      const size_t nodes = wire != nullptr && i == model.selected_meta_graph()
                               ? wire->nodes().size()
                               : static_cast<size_t>(mg.graph_def().node_size());
      meta_graphs.push_back({{"tags", MetaGraphTags(mg)},
                             {"nodeCount", nodes},
                             {"signatureCount", mg.signature_def_size()}});
    }
  }
  out["metaGraphs"] = std::move(meta_graphs);
  out["selectedMetaGraph"] = model.selected_meta_graph();
  return out;
}

}  // namespace graphport::tf

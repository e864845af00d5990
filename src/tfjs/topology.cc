#include "tfjs/topology.h"

#include "core/base64.h"
#include "core/error.h"
#include "core/limits.h"
#include "proto/proto_json.h"
#include "tensorflow/schemas.h"

namespace graphport::tfjs {
namespace {

using nlohmann::json;

bool IsByteArray(const json& value) {
  if (!value.is_array()) return false;
  for (const json& b : value) {
    if (!b.is_number_integer() || b.get<int64_t>() < 0 || b.get<int64_t>() > 255) return false;
  }
  return true;
}

void ToBase64(json* value) {
  std::string bytes;
  bytes.reserve(value->size());
  for (const json& b : *value) bytes.push_back(static_cast<char>(b.get<int>()));
  *value = Base64Encode(bytes);
}

// A bytes field holding an array of byte values becomes base64. An empty array is the empty
// string (a set oneof member), as pb2json wrote a present empty Uint8Array.
void FixBytes(json* object, const char* key) {
  auto it = object->find(key);
  if (it != object->end() && IsByteArray(*it)) ToBase64(&*it);
}

// A repeated bytes field whose elements are arrays of byte values.
void FixBytesList(json* object, const char* key) {
  auto it = object->find(key);
  if (it == object->end() || !it->is_array()) return;
  for (json& element : *it) {
    if (IsByteArray(element)) ToBase64(&element);
  }
}

void FixAttrMap(json* attrs, int depth);

void FixTensor(json* tensor) {
  if (!tensor->is_object()) return;
  FixBytes(tensor, "tensorContent");
  FixBytes(tensor, "tensor_content");
  FixBytesList(tensor, "stringVal");
  FixBytesList(tensor, "string_val");
}

void FixAttrValue(json* value, int depth) {
  if (!value->is_object() || depth > kMaxProtoNesting) return;
  FixBytes(value, "s");
  if (auto t = value->find("tensor"); t != value->end()) FixTensor(&*t);
  if (auto f = value->find("func"); f != value->end() && f->is_object()) {
    if (auto a = f->find("attr"); a != f->end()) FixAttrMap(&*a, depth + 1);
  }
  if (auto l = value->find("list"); l != value->end() && l->is_object()) {
    FixBytesList(&*l, "s");
    if (auto ts = l->find("tensor"); ts != l->end() && ts->is_array()) {
      for (json& t : *ts) FixTensor(&t);
    }
    if (auto fs = l->find("func"); fs != l->end() && fs->is_array()) {
      for (json& f : *fs) {
        if (!f.is_object()) continue;
        if (auto a = f.find("attr"); a != f.end()) FixAttrMap(&*a, depth + 1);
      }
    }
  }
}

void FixAttrMap(json* attrs, int depth) {
  if (!attrs->is_object()) return;
  for (auto& [name, value] : attrs->items()) FixAttrValue(&value, depth);
}

void FixNodes(json* nodes) {
  if (!nodes->is_array()) return;
  for (json& node : *nodes) {
    if (!node.is_object()) continue;
    if (auto a = node.find("attr"); a != node.end()) FixAttrMap(&*a, 0);
  }
}

}  // namespace

void NormalizeCharCodeBytes(json* topology) {
  if (!topology->is_object()) return;
  if (auto nodes = topology->find("node"); nodes != topology->end()) FixNodes(&*nodes);
  auto library = topology->find("library");
  if (library == topology->end() || !library->is_object()) return;
  auto functions = library->find("function");
  if (functions == library->end() || !functions->is_array()) return;
  for (json& function : *functions) {
    if (!function.is_object()) continue;
    for (const char* key : {"nodeDef", "node_def"}) {
      if (auto nodes = function.find(key); nodes != function.end()) FixNodes(&*nodes);
    }
    if (auto a = function.find("attr"); a != function.end()) FixAttrMap(&*a, 0);
    for (const char* key : {"argAttr", "arg_attr"}) {
      auto args = function.find(key);
      if (args == function.end() || !args->is_object()) continue;
      for (auto& [index, arg] : args->items()) {
        if (!arg.is_object()) continue;
        if (auto a = arg.find("attr"); a != arg.end()) FixAttrMap(&*a, 0);
      }
    }
  }
}

void ReadTopology(const json& topology, const std::string& model_json, tensorflow::GraphDef* graph,
                  const std::string& key) {
  ErrorLocation location;
  location.file = model_json;
  if (!topology.is_object()) {
    throw Error(ErrorCode::kParseError, model_json + ": " + key + " is not a JSON object",
                location);
  }
  // Everything but the nodes in one go; the nodes one by one, so errors can name them.
  json rest = json::object();
  for (const auto& [key, value] : topology.items()) {
    if (key != "node") rest[key] = value;
  }
  proto::JsonToMessage(rest, graph, model_json + ": " + key);
  auto nodes = topology.find("node");
  if (nodes == topology.end() || nodes->is_null()) return;
  if (!nodes->is_array()) {
    throw Error(ErrorCode::kParseError, model_json + ": " + key + ".node is not an array",
                location);
  }
  graph->mutable_node()->Reserve(static_cast<int>(nodes->size()));
  for (size_t i = 0; i < nodes->size(); ++i) {
    const json& node = (*nodes)[i];
    std::string name = "#" + std::to_string(i);
    if (node.is_object()) {
      auto n = node.find("name");
      if (n != node.end() && n->is_string()) name = n->get<std::string>();
    }
    try {
      proto::JsonToMessage(
          node, graph->add_node(),
          model_json + ": " + key + ".node[" + std::to_string(i) + "] ('" + name + "')");
    } catch (const Error& e) {
      ErrorLocation where = e.where();
      where.file = model_json;
      where.node = name;
      throw Error(e.code(), e.what(), where);
    }
  }
}

}  // namespace graphport::tfjs

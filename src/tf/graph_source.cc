#include "tf/graph_source.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/content_digest.h"
#include "proto/wire_reader.h"
#include "tf/dtype.h"
#include "tf/field_numbers.h"
#include "tf/freeze/variable_values.h"
#include "tf/inspect.h"
#include "tf/optimize/graph_edit.h"
#include "tf/wire_tensor.h"

namespace graphport::tf {
namespace {

using nlohmann::json;

// Strings longer than this are cut in the details panel (a saver's filename, a docstring).
constexpr size_t kMaxAttrStringChars = 200;
// List attrs show at most this many values, then how many more there are.
constexpr int kMaxListValues = 64;

// "DT_FLOAT" -> "float32": the names the details panel and tf.dtypes use.
std::string DtypeName(int dtype) {
  if (dtype == tensorflow::DT_FLOAT) return "float32";
  if (dtype == tensorflow::DT_DOUBLE) return "float64";
  if (dtype == tensorflow::DT_HALF) return "float16";
  std::string name = tensorflow::DataType_Name(static_cast<tensorflow::DataType>(dtype));
  if (name.empty()) return "dtype " + std::to_string(dtype);
  if (name.rfind("DT_", 0) == 0) name = name.substr(3);
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return name;
}

json ShapeJson(const tensorflow::TensorShapeProto& shape) {
  if (shape.unknown_rank()) return nullptr;
  json dims = json::array();
  for (const auto& d : shape.dim()) dims.push_back(d.size());
  return dims;
}

json TextJson(const std::string& s) {
  if (s.size() <= kMaxAttrStringChars) return s;
  return s.substr(0, kMaxAttrStringChars) + "… (" + std::to_string(s.size()) + " bytes)";
}

// `digest` tells two values apart (the export preview compares a Const before and after by
// it) without showing either.
json TensorJson(const tensorflow::TensorProto& t) {
  return {{"dtype", DtypeName(t.dtype())},
          {"shape", ShapeJson(t.tensor_shape())},
          {"bytes", TensorPayloadBytes(t)},
          {"digest", ContentDigestHex(t.SerializeAsString())}};
}

template <typename List, typename Convert>
json ListJson(const List& list, Convert convert) {
  json out = json::array();
  int shown = 0;
  for (const auto& v : list) {
    if (shown++ == kMaxListValues) {
      out.push_back("… " + std::to_string(list.size() - kMaxListValues) + " more");
      break;
    }
    out.push_back(convert(v));
  }
  return out;
}

// Input "name:2" -> (name, 2); "^name" -> (name, control); "name" -> (name, 0).
struct ParsedInput {
  std::string_view node;
  uint32_t output = 0;
  bool control = false;
};

ParsedInput ParseInput(std::string_view input) {
  ParsedInput out;
  if (!input.empty() && input[0] == '^') {
    out.control = true;
    out.node = input.substr(1);
    return out;
  }
  out.node = input;
  size_t colon = input.rfind(':');
  if (colon != std::string_view::npos && colon + 1 < input.size()) {
    uint64_t number = 0;
    bool digits = true;
    for (char c : input.substr(colon + 1)) {
      if (c < '0' || c > '9' || number > 0xFFFFFFF) {
        digits = false;
        break;
      }
      number = number * 10 + static_cast<uint64_t>(c - '0');
    }
    if (digits) {
      out.node = input.substr(0, colon);
      out.output = static_cast<uint32_t>(number);
    }
  }
  return out;
}

// Calls `add` with each `input` (NodeDef field 3) of the node whose payload is `bytes`, in
// order, without parsing the rest of it: a graph of 200k nodes is indexed in a walk over its
// bytes. The bytes were checked when the graph was indexed; a record that does not fit ends
// the walk.
template <typename Add>
void ForEachWireInput(std::string_view bytes, Add add) {
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  const uint8_t* end = p + bytes.size();
  proto::Record r;
  for (; p < end && proto::ReadRecord(p, end, &r); p = r.end) {
    if (r.number == fields::kNodeInput && r.wire_type == proto::kWireLength) add(r.view());
  }
}

}  // namespace

json AttrSummary(const tensorflow::AttrValue& v) {
  using V = tensorflow::AttrValue;
  switch (v.value_case()) {
    case V::kS:
      return TextJson(v.s());
    case V::kI:
      return v.i();
    case V::kF:
      return v.f();
    case V::kB:
      return v.b();
    case V::kType:
      return DtypeName(v.type());
    case V::kShape:
      return ShapeJson(v.shape());
    case V::kTensor:
      return TensorJson(v.tensor());
    case V::kFunc:
      return {{"function", v.func().name()}};
    case V::kPlaceholder:
      return "$" + v.placeholder();
    case V::kList: {
      const auto& l = v.list();
      if (l.s_size()) return ListJson(l.s(), [](const std::string& s) { return TextJson(s); });
      if (l.i_size()) return ListJson(l.i(), [](int64_t i) { return json(i); });
      if (l.f_size()) return ListJson(l.f(), [](float f) { return json(f); });
      if (l.b_size()) return ListJson(l.b(), [](bool b) { return json(b); });
      if (l.type_size()) return ListJson(l.type(), [](int t) { return json(DtypeName(t)); });
      if (l.shape_size()) return ListJson(l.shape(), [](const auto& s) { return ShapeJson(s); });
      if (l.tensor_size()) return ListJson(l.tensor(), [](const auto& t) { return TensorJson(t); });
      if (l.func_size()) {
        return ListJson(l.func(), [](const auto& f) { return json{{"function", f.name()}}; });
      }
      return json::array();
    }
    default:
      return nullptr;
  }
}

json OutputsFromAttrs(const tensorflow::NodeDef& node) {
  std::vector<json> dtypes;
  if (const auto* list = FindAttr(node, "output_types")) {
    for (int t : list->list().type()) dtypes.push_back(DtypeName(t));
  } else if (const auto* tout = FindAttr(node, "Tout"); tout && tout->has_list()) {
    for (int t : tout->list().type()) dtypes.push_back(DtypeName(t));
  } else {
    for (const char* key : {"dtype", "out_type", "Tout", "T"}) {
      const auto* a = FindAttr(node, key);
      if (a != nullptr && a->value_case() == tensorflow::AttrValue::kType) {
        dtypes.push_back(DtypeName(a->type()));
        break;
      }
    }
  }
  std::vector<json> shapes;
  if (const auto* s = FindAttr(node, "_output_shapes")) {
    for (const auto& shape : s->list().shape()) shapes.push_back(ShapeJson(shape));
  } else if (const auto* value = FindAttr(node, "value"); value && value->has_tensor()) {
    shapes.push_back(ShapeJson(value->tensor().tensor_shape()));
  } else if (const auto* shape = FindAttr(node, "shape"); shape && shape->has_shape()) {
    shapes.push_back(ShapeJson(shape->shape()));
  }
  json out = json::array();
  size_t count = std::max(dtypes.size(), shapes.size());
  for (size_t i = 0; i < count; ++i) {
    json o = {{"index", i}};
    // One dtype attr for several outputs (T of a Split) is every output's dtype.
    if (i < dtypes.size()) {
      o["dtype"] = dtypes[i];
    } else if (dtypes.size() == 1) {
      o["dtype"] = dtypes[0];
    }
    if (i < shapes.size()) o["shape"] = shapes[i];
    out.push_back(std::move(o));
  }
  return out;
}

uint64_t NodeWeightBytes(const tensorflow::NodeDef& node) {
  const std::string& op = node.op();
  if (op == "Const") {
    const auto* value = FindAttr(node, "value");
    return value != nullptr && value->has_tensor() ? TensorPayloadBytes(value->tensor()) : 0;
  }
  if (IsVariableOp(op)) {
    const auto* dtype = FindAttr(node, "dtype");
    const auto* shape = FindAttr(node, "shape");
    if (dtype == nullptr || shape == nullptr || !shape->has_shape()) return 0;
    int64_t count = ElementCount(shape->shape());
    return count > 0 ? DtypeBytes(dtype->type()) * static_cast<uint64_t>(count) : 0;
  }
  return 0;
}

size_t TfGraphSource::NodeCount() const {
  if (model_->wire_graph() != nullptr) return model_->wire_graph()->nodes().size();
  return static_cast<size_t>(model_->graph().node_size());
}

const tensorflow::NodeDef& TfGraphSource::NodeAt(uint32_t i, tensorflow::NodeDef* scratch) const {
  if (const WireGraph* wire = model_->wire_graph()) {
    scratch->Clear();
    wire->ParseNode(i, scratch);
    return *scratch;
  }
  return model_->graph().node(static_cast<int>(i));
}

const GraphIndex& TfGraphSource::Index() {
  if (index_ != nullptr) return *index_;
  auto index = std::make_unique<GraphIndex>('/');
  tensorflow::NodeDef scratch;
  const auto n = static_cast<uint32_t>(NodeCount());
  if (const WireGraph* wire = model_->wire_graph()) {
    // Nodes kept as bytes: names and ops from the wire index, inputs from a walk over each
    // node's bytes; only the nodes that hold weights are parsed, a canonical Const not even.
    for (uint32_t i = 0; i < n; ++i) {
      std::string_view op = wire->op(i);
      uint64_t weights = 0;
      if (op == "Const" && wire->nodes()[i].canonical && !OverridesWeights()) {
        weights = CanonicalConstPayloadBytes(wire->NodeBytes(i));
      } else if (op == "Const" || IsVariableOp(op)) {
        weights = WeightBytes(NodeAt(i, &scratch));
      }
      index->AddNode(wire->name(i), op, weights);
      ForEachWireInput(wire->NodeBytes(i), [&](std::string_view input) {
        ParsedInput p = ParseInput(input);
        index->AddNamedInput(p.node, p.output, p.control);
      });
    }
    index->Resolve();
    index_ = std::move(index);
    return *index_;
  }
  for (uint32_t i = 0; i < n; ++i) {
    const tensorflow::NodeDef& node = NodeAt(i, &scratch);
    index->AddNode(node.name(), node.op(), WeightBytes(node));
    for (const std::string& input : node.input()) {
      ParsedInput p = ParseInput(input);
      index->AddNamedInput(p.node, p.output, p.control);
    }
  }
  index->Resolve();
  index_ = std::move(index);
  return *index_;
}

namespace {

// What NodeDetails and NodeContent both say of a node: its attrs, summarised, and of each input
// the node and output it reads, whether it is a control input, and whether no node has that
// name (`producer` < 0: the index's answer).
json AttrsJson(const tensorflow::NodeDef& node) {
  json attrs = json::object();
  for (const auto& [key, value] : node.attr()) attrs[key] = AttrSummary(value);
  return attrs;
}

json InputJson(const ParsedInput& p, int64_t producer) {
  json item = {{"node", std::string(p.node)}, {"output", p.output}, {"control", p.control}};
  if (producer < 0) item["missing"] = true;
  return item;
}

}  // namespace

json TfGraphSource::NodeDetails(uint32_t i) {
  const GraphIndex& index = Index();
  tensorflow::NodeDef scratch, producer_scratch;
  const tensorflow::NodeDef& node = NodeAt(i, &scratch);
  json inputs = json::array();
  for (const std::string& input : node.input()) {
    ParsedInput p = ParseInput(input);
    const int64_t producer = index.Find(p.node);
    json item = InputJson(p, producer);
    item["name"] = input;
    if (producer >= 0 && !p.control) {
      json outs = OutputsFromAttrs(NodeAt(static_cast<uint32_t>(producer), &producer_scratch));
      for (const json& o : outs) {
        if (o["index"] != p.output) continue;
        if (o.contains("dtype")) item["dtype"] = o["dtype"];
        if (o.contains("shape")) item["shape"] = o["shape"];
      }
    }
    inputs.push_back(std::move(item));
  }
  json out = {{"name", std::string(index.name(i))}, {"op", node.op()},
              {"attrs", AttrsJson(node)},           {"inputs", std::move(inputs)},
              {"outputs", OutputsFromAttrs(node)},  {"weightBytes", index.weight_bytes(i)}};
  if (!node.device().empty()) out["device"] = node.device();
  return out;
}

std::string_view TfGraphSource::NodeRecord(uint32_t i) {
  const WireGraph* wire = model_->wire_graph();
  return wire != nullptr ? wire->NodeBytes(i) : std::string_view();
}

json TfGraphSource::NodeContent(uint32_t i) {
  const GraphIndex& index = Index();
  tensorflow::NodeDef scratch;
  const tensorflow::NodeDef& node = NodeAt(i, &scratch);
  json inputs = json::array();
  for (const std::string& input : node.input()) {
    ParsedInput p = ParseInput(input);
    inputs.push_back(InputJson(p, index.Find(p.node)));
  }
  json out = {{"op", node.op()}, {"attrs", AttrsJson(node)}, {"inputs", std::move(inputs)}};
  if (!node.device().empty()) out["device"] = node.device();
  return out;
}

}  // namespace graphport::tf

#include "tfjs/detect.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <vector>

#include "core/strings.h"

namespace graphport::tfjs {
namespace {

using nlohmann::json;

// Records keys at depth 1 (the model) and depth 2 (inside modelTopology, or inside the first
// weight group of a bare array).
class ShapeScanner : public nlohmann::json_sax<json> {
 public:
  explicit ShapeScanner(JsonShape* shape) : shape_(shape) {}

  bool null() override { return Value(); }
  bool boolean(bool) override { return Value(); }
  bool number_integer(number_integer_t) override { return Value(); }
  bool number_unsigned(number_unsigned_t) override { return Value(); }
  bool number_float(number_float_t, const string_t&) override { return Value(); }
  bool string(string_t& value) override {
    if (depth_ == 1 && key_ == "format") shape_->format = value;
    return Value();
  }
  bool binary(binary_t&) override { return Value(); }
  bool start_object(std::size_t) override {
    Enter(true);
    return true;
  }
  bool key(string_t& value) override {
    if (depth_ == 1) {
      key_ = value;
      if (value == "modelTopology") shape_->has_topology = true;
      if (value == "weightsManifest") shape_->has_manifest = true;
    } else if (depth_ == 2 && in_topology_) {
      if (value == "node") shape_->topology_has_node = true;
      if (value == "model_config" || value == "class_name" || value == "keras_version") {
        shape_->topology_is_keras = true;
      }
    } else if (depth_ == 2 && in_first_group_) {
      if (value == "paths") paths_ = true;
      if (value == "weights") weights_ = true;
      shape_->groups_look_right = paths_ && weights_;
    }
    return true;
  }
  bool end_object() override { return Leave(); }
  bool start_array(std::size_t) override {
    Enter(false);
    return true;
  }
  bool end_array() override { return Leave(); }
  bool parse_error(std::size_t position, const std::string&,
                   const nlohmann::detail::exception&) override {
    failed_at_ = position;
    return false;
  }
  size_t failed_at() const { return failed_at_; }

 private:
  bool Value() { return true; }
  void Enter(bool object) {
    ++depth_;
    if (depth_ == 1 && !object) shape_->top_array = true;
    if (depth_ == 2 && object && key_ == "modelTopology" && !shape_->top_array) {
      in_topology_ = true;
    }
    if (depth_ == 2 && object && shape_->top_array && ++groups_ == 1) in_first_group_ = true;
  }
  bool Leave() {
    if (depth_ == 2) in_topology_ = in_first_group_ = false;
    --depth_;
    return true;
  }

  JsonShape* shape_;
  int depth_ = 0;
  std::string key_;
  bool in_topology_ = false;
  bool in_first_group_ = false;
  int groups_ = 0;
  bool paths_ = false, weights_ = false;
  size_t failed_at_ = 0;
};

}  // namespace

JsonShape ScanJsonShape(std::string_view prefix, bool complete) {
  JsonShape shape;
  ShapeScanner scanner(&shape);
  bool ok = json::sax_parse(prefix.begin(), prefix.end(), &scanner);
  // A prefix cut short fails only at its very end; that is not bad JSON.
  shape.json = ok || (!complete && scanner.failed_at() >= prefix.size());
  shape.failed_at = scanner.failed_at();
  return shape;
}

Detection DetectGraphModel(Probe* probe) {
  Detection result;
  std::vector<std::string> candidates;
  for (const std::string& name : probe->names()) {
    if (EndsWith(name, ".json")) candidates.push_back(name);
  }
  if (candidates.empty() && probe->names().size() == 1) candidates = probe->names();
  if (candidates.empty()) {
    result.reason = "TensorFlow.js: no .json input (a graph model is model.json + shards)";
    return result;
  }
  // The file the caller pointed at, then model.json, then the shallowest path, then by name.
  const std::string& preferred = probe->inputs().preferred();
  std::stable_sort(
      candidates.begin(), candidates.end(), [&](const std::string& a, const std::string& b) {
        if ((a == preferred) != (b == preferred)) return a == preferred;
        bool am = InputBaseName(a) == "model.json";
        bool bm = InputBaseName(b) == "model.json";
        if (am != bm) return am;
        return std::count(a.begin(), a.end(), '/') < std::count(b.begin(), b.end(), '/');
      });
  std::string reasons;
  Detection fallback;
  for (const std::string& name : candidates) {
    JsonShape shape = ScanJsonShape(probe->Prefix(name), probe->Complete(name));
    std::string shown = probe->inputs().DisplayName(name);
    if (!shape.json) {
      reasons += shown + ": not JSON (stops at byte " + std::to_string(shape.failed_at) + "); ";
      continue;
    }
    Detection d;
    d.format = "tfjs-graph-model";
    d.encoding = "json";
    d.primary = name;
    if (shape.has_topology && shape.topology_has_node && shape.format != "layers-model") {
      d.score = Detection::kByStructure;
      d.reason = shown + ": a TensorFlow.js graph model (modelTopology with a node list" +
                 std::string(shape.has_manifest ? ", weightsManifest" : "") +
                 (shape.format.empty() ? "" : ", format \"" + shape.format + "\"") + ")";
      return d;
    }
    if (fallback.score == 0 && (shape.topology_is_keras || shape.format == "layers-model")) {
      d.score = Detection::kByStructure;
      d.reason = shown + ": a TensorFlow.js Keras layers model, not a graph model";
      fallback = d;
    } else if (fallback.score == 0 && ((shape.top_array && shape.groups_look_right) ||
                                       (shape.has_manifest && !shape.has_topology))) {
      d.score = Detection::kByStructure;
      d.reason = shown + ": a TensorFlow.js weights manifest with no modelTopology";
      fallback = d;
    } else {
      reasons += shown + ": JSON without modelTopology/weightsManifest; ";
    }
  }
  if (fallback.score != 0) return fallback;
  result.reason = "TensorFlow.js: " + reasons.substr(0, reasons.size() - 2);
  return result;
}

}  // namespace graphport::tfjs

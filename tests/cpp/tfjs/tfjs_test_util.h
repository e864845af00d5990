// Helpers for the TF.js tests: a folder of the corpus as an input set, and a small builder
// of model.json files with their shards.
#ifndef GRAPHPORT_TESTS_CPP_TFJS_TFJS_TEST_UTIL_H_
#define GRAPHPORT_TESTS_CPP_TFJS_TFJS_TEST_UTIL_H_

#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/input_set.h"
#include "core/output_set.h"
#include "tensorflow/meta_graph.pb.h"
#include "test_util.h"
#include "tfjs/read_graph_model.h"

namespace graphport::testing {

// Input files whose bytes the set owns (MemoryInputSet only borrows them).
class OwnedInputSet {
 public:
  explicit OwnedInputSet(std::string label = "model") : set_(label) {}
  void Add(const std::string& name, std::string bytes) {
    bytes_[name] = std::move(bytes);
    set_.Add(name, bytes_[name]);
  }
  void AddFolder(const fs::path& folder) {
    for (const auto& entry : fs::recursive_directory_iterator(folder)) {
      if (!entry.is_regular_file()) continue;
      Add(fs::relative(entry.path(), folder).generic_string(), ReadFile(entry.path()));
    }
  }
  MemoryInputSet* set() { return &set_; }
  const std::string& bytes(const std::string& name) { return bytes_.at(name); }

 private:
  std::map<std::string, std::string> bytes_;  // node-based: views stay valid
  MemoryInputSet set_;
};

// The files an export wrote, as the inputs of a read.
inline void AddOutputs(const MemoryOutputSet& out, OwnedInputSet* inputs) {
  for (const auto& file : out.files()) inputs->Add(file.name, file.bytes);
}

// Reads the model.json `name` of `inputs`.
inline tfjs::ReadResult ReadModel(OwnedInputSet* inputs, tensorflow::MetaGraphDef* meta,
                                  const tfjs::ReadOptions& options = {},
                                  const std::string& name = "model.json") {
  MemorySource source(inputs->bytes(name));
  return tfjs::ReadGraphModel(&source, inputs->set(), name, options, meta);
}

template <typename T>
std::string Bytes(const std::vector<T>& values) {
  std::string out(values.size() * sizeof(T), '\0');
  if (!values.empty()) std::memcpy(out.data(), values.data(), out.size());
  return out;
}

template <typename T>
std::vector<T> Values(const std::string& bytes) {
  std::vector<T> out(bytes.size() / sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), bytes.data(), out.size() * sizeof(T));
  return out;
}

// The JSON of a Const node whose value moved to the manifest, as tfjs-converter leaves it.
inline nlohmann::json ConstNode(const std::string& name, const std::string& dtype,
                                const std::vector<int64_t>& shape) {
  nlohmann::json dims = nlohmann::json::array();
  for (int64_t d : shape) {
    dims.push_back(d == 0 ? nlohmann::json::object() : nlohmann::json{{"size", std::to_string(d)}});
  }
  nlohmann::json tensor_shape = nlohmann::json::object();
  if (!shape.empty()) tensor_shape["dim"] = dims;
  return {{"name", name},
          {"op", "Const"},
          {"attr",
           {{"dtype", {{"type", dtype}}},
            {"value", {{"tensor", {{"dtype", dtype}, {"tensorShape", tensor_shape}}}}}}}};
}

// Splits `bytes` into shards of `shard_size` named group1-shard<i>of<n>.bin.
inline std::vector<std::pair<std::string, std::string>> Shard(const std::string& bytes,
                                                              size_t shard_size) {
  std::vector<std::pair<std::string, std::string>> shards;
  size_t n = (bytes.size() + shard_size - 1) / shard_size;
  for (size_t i = 0; i < n; ++i) {
    shards.emplace_back("group1-shard" + std::to_string(i + 1) + "of" + std::to_string(n) + ".bin",
                        bytes.substr(i * shard_size, shard_size));
  }
  return shards;
}

}  // namespace graphport::testing

#endif  // GRAPHPORT_TESTS_CPP_TFJS_TFJS_TEST_UTIL_H_

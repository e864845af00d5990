// Helpers for the MegEngine family's tests: the corpus files, loading and exporting through
// the Family interface with in-memory inputs and outputs, and the generated verifiers.
#ifndef GRAPHPORT_TESTS_CPP_MGE_MGE_TEST_UTIL_H_
#define GRAPHPORT_TESTS_CPP_MGE_MGE_TEST_UTIL_H_

#include <flatbuffers/flatbuffers.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"
#include "core/family.h"
#include "core/input_set.h"
#include "core/output_set.h"
#include "mge/family.h"
#include "mge/schema/graph_v1_generated.h"
#include "mge/schema/model_v2_generated.h"

#ifndef GRAPHPORT_CORPUS_DIR
#error "GRAPHPORT_CORPUS_DIR must be defined by tests/cpp/CMakeLists.txt"
#endif

namespace graphport::mge::testing {

inline constexpr char kConvFile[] = "mgeconvert_HEAD_test_mge_convolution-backward-filter.mge";
inline constexpr char kReshapeFile[] = "mgeconvert_e4a1261_test_test_model.mge";
inline const std::vector<std::string>& CorpusFiles() {
  static const std::vector<std::string> files = {kConvFile, kReshapeFile};
  return files;
}

inline std::string ReadCorpusFile(const std::string& name) {
  std::string path = std::string(GRAPHPORT_CORPUS_DIR) + "/mge/" + name;
  std::ifstream in(path, std::ios::binary);
  if (!in.good()) {
    ADD_FAILURE() << "corpus file missing: " << path << " (the shared corpus must sit beside "
                  << "the clone as ../shared/corpus; corpus tests fail, never skip)";
    return "";
  }
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline std::string ReadResearchFile(const std::string& name) {
  std::string path = std::string(GRAPHPORT_CORPUS_DIR) + "/../research/" + name;
  std::ifstream in(path, std::ios::binary);
  if (!in.good()) ADD_FAILURE() << "research file missing: " << path;
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// A model loaded through the Family interface, with the inputs it was read from.
struct Loaded {
  std::unique_ptr<MemoryInputSet> inputs;
  std::string bytes;
  Detection detection;
  std::unique_ptr<FamilyModel> model;
};

// Detects and reads `bytes` as the input `name`; throws graphport::Error like the family.
inline Loaded Load(std::string bytes, const nlohmann::json& load_options = nullptr,
                   const std::string& name = "model.mge") {
  Loaded l;
  l.bytes = std::move(bytes);
  l.inputs = std::make_unique<MemoryInputSet>("test");
  l.inputs->Add(name, l.bytes);
  Probe probe(l.inputs.get());
  const Family& family = MegengineFamily();
  l.detection = family.Detect(&probe, "");
  if (l.detection.score == 0) {
    throw Error(ErrorCode::kUnknownFormat, "not detected: " + l.detection.reason);
  }
  l.model = family.Read(&probe, l.detection,
                        OptionValues::Read(family.load_options(), load_options, "load"));
  return l;
}

struct Exported {
  nlohmann::json info;
  std::vector<MemoryOutputSet::File> files;
  const std::string& model() const { return files.at(0).bytes; }
};

inline Exported Export(FamilyModel* model, const nlohmann::json& options) {
  MemoryOutputSet out;
  Exported e;
  e.info = model->Export(OptionValues::Read(MegengineFamily().export_options(), options, "export"),
                         &out);
  e.files = out.files();
  return e;
}

// The original options of the corpus files: FBS v1, MGBS header, default keep options.
inline nlohmann::json CompatV1Options() {
  return {{"dumpFormat", "FBS"}, {"compatOlderVersion", "8.14"}};
}

// `options` with graphport's asLoaded: the loaded graph and metadata written as they are (no
// optimize_for_inference, no fresh Network.dump metadata), for the tests of the writers
// themselves and of the byte-identical re-dumps.
inline nlohmann::json AsLoaded(nlohmann::json options = nlohmann::json::object()) {
  options["asLoaded"] = true;
  return options;
}

// The size-prefixed flatbuffer of an FBS v1 file (after the header and values), aligned.
struct V1Flatbuffer {
  std::vector<uint64_t> storage;
  size_t size = 0;
  const uint8_t* data() const { return reinterpret_cast<const uint8_t*>(storage.data()); }
};

inline V1Flatbuffer V1FlatbufferOf(const std::string& file) {
  V1Flatbuffer fb;
  size_t header = file.compare(0, 4, "MGBC") == 0 ? 24 : 16;
  uint64_t offset = 0;
  std::memcpy(&offset, file.data() + header - 8, 8);
  size_t start = header + offset;
  fb.size = file.size() - start;
  fb.storage.resize((fb.size + 7) / 8);
  std::memcpy(fb.storage.data(), file.data() + start, fb.size);
  return fb;
}

inline bool VerifiesAsV1(const std::string& file) {
  V1Flatbuffer fb = V1FlatbufferOf(file);
  flatbuffers::Verifier verifier(fb.data(), fb.size);
  return mgb::serialization::fbs::VerifySizePrefixedGraphBuffer(verifier);
}

inline bool VerifiesAsV2(const std::string& file) {
  std::vector<uint64_t> storage((file.size() + 7) / 8);
  std::memcpy(storage.data(), file.data(), file.size());
  flatbuffers::Verifier verifier(reinterpret_cast<const uint8_t*>(storage.data()), file.size());
  return mgb::serialization::fbs::v2::VerifySizePrefixedModelBuffer(verifier);
}

// Where the graph outputs' original_id fields of a dump lie, as (byte offset in the file,
// size); in FBS v1 also the graph's hash, which covers them.
inline std::vector<std::pair<size_t, size_t>> OriginalIdFields(const std::string& file) {
  namespace fbs = mgb::serialization::fbs;
  std::vector<std::pair<size_t, size_t>> fields;
  if (file.size() >= 8 && (file.compare(0, 4, "MGBC") == 0 || file.compare(0, 4, "MGBS") == 0)) {
    V1Flatbuffer fb = V1FlatbufferOf(file);
    const size_t start = file.size() - fb.size;
    const auto* graph = fbs::GetSizePrefixedGraph(fb.data());
    if (graph->output_vars_idx() == nullptr) return fields;
    for (const auto* v : *graph->output_vars_idx()) {
      fields.emplace_back(start + (reinterpret_cast<const uint8_t*>(v) - fb.data()) + 4, 4);
    }
    // Generated tables hide their Table base; the field is found through it.
    const uint8_t* hash =
        reinterpret_cast<const flatbuffers::Table*>(graph)->GetAddressOf(fbs::Graph::VT_HASH);
    if (hash != nullptr) fields.emplace_back(start + (hash - fb.data()), 8);
    return fields;
  }
  std::vector<uint64_t> storage((file.size() + 7) / 8);
  std::memcpy(storage.data(), file.data(), file.size());
  const auto* base = reinterpret_cast<const uint8_t*>(storage.data());
  const auto* model = fbs::v2::GetSizePrefixedModel(base);
  if (model->output_vars_idx() == nullptr) return fields;
  for (const auto* v : *model->output_vars_idx()) {
    const uint8_t* field = reinterpret_cast<const flatbuffers::Table*>(v)->GetAddressOf(
        fbs::v2::OutputVar::VT_ORIGINAL_ID);
    if (field != nullptr) fields.emplace_back(field - base, 4);
  }
  return fields;
}

// `file` with the graph outputs' original_id of `other`, a dump laid out alike: MegEngine's
// re-dump of its own dump numbers the graph's vars anew (ids follow load order and what the
// passes spend), so a re-dump is the same file but for these, as MegEngine's is.
inline std::string WithOriginalIdsOf(std::string file, const std::string& other) {
  const std::vector<std::pair<size_t, size_t>> fields = OriginalIdFields(file);
  if (fields != OriginalIdFields(other) || file.size() != other.size()) return file;
  for (const auto& [offset, size] : fields) file.replace(offset, size, other, offset, size);
  return file;
}

// inspect()'s count with that label (counts are [label, number] pairs).
inline nlohmann::json Count(const nlohmann::json& inspect, const std::string& label) {
  for (const auto& pair : inspect["counts"]) {
    if (pair[0] == label) return pair[1];
  }
  ADD_FAILURE() << "no count " << label;
  return nullptr;
}

// The parts of inspect() that describe the graph itself, not the file it came from: equal
// for two dumps of one graph in any format.
inline nlohmann::json GraphContent(const nlohmann::json& inspect) {
  nlohmann::json ops = nlohmann::json::array();
  for (const auto& op : inspect["megengine"]["operators"]) {
    nlohmann::json o = {{"class", op["class"]},         {"params", op["params"]},
                        {"tensors", op["tensors"]},     {"blobs", op["blobs"]},
                        {"compNodes", op["compNodes"]}, {"outputDtype", op["outputDtype"]}};
    nlohmann::json in = nlohmann::json::array();
    for (const auto& v : op["inputs"]) in.push_back(v["id"]);
    nlohmann::json out = nlohmann::json::array();
    for (const auto& v : op["outputs"]) out.push_back(v["id"]);
    o["inputs"] = in;
    o["outputs"] = out;
    ops.push_back(o);
  }
  nlohmann::json outputs = nlohmann::json::array();
  for (const auto& v : inspect["megengine"]["outputs"]) outputs.push_back(v["id"]);
  return {{"operators", ops}, {"outputs", outputs}};
}

}  // namespace graphport::mge::testing

#endif  // GRAPHPORT_TESTS_CPP_MGE_MGE_TEST_UTIL_H_

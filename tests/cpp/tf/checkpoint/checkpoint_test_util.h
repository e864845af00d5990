// What the checkpoint tests share: every real checkpoint index we have (TF Serving's under
// corpus/tf, and ../shared/savedmodels), and input sets that hold a checkpoint's files.
#ifndef GRAPHPORT_TESTS_CPP_TF_CHECKPOINT_CHECKPOINT_TEST_UTIL_H_
#define GRAPHPORT_TESTS_CPP_TF_CHECKPOINT_CHECKPOINT_TEST_UTIL_H_

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/input_set.h"
#include "test_util.h"

namespace graphport::testing {

inline fs::path SavedModelsDir() { return CorpusDir().parent_path() / "savedmodels"; }

// Every variables.index under corpus/tf and savedmodels/, sorted. When either is missing the
// list names it, so the tests fail on it instead of running over nothing.
inline std::vector<fs::path> CheckpointIndexes() {
  std::vector<fs::path> out;
  for (const fs::path& root : {CorpusDir() / "tf", SavedModelsDir()}) {
    if (!fs::is_directory(root)) {
      out.push_back(root / "missing");
      continue;
    }
    for (const auto& entry : fs::recursive_directory_iterator(root)) {
      if (entry.is_regular_file() && entry.path().filename() == "variables.index") {
        out.push_back(entry.path());
      }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

inline std::string IndexTestName(const ::testing::TestParamInfo<fs::path>& info) {
  std::string rel = fs::relative(info.param, CorpusDir().parent_path()).generic_string();
  std::string name;
  for (char c : rel) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

// The files of a checkpoint held in memory, as a variables/ folder's input set names them
// ("variables/variables.index", ...).
class HeldCheckpoint {
 public:
  explicit HeldCheckpoint(std::map<std::string, std::string> files, std::string label = "model")
      : files_(std::move(files)), inputs_(std::make_unique<MemoryInputSet>(std::move(label))) {
    for (const auto& [name, bytes] : files_) inputs_->Add(name, bytes);
  }
  HeldCheckpoint(HeldCheckpoint&&) = default;
  HeldCheckpoint(const HeldCheckpoint&) = delete;
  HeldCheckpoint& operator=(const HeldCheckpoint&) = delete;
  // The variables/ folder next to `index` (a variables.index file).
  static HeldCheckpoint FromIndex(const fs::path& index) {
    std::map<std::string, std::string> files;
    for (const auto& entry : fs::directory_iterator(index.parent_path())) {
      files["variables/" + entry.path().filename().string()] = ReadFile(entry.path());
    }
    return HeldCheckpoint(std::move(files), index.parent_path().parent_path().string());
  }
  MemoryInputSet* inputs() { return inputs_.get(); }
  std::map<std::string, std::string>& files() { return files_; }
  // After changing files(): a fresh input set over them.
  void Refresh() {
    inputs_ = std::make_unique<MemoryInputSet>(inputs_->label());
    for (const auto& [name, bytes] : files_) inputs_->Add(name, bytes);
  }

 private:
  std::map<std::string, std::string> files_;
  std::unique_ptr<MemoryInputSet> inputs_;
};

}  // namespace graphport::testing

#endif  // GRAPHPORT_TESTS_CPP_TF_CHECKPOINT_CHECKPOINT_TEST_UTIL_H_

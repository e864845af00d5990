// Every input of tests/fuzz/regressions/TARGET/ through the body of libFuzzer target TARGET
// (tests/fuzz/targets/): the crashes found and fixed, and a few small inputs per target kept
// from fuzzing runs, so the properties the fuzzers check hold in every build, fuzzer or not.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "fuzz/targets/fuzz_targets.h"
#include "test_util.h"

#ifndef GRAPHPORT_FUZZ_REGRESSIONS_DIR
#error "GRAPHPORT_FUZZ_REGRESSIONS_DIR must be defined by tests/cpp/CMakeLists.txt"
#endif

namespace graphport::fuzz {
namespace {

namespace fs = std::filesystem;
using Body = std::string (*)(std::string_view);

// The fuzz targets of tests/fuzz/CMakeLists.txt, by the name of their regressions folder.
const std::map<std::string, Body>& Targets() {
  static const auto* targets = new std::map<std::string, Body>{
      {"fuzz_tf_binary", &TfBinary},
      {"fuzz_tf_text", &TfText},
      {"fuzz_tf_json", &TfJson},
      {"fuzz_tf_export", &TfExport},
      {"fuzz_tf_saved_model_folder", &TfSavedModelFolder},
      {"fuzz_tf_checkpoint", &TfCheckpoint},
      {"fuzz_tf_freeze", &TfFreeze},
      {"fuzz_mge", &Mge},
      {"fuzz_tfjs", &Tfjs},
  };
  return *targets;
}

fs::path RegressionsDir() { return fs::path(GRAPHPORT_FUZZ_REGRESSIONS_DIR); }

struct Input {
  std::string target;
  fs::path path;
};

void PrintTo(const Input& input, std::ostream* os) {
  *os << input.target << "/" << input.path.filename().string();
}

std::vector<Input> AllInputs() {
  std::vector<Input> inputs;
  for (const auto& [target, body] : Targets()) {
    fs::path dir = RegressionsDir() / target;
    if (!fs::is_directory(dir)) continue;
    for (const auto& entry : fs::directory_iterator(dir)) {
      if (entry.is_regular_file()) inputs.push_back({target, entry.path()});
    }
  }
  std::sort(inputs.begin(), inputs.end(),
            [](const Input& a, const Input& b) { return a.path < b.path; });
  return inputs;
}

TEST(FuzzRegressionsTest, EveryTargetHasInputsAndEveryFolderATarget) {
  for (const auto& [target, body] : Targets()) {
    fs::path dir = RegressionsDir() / target;
    ASSERT_TRUE(fs::is_directory(dir)) << dir << " is missing";
    EXPECT_FALSE(fs::is_empty(dir)) << dir << " holds no input";
  }
  for (const auto& entry : fs::directory_iterator(RegressionsDir())) {
    if (!entry.is_directory()) continue;
    EXPECT_EQ(Targets().count(entry.path().filename().string()), 1u)
        << entry.path() << " names no fuzz target";
  }
}

class FuzzReplayTest : public ::testing::TestWithParam<Input> {};

TEST_P(FuzzReplayTest, HoldsEveryProperty) {
  const Input& input = GetParam();
  std::string bytes = testing::ReadFile(input.path);
  EXPECT_EQ(Targets().at(input.target)(bytes), "") << input.path;
}

std::string TestName(const ::testing::TestParamInfo<Input>& info) {
  std::string name = info.param.target + "_" + info.param.path.filename().string();
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Regressions, FuzzReplayTest, ::testing::ValuesIn(AllInputs()), TestName);

}  // namespace
}  // namespace graphport::fuzz

// The sweep: every corpus file, truncated at every byte (at 2,000 offsets for files over
// 20 KB) and with 500 seeded bit flips, goes through harness::Exercise. Each copy loads,
// inspects and exports (and each export loads back as itself), or fails with a
// graphport::Error that is not INTERNAL. Afterwards the good file still loads the same.
// Each file prints its outcome table; run the binary whole for the table of the corpus.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "api/model.h"
#include "core/input_set.h"
#include "core/output_set.h"
#include "harness/exercise.h"
#include "test_util.h"

namespace graphport {
namespace {

namespace fs = std::filesystem;

constexpr size_t kEveryByteUpTo = 20 * 1024;
constexpr size_t kOffsetsOfBigFiles = 2000;
constexpr int kBitFlips = 500;

using Table = std::map<std::string, uint64_t>;

Table& CorpusTable() {
  static Table table;
  return table;
}

std::string FormatTable(const Table& table) {
  std::string out;
  for (const auto& [result, count] : table) {
    out += (out.empty() ? "" : "  ") + result + "=" + std::to_string(count);
  }
  return out;
}

// Prints the whole corpus's table once every test of this process has run.
class PrintCorpusTable : public ::testing::Environment {
 public:
  void TearDown() override {
    if (!CorpusTable().empty())
      std::cout << "sweep table (corpus): " << FormatTable(CorpusTable()) << "\n";
  }
};
const auto* const kPrinter = ::testing::AddGlobalTestEnvironment(new PrintCorpusTable);

std::vector<std::string> CorpusFiles() {
  std::vector<std::string> out;
  if (!testing::CorpusPresent()) return {"missing-corpus"};
  for (const auto& entry : fs::recursive_directory_iterator(testing::CorpusDir())) {
    if (entry.is_regular_file()) {
      out.push_back(fs::relative(entry.path(), testing::CorpusDir()).generic_string());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// splitmix64: a seeded sequence, the same on every run and platform.
uint64_t NextRandom(uint64_t* state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

uint64_t SeedOf(const std::string& name) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (unsigned char c : name) h = (h ^ c) * 1099511628211ull;
  return h;
}

// Each family's exports beside TensorFlow's, which harness::Exercise checks in depth.
std::vector<std::string> ExportsOf(const std::string& family) {
  if (family == "megengine") {
    return {"{}", R"({"dumpFormat": "FBS", "compatOlderVersion": "8.14"})"};
  }
  return {"{}"};
}

// The family that reads `bytes` whole, or "" when none does.
std::string FamilyOf(const std::string& bytes) {
  try {
    auto inputs = std::make_unique<MemoryInputSet>("input");
    inputs->Add("input", bytes);
    return Model::Load(std::move(inputs), nlohmann::json::object())->family().id();
  } catch (const Error&) {
    return "";
  }
}

// A copy of another family's file goes through the API, as the WebAssembly sweep does: load,
// inspect, and that family's exports.
harness::Outcome ExerciseThroughApi(const std::string& bytes) {
  harness::Outcome outcome;
  try {
    auto inputs = std::make_unique<MemoryInputSet>("input");
    inputs->Add("input", bytes);
    auto model = Model::Load(std::move(inputs), nlohmann::json::object());
    (void)nlohmann::json::parse(model->InspectJson()).dump();
    for (const std::string& options : ExportsOf(model->family().id())) {
      MemoryOutputSet out;
      model->ExportJson(options, &out);
    }
    outcome.result = "ok";
  } catch (const Error& e) {
    outcome.result = ErrorCodeName(e.code());
    if (e.code() == ErrorCode::kInternal) outcome.failure = std::string("INTERNAL: ") + e.what();
  } catch (const std::exception& e) {
    outcome.result = "other exception";
    outcome.failure = std::string("not a graphport::Error: ") + e.what();
  }
  return outcome;
}

class SweepTest : public ::testing::TestWithParam<std::string> {};

TEST_P(SweepTest, TruncatedAndBitFlippedCopiesFailCleanly) {
  const std::string bytes = testing::ReadFile(testing::CorpusDir() / GetParam());
  harness::Outcome original = harness::Exercise(bytes);
  ASSERT_NE(GetParam(), "missing-corpus") << testing::MissingCorpusMessage();
  EXPECT_EQ(original.failure, "") << "the file itself";
  std::string summary_before;
  if (original.result == "ok") {
    MemorySource source(bytes);
    summary_before = tf::Inspect(*tf::TfModel::Load(&source, {})).dump();
  }

  // A file of another family (MegEngine) is swept through its own reader and writers.
  const std::string family = original.result == "ok" ? "tensorflow" : FamilyOf(bytes);
  const bool other_family = !family.empty() && family != "tensorflow";

  Table table;
  std::vector<std::string> failures;
  auto run = [&](const std::string& copy, const std::string& label) {
    // Copies of a file that is a graph: their exports must load back as what they are.
    harness::Outcome outcome =
        other_family ? ExerciseThroughApi(copy) : harness::Exercise(copy, original.result == "ok");
    ++table[outcome.result];

    if (!outcome.failure.empty() && failures.size() < 10) {
      failures.push_back(label + ": " + outcome.failure);
    }
  };
  size_t step = bytes.size() <= kEveryByteUpTo ? 1 : bytes.size() / kOffsetsOfBigFiles;
  for (size_t n = 0; n < bytes.size(); n += step)
    run(bytes.substr(0, n), "cut at " + std::to_string(n));
  if (!bytes.empty()) {
    uint64_t state = SeedOf(GetParam());
    for (int i = 0; i < kBitFlips; ++i) {
      std::string copy = bytes;
      uint64_t bit = NextRandom(&state) % (copy.size() * 8);
      copy[bit / 8] = static_cast<char>(copy[bit / 8] ^ (1u << (bit % 8)));
      run(copy, "bit " + std::to_string(bit) + " flipped");
    }
  }
  for (const auto& failure : failures) ADD_FAILURE() << failure;

  // The same process goes on working: the good file loads to the same summary.
  if (original.result == "ok") {
    MemorySource source(bytes);
    EXPECT_EQ(tf::Inspect(*tf::TfModel::Load(&source, {})).dump(), summary_before);
  }
  if (other_family) {
    EXPECT_GT(table["ok"], 0) << "no copy of this " << family << " file loaded";
  }
  std::cout << "sweep table " << GetParam() << ": " << FormatTable(table) << "\n";
  for (const auto& [result, count] : table) CorpusTable()[result] += count;
}

std::string TestName(const ::testing::TestParamInfo<std::string>& info) {
  std::string name;
  for (char c : info.param) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Corpus, SweepTest, ::testing::ValuesIn(CorpusFiles()), TestName);

}  // namespace
}  // namespace graphport

// Hostile input, mechanically: every truncation and many byte flips of a real model.json and
// its shard either read or fail with graphport::Error, never anything else.
#include <gtest/gtest.h>

#include <random>

#include "core/error.h"
#include "tfjs_test_util.h"

namespace graphport::tfjs {
namespace {

using testing::OwnedInputSet;

// Reads `model_json` with `shard`; true when it read, false on graphport::Error. Anything else
// propagates and fails the test.
bool Reads(const std::string& model_json, const std::string& shard) {
  OwnedInputSet inputs;
  inputs.Add("model.json", model_json);
  inputs.Add("group1-shard1of1.bin", shard);
  tensorflow::MetaGraphDef meta;
  try {
    testing::ReadModel(&inputs, &meta);
    return true;
  } catch (const Error& e) {
    EXPECT_NE(e.code(), ErrorCode::kInternal) << e.what();
    EXPECT_FALSE(std::string(e.what()).empty());
    return false;
  }
}

TEST(TfjsMutationTest, TruncationsAndByteFlipsFailCleanly) {
  ASSERT_TRUE(testing::CorpusPresent()) << testing::MissingCorpusMessage();
  const auto dir = testing::CorpusDir() / "tfjs/tfjs-to-tf/prelu";
  const std::string model = testing::ReadFile(dir / "model.json");
  const std::string shard = testing::ReadFile(dir / "group1-shard1of1.bin");
  ASSERT_TRUE(Reads(model, shard));
  for (size_t n = 0; n < model.size(); ++n) EXPECT_FALSE(Reads(model.substr(0, n), shard)) << n;
  for (size_t n = 0; n < shard.size(); ++n) EXPECT_FALSE(Reads(model, shard.substr(0, n))) << n;
  std::mt19937 random(20261201);
  int read = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string mutated = model;
    int flips = 1 + static_cast<int>(random() % 3);
    for (int f = 0; f < flips; ++f) {
      mutated[random() % mutated.size()] = static_cast<char>(random() % 256);
    }
    read += Reads(mutated, shard) ? 1 : 0;
  }
  // Some flips land in names or numbers and still make a valid model; most do not.
  EXPECT_LT(read, 3000);
}

}  // namespace
}  // namespace graphport::tfjs

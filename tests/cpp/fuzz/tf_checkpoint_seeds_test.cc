// The body of fuzz_tf_checkpoint holds its properties on the inputs it is seeded with: every
// real checkpoint index we have, whole and cut at each length (the replay test covers the
// inputs kept in tests/fuzz/regressions/).
#include <gtest/gtest.h>

#include <string>

#include "fuzz/targets/fuzz_targets.h"
#include "tf/checkpoint/checkpoint_test_util.h"

namespace graphport::testing {
namespace {

TEST(TfCheckpointSeedsTest, EveryIndexAndItsPrefixesHoldTheProperties) {
  int indexes = 0;
  for (const fs::path& path : CheckpointIndexes()) {
    ASSERT_TRUE(fs::is_regular_file(path)) << MissingCorpusMessage() << " " << path;
    std::string index = ReadFile(path);
    for (size_t n = 0; n <= index.size(); ++n) {
      ASSERT_EQ(fuzz::TfCheckpoint(std::string_view(index).substr(0, n)), "")
          << path << " cut at " << n;
    }
    ++indexes;
  }
  EXPECT_GE(indexes, 26);
}

}  // namespace
}  // namespace graphport::testing

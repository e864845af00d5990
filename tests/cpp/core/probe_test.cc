#include <gtest/gtest.h>

#include "core/family.h"
#include "core/limits.h"
#include "test_util.h"

namespace graphport {
namespace {

// A stream that hides that its bytes are in memory and cannot rewind: the worst case for
// detection, which must still hand the reader every byte from the first.
class OneWayStream : public ByteSource {
 public:
  explicit OneWayStream(std::string bytes) : bytes_(std::move(bytes)) {}
  size_t Read(uint8_t* dst, size_t max) override {
    size_t n = std::min(max, bytes_.size() - offset_);
    std::copy(bytes_.data() + offset_, bytes_.data() + offset_ + n, dst);
    offset_ += n;
    return n;
  }

 private:
  std::string bytes_;
  size_t offset_ = 0;
};

TEST(ProbeTest, AStreamIsPeekedThenReadWholeOnce) {
  std::string bytes(kDetectionPrefixBytes + 12345, 'x');
  bytes[0] = 'M';
  bytes.back() = 'Z';
  OneWayStream stream(bytes);
  SingleInputSet set(&stream, "big", "big");
  Probe probe(&set);
  EXPECT_EQ(probe.Prefix("big").size(), kDetectionPrefixBytes);
  EXPECT_EQ(probe.Prefix("big")[0], 'M');
  EXPECT_FALSE(probe.Complete("big"));
  EXPECT_EQ(testing::ReadAll(probe.Take("big")), bytes);
}

TEST(ProbeTest, MemoryIsLentNotCopied) {
  std::string bytes = "small";
  MemoryInputSet set;
  set.Add("m", bytes);
  Probe probe(&set);
  EXPECT_EQ(probe.Prefix("m").data(), bytes.data());
  EXPECT_TRUE(probe.Complete("m"));
  ByteSource* source = probe.Take("m");
  std::string_view view;
  ASSERT_TRUE(source->Contiguous(&view));
  EXPECT_EQ(view.data(), bytes.data());
}

TEST(ProbeTest, OnlyPeekedInputsAreOpened) {
  class CountingSet : public MemoryInputSet {
   public:
    ByteSource* Open(const std::string& name) override {
      ++opened;
      return MemoryInputSet::Open(name);
    }
    int opened = 0;
  } set;
  set.Add("model.json", "{}");
  set.Add("group1-shard1of1.bin", "0000");
  Probe probe(&set);
  probe.Prefix("model.json");
  probe.Prefix("model.json");
  EXPECT_EQ(set.opened, 1);
}

}  // namespace
}  // namespace graphport

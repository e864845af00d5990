#include "tf/checkpoint/string_tensor.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tf/checkpoint/bundle_writer.h"
#include "tf/checkpoint/checkpoint_test_util.h"

namespace graphport::testing {
namespace {

TEST(StringTensorTest, TheCorpusObjectGraphDecodes) {
  ASSERT_TRUE(CorpusPresent()) << MissingCorpusMessage();
  std::string data = ReadCorpus(
      "tf/serving/servables/tensorflow/testdata/saved_model_half_plus_two_tf2_cpu/00000123/"
      "variables/variables.data-00000-of-00001");
  ASSERT_EQ(data.size(), 631u);
  // research §1.4: varint e5 04 (613), lengths' crc b1 a6 5e 36, entry crc 0x47b7d190.
  std::string stored = data.substr(12, 619);
  EXPECT_EQ(stored.substr(0, 6), std::string("\xe5\x04\xb1\xa6\x5e\x36", 6));
  std::vector<std::string> out;
  ckpt::StringTensorFault fault;
  ASSERT_TRUE(ckpt::DecodeStringTensor(stored, 1, 0x47b7d190u, &out, &fault)) << fault.why;
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0], stored.substr(6));
}

TEST(StringTensorTest, EveryDamageIsFound) {
  uint32_t crc = 0;
  std::string stored = EncodeStrings({"alpha", "", "gamma"}, &crc);
  std::vector<std::string> out;
  ckpt::StringTensorFault fault;
  ASSERT_TRUE(ckpt::DecodeStringTensor(stored, 3, crc, &out, &fault));
  EXPECT_EQ(out, (std::vector<std::string>{"alpha", "", "gamma"}));
  for (size_t i = 0; i < stored.size(); ++i) {
    std::string flipped = stored;
    flipped[i] ^= 0x01;
    EXPECT_FALSE(ckpt::DecodeStringTensor(flipped, 3, crc, &out, &fault)) << i;
    EXPECT_TRUE(out.empty());
  }
  for (size_t n = 0; n < stored.size(); ++n) {
    EXPECT_FALSE(ckpt::DecodeStringTensor(stored.substr(0, n), 3, crc, &out, &fault)) << n;
  }
  EXPECT_FALSE(ckpt::DecodeStringTensor(stored + "x", 3, crc, &out, &fault));
  EXPECT_FALSE(ckpt::DecodeStringTensor(stored, 2, crc, &out, &fault));
  EXPECT_FALSE(ckpt::DecodeStringTensor(stored, 3, crc ^ 1, &out, &fault));
  EXPECT_EQ(fault.why, "fails its crc32c check");
}

TEST(StringTensorTest, NoElements) {
  std::vector<std::string> out;
  ckpt::StringTensorFault fault;
  EXPECT_TRUE(ckpt::DecodeStringTensor("", 0, 0, &out, &fault));
  uint32_t crc = 0;
  std::string stored = EncodeStrings({}, &crc);
  EXPECT_TRUE(ckpt::DecodeStringTensor(stored, 0, crc, &out, &fault));
  EXPECT_TRUE(out.empty());
}

}  // namespace
}  // namespace graphport::testing

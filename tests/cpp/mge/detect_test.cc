// Detection by magic and identifier as MegEngine's loaders decide, the primary input, forced
// formats, and the files that carry a .mge name but are no graph dump.
#include <gtest/gtest.h>

#include "mge_test_util.h"

namespace graphport::mge {
namespace {

using namespace testing;  // NOLINT

Detection DetectBytes(const std::map<std::string, std::string>& files,
                      const std::string& format = "") {
  MemoryInputSet inputs("test");
  for (const auto& [name, bytes] : files) inputs.Add(name, bytes);
  Probe probe(&inputs);
  return MegengineFamily().Detect(&probe, format);
}

Error ReadError(const std::string& bytes, const std::string& name) {
  try {
    Load(bytes, nullptr, name);
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "read succeeded";
  return Error(ErrorCode::kInternal, "");
}

TEST(MgeDetect, GraphFormatsByMagic) {
  std::string v1 = ReadCorpusFile(kConvFile);
  Detection d = DetectBytes({{"model.mge", v1}});
  EXPECT_EQ(d.score, Detection::kByMagic);
  EXPECT_EQ(d.format, "mge-fbs");
  EXPECT_EQ(d.primary, "model.mge");
  auto l = Load(v1);
  std::string v2 = Export(l.model.get(), nullptr).model();
  EXPECT_EQ(DetectBytes({{"x", v2}}).format, "mge-fbs-v2");
  std::string mgbc = Export(l.model.get(), {{"dumpFormat", "FBS"}}).model();
  EXPECT_EQ(DetectBytes({{"x", mgbc}}).reason, "FBS v1 header MGBC at offset 0");
  std::string test = std::string("mgbtest0\0\0\0\0", 12) + v1;
  EXPECT_EQ(DetectBytes({{"x", test}}).format, "mge-test");
  // MegEngine needs 25 bytes to see mgv2.
  EXPECT_EQ(DetectBytes({{"x", v2.substr(0, 24)}}).score, 0);
}

TEST(MgeDetect, ReasonSaysWhatWasLookedAt) {
  Detection d = DetectBytes({{"m.mge", std::string("\x0a\x0b\x0c\x0d rest of some file", 22)}});
  EXPECT_EQ(d.score, 0);
  EXPECT_NE(d.reason.find("first 8 bytes are 0a 0b 0c 0d"), std::string::npos) << d.reason;
  EXPECT_NE(d.reason.find("not MGBC/MGBS"), std::string::npos) << d.reason;
  EXPECT_NE(d.reason.find("mgv2"), std::string::npos) << d.reason;
  EXPECT_EQ(DetectBytes({{"m.mge", ""}}).score, 0);
}

TEST(MgeDetect, PrimaryInput) {
  std::string v1 = ReadCorpusFile(kReshapeFile);
  EXPECT_EQ(DetectBytes({{"a.mge", v1}, {"notes.txt", "x"}}).primary, "a.mge");
  Detection two = DetectBytes({{"a.mge", v1}, {"b.mge", v1}});
  EXPECT_EQ(two.score, 0);
  EXPECT_NE(two.reason.find("2 of them named *.mge"), std::string::npos) << two.reason;
}

TEST(MgeDetect, ForcedFormat) {
  std::string v1 = ReadCorpusFile(kReshapeFile);
  EXPECT_EQ(DetectBytes({{"x", v1}}, "mge-fbs").score, Detection::kByMagic);
  Detection d = DetectBytes({{"x", v1}}, "mge-fbs-v2");
  EXPECT_EQ(d.score, 0);
  EXPECT_NE(d.reason.find("mge-fbs-v2 was asked for"), std::string::npos) << d.reason;
  EXPECT_EQ(MegengineFamily().formats(),
            (std::vector<std::string>{"mge-fbs", "mge-fbs-v2", "mge-test"}));
}

TEST(MgeDetect, PickledStateDictIsRefusedWithWhatItIs) {
  // megengine.save writes pickle protocol 4: PROTO 4, FRAME, ...
  static const char kPickle[] = "\x80\x04\x95\x10\0\0\0\0\0\0\0}\x94\x8c\x06weight\x94N s.";
  std::string pickle(kPickle, sizeof(kPickle) - 1);
  EXPECT_EQ(DetectBytes({{"net.pkl", pickle}}).score, 0);  // not ours without a .mge name
  Detection d = DetectBytes({{"net.mge", pickle}});
  EXPECT_EQ(d.score, Detection::kByMagic);  // its magic and its name together
  Error e = ReadError(pickle, "net.mge");
  EXPECT_EQ(e.code(), ErrorCode::kUnsupported);
  EXPECT_NE(std::string(e.what()).find("this is a pickled state dict, not a dumped graph: dump "
                                       "it with trace.dump or Network.dump first"),
            std::string::npos)
      << e.what();
  EXPECT_EQ(e.where().file, "test/net.mge");
}

TEST(MgeDetect, LegacyAndLfsPointerAreRefused) {
  Error legacy = ReadError(std::string("mgb0001") + std::string(64, '\x01'), "m.mge");
  EXPECT_EQ(legacy.code(), ErrorCode::kUnsupported);
  EXPECT_NE(std::string(legacy.what()).find("legacy MegBrain"), std::string::npos);
  std::string lfs =
      "version https://git-lfs.github.com/spec/v1\noid sha256:"
      "b79baaec0000000000000000000000000000000000000000000000000000000000\nsize 1324\n";
  Error pointer = ReadError(lfs, "convolution-backward-filter.mge");
  EXPECT_EQ(pointer.code(), ErrorCode::kUnsupported);
  EXPECT_NE(std::string(pointer.what()).find("git-LFS pointer"), std::string::npos);
}

}  // namespace
}  // namespace graphport::mge

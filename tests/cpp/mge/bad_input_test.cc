// Bad input gets a clear graphport::Error naming the file, offset and operator; never a crash:
// every truncation of both corpus files, wrong magic, a flatbuffer failing verification, an
// operator using a var not defined yet, a tensor whose value disagrees with its shape, a value
// blob shorter than its tensors, bad container sizes.
#include <gtest/gtest.h>

#include <random>

#include "mge_test_util.h"

namespace graphport::mge {
namespace {

using namespace testing;  // NOLINT
namespace fbs = mgb::serialization::fbs;
namespace v2 = mgb::serialization::fbs::v2;

Error ReadError(const std::string& bytes, const nlohmann::json& load = nullptr) {
  try {
    Load(bytes, load);
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "read succeeded";
  return Error(ErrorCode::kInternal, "");
}

// Rewrites the FBS v1 flatbuffer of `file` in place through `mutate`.
template <typename F>
std::string MutateV1(const std::string& file, F mutate) {
  V1Flatbuffer fb = V1FlatbufferOf(file);
  mutate(const_cast<fbs::Graph*>(fbs::GetSizePrefixedGraph(fb.data())));
  std::string out = file;
  out.replace(file.size() - fb.size, fb.size, reinterpret_cast<const char*>(fb.data()), fb.size);
  return out;
}

template <typename F>
std::string MutateV2(const std::string& file, F mutate) {
  std::vector<uint64_t> storage((file.size() + 7) / 8);
  std::memcpy(storage.data(), file.data(), file.size());
  mutate(const_cast<v2::Model*>(v2::GetSizePrefixedModel(storage.data())));
  return std::string(reinterpret_cast<const char*>(storage.data()), file.size());
}

flatbuffers::Table* AsTable(const void* p) {
  return reinterpret_cast<flatbuffers::Table*>(const_cast<void*>(p));
}

class MgeBadInput : public ::testing::TestWithParam<std::string> {};

TEST_P(MgeBadInput, EveryTruncationIsAClearError) {
  std::string bytes = ReadCorpusFile(GetParam());
  ASSERT_FALSE(bytes.empty());
  for (size_t n = 0; n < bytes.size(); ++n) {
    MemoryInputSet inputs("t");
    std::string prefix = bytes.substr(0, n);
    inputs.Add("m.mge", prefix);
    Probe probe(&inputs);
    Detection d = MegengineFamily().Detect(&probe, "");
    if (d.score == 0) {
      EXPECT_FALSE(d.reason.empty());
      continue;
    }
    try {
      MegengineFamily().Read(&probe, d, OptionValues());
      ADD_FAILURE() << "a " << n << "-byte prefix was read";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kParseError) << n << ": " << e.what();
      EXPECT_EQ(e.where().file, "t/m.mge");
      EXPECT_GE(e.where().offset, 0) << e.what();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, MgeBadInput, ::testing::ValuesIn(CorpusFiles()));

TEST(MgeBadInputCases, FlatbufferFailingVerification) {
  std::string bytes = ReadCorpusFile(kConvFile);
  // The root offset right after the size prefix, pointed past the end.
  size_t fb_start = 16 + 204;
  std::string bad = bytes;
  bad[fb_start + 4] = '\x7f';
  bad[fb_start + 5] = '\x7f';
  Error e = ReadError(bad);
  EXPECT_EQ(e.code(), ErrorCode::kParseError);
  EXPECT_NE(std::string(e.what()).find("fails FlatBuffers verification"), std::string::npos);
  EXPECT_EQ(e.where().offset, static_cast<int64_t>(fb_start));
}

TEST(MgeBadInputCases, OperatorUsingAVarNotDefinedYet) {
  std::string v1 = ReadCorpusFile(kConvFile);
  std::string bad = MutateV1(v1, [](fbs::Graph* g) {
    auto* inputs = const_cast<flatbuffers::Vector<uint32_t>*>(g->oprs()->Get(3)->inputs());
    inputs->Mutate(0, 50);
  });
  Error e = ReadError(bad);
  EXPECT_EQ(e.code(), ErrorCode::kParseError);
  EXPECT_NE(std::string(e.what()).find("uses var 50, which is not defined yet"), std::string::npos)
      << e.what();
  EXPECT_EQ(e.where().opr, "#3 (ConvolutionV2)");
  // The same in FBS_V2.
  auto l = Load(v1);
  std::string v2file = Export(l.model.get(), nullptr).model();
  std::string bad2 = MutateV2(v2file, [](v2::Model* m) {
    const_cast<flatbuffers::Vector<uint32_t>*>(m->oprs()->Get(5)->inputs())->Mutate(1, 5);
  });
  Error e2 = ReadError(bad2);
  EXPECT_NE(std::string(e2.what()).find("uses var 5"), std::string::npos) << e2.what();
  EXPECT_EQ(e2.where().opr, "#5 (Elemwise)");
}

TEST(MgeBadInputCases, TensorValueDisagreesWithItsShape) {
  auto l = Load(ReadCorpusFile(kConvFile));
  std::string v2file = Export(l.model.get(), nullptr).model();
  std::string bad = MutateV2(v2file, [](v2::Model* m) {
    const v2::Tensor* t = m->oprs()->Get(2)->tensors()->Get(0);  // the [5,1,3,3] weight
    const_cast<flatbuffers::Vector<uint32_t>*>(t->shape())->Mutate(0, 6);
  });
  Error e = ReadError(bad);
  EXPECT_EQ(e.code(), ErrorCode::kParseError);
  EXPECT_NE(std::string(e.what()).find("needs 216 value bytes, but the file gives 180"),
            std::string::npos)
      << e.what();
  EXPECT_EQ(e.where().opr, "#2 (ImmutableTensor)");
}

TEST(MgeBadInputCases, ValueBlobShorterThanItsTensors) {
  std::string v1 = ReadCorpusFile(kConvFile);
  std::string bad = MutateV1(v1, [](fbs::Graph* g) {
    const fbs::Tensor* t = g->oprs()->Get(4)->tensors()->Get(0);  // 20 bytes
    AsTable(t)->SetField<uint32_t>(fbs::Tensor::VT_DATA_SIZE, 400, 0);
  });
  Error e = ReadError(bad);
  EXPECT_EQ(e.code(), ErrorCode::kParseError);
  EXPECT_NE(std::string(e.what()).find("the blob is shorter than its tensors"), std::string::npos)
      << e.what();
  EXPECT_EQ(e.where().opr, "#4 (ImmutableTensor)");
}

TEST(MgeBadInputCases, ContainerSizes) {
  std::string v1 = ReadCorpusFile(kReshapeFile);
  // A header that puts the flatbuffer beyond the end.
  std::string bad = v1;
  bad[8] = '\xff';
  bad[9] = '\xff';
  Error e = ReadError(bad);
  EXPECT_EQ(e.code(), ErrorCode::kParseError);
  EXPECT_EQ(e.where().offset, 8);
  // Bytes after a dump that are no dump.
  Error trailing = ReadError(v1 + "garbage!");
  EXPECT_EQ(trailing.code(), ErrorCode::kParseError);
  EXPECT_EQ(trailing.where().offset, static_cast<int64_t>(v1.size()));
  // mgbtest0 declaring more test cases than it holds.
  Error tests = ReadError(std::string("mgbtest0\x02\0\0\0", 12) + v1);
  EXPECT_EQ(tests.code(), ErrorCode::kParseError);
  EXPECT_NE(std::string(tests.what()).find("declares 2 test cases"), std::string::npos);
}

// Random byte flips (fixed seed) of a v1 and a V2 file: each load, inspect and export either
// works or throws graphport::Error; nothing else escapes (run under ASan by GRAPHPORT_SANITIZE).
TEST(MgeBadInputCases, FlippedBytesNeverEscapeAsAnythingButError) {
  std::string v1 = ReadCorpusFile(kConvFile);
  auto l = Load(v1);
  std::string v2file = Export(l.model.get(), {{"keepVarName", 2}, {"userInfo", "u"}}).model();
  std::mt19937 rng(20160701);
  int loaded = 0, refused = 0;
  for (const std::string* original : {&v1, &v2file}) {
    for (int round = 0; round < 1500; ++round) {
      std::string bytes = *original;
      int flips = 1 + static_cast<int>(rng() % 3);
      for (int f = 0; f < flips; ++f) {
        bytes[rng() % bytes.size()] = static_cast<char>(rng() & 0xff);
      }
      try {
        auto m = Load(bytes);
        m.model->Inspect();
        Export(m.model.get(), nullptr);
        Export(m.model.get(), {{"dumpFormat", "FBS"}, {"stripInfoFile", "s.json"}});
        ++loaded;
      } catch (const Error& e) {
        EXPECT_NE(e.code(), ErrorCode::kInternal) << e.what();
        ++refused;
      } catch (const std::exception& e) {
        ADD_FAILURE() << "round " << round << ": " << e.what();
      }
    }
  }
  EXPECT_GT(refused, 0);
  EXPECT_GT(loaded, 0);
}

}  // namespace
}  // namespace graphport::mge

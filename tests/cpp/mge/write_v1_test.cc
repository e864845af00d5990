// FBS v1 output: each corpus file kept as loaded re-dumps byte for byte with the options that
// made it, the default FBS header is MGBC with persist ids, and the content hash is XXH64 of
// the tail.
#include <gtest/gtest.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "mge/opr_registry.h"
#include "mge_test_util.h"

namespace graphport::mge {
namespace {

using namespace testing;  // NOLINT

class MgeWriteV1 : public ::testing::TestWithParam<std::string> {};

TEST_P(MgeWriteV1, RedumpWithOriginalOptionsIsByteIdentical) {
  std::string original = ReadCorpusFile(GetParam());
  auto l = Load(original);
  Exported e = Export(l.model.get(), AsLoaded(CompatV1Options()));
  ASSERT_EQ(e.files.size(), 1u);
  EXPECT_EQ(e.files[0].name, "model.mge");
  EXPECT_EQ(e.model(), original);
  EXPECT_EQ(e.info["tot_bytes"], original.size());
  EXPECT_EQ(e.info["content_hash"], l.model->Inspect()["megengine"]["header"]["hash"]);
  EXPECT_EQ(e.info["header"], "MGBS");
}

TEST_P(MgeWriteV1, MgbcHeaderPersistIdsAndHash) {
  std::string original = ReadCorpusFile(GetParam());
  auto l = Load(original);
  Exported e = Export(l.model.get(), AsLoaded({{"dumpFormat", "FBS"}}));
  const std::string& out = e.model();
  ASSERT_GT(out.size(), 24u);
  EXPECT_EQ(out.substr(0, 4), "MGBC");
  EXPECT_EQ(out.substr(4, 12), std::string(12, '\0'));  // feature bits + reserved
  // Values are the same bytes, one MGBC header is 8 bytes longer than MGBS.
  EXPECT_EQ(out.size(), original.size() + 8);
  ASSERT_TRUE(VerifiesAsV1(out));
  V1Flatbuffer fb = V1FlatbufferOf(out);
  auto* graph = mgb::serialization::fbs::GetSizePrefixedGraph(fb.data());
  // The hash covers the flatbuffer after the root table (megengine.md §2.12).
  const uint8_t* root = reinterpret_cast<const uint8_t*>(graph);
  const uint8_t* vtable = root - flatbuffers::ReadScalar<flatbuffers::soffset_t>(root);
  uint16_t object_size = flatbuffers::ReadScalar<uint16_t>(vtable + 2);
  size_t tail_start = static_cast<size_t>(root - fb.data()) + object_size;
  uint64_t h = XXH64(fb.data() + tail_start, fb.size - tail_start, 0x4b4e74b36b5d11);
  EXPECT_EQ(graph->hash(), h);
  char hex[24];
  std::snprintf(hex, sizeof hex, "0x%016llx", static_cast<unsigned long long>(h));
  EXPECT_EQ(e.info["content_hash"], std::string(hex));
  // Every operator carries the persist id of its token.
  auto reloaded = Load(out);
  nlohmann::json j = reloaded.model->Inspect();
  for (const auto& op : j["megengine"]["operators"]) {
    char id[24];
    std::snprintf(id, sizeof id, "0x%016llx",
                  static_cast<unsigned long long>(PersistTypeId(op["type"].get<std::string>())));
    EXPECT_EQ(op["typeId"], std::string(id)) << op["type"];
  }
  EXPECT_EQ(GraphContent(reloaded.model->Inspect()), GraphContent(l.model->Inspect()));
  // And back to MGBS: the original again.
  EXPECT_EQ(Export(reloaded.model.get(), AsLoaded(CompatV1Options())).model(), original);
}

INSTANTIATE_TEST_SUITE_P(Corpus, MgeWriteV1, ::testing::ValuesIn(CorpusFiles()));

}  // namespace
}  // namespace graphport::mge

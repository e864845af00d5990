// FBS_V2 output: the default format; verified with the generated verifier, loads back to an
// equal graph, carries MegEngine's (type_id, opr_version) pairs, and converts back to the
// original FBS v1 bytes.
#include <gtest/gtest.h>

#include "mge/opr_registry.h"
#include "mge_test_util.h"

namespace graphport::mge {
namespace {

using namespace testing;  // NOLINT

class MgeWriteV2 : public ::testing::TestWithParam<std::string> {};

TEST_P(MgeWriteV2, DefaultExportIsFbsV2AndRoundTrips) {
  std::string original = ReadCorpusFile(GetParam());
  auto l = Load(original);
  Exported e = Export(l.model.get(), AsLoaded());
  EXPECT_EQ(e.info["format"], "FBS_V2");
  EXPECT_EQ(e.info["content_hash"], "0x0000000000000000");
  EXPECT_EQ(e.info["optimized"], "as loaded");
  const std::string& out = e.model();
  EXPECT_EQ(out.substr(8, 4), "mgv2");
  ASSERT_TRUE(VerifiesAsV2(out));
  auto reloaded = Load(out);
  EXPECT_EQ(reloaded.detection.format, "mge-fbs-v2");
  nlohmann::json j = reloaded.model->Inspect();
  EXPECT_EQ(GraphContent(j), GraphContent(l.model->Inspect()));
  EXPECT_EQ(j["megengine"]["header"]["modelVersion"], 2);
  EXPECT_EQ(j["megengine"]["dumpInfo"]["tensor_value_bytes"],
            l.model->Inspect()["megengine"]["dumpInfo"]["tensor_value_bytes"]);
  // (type_id, opr_version): version 2 registrations where MegEngine has them.
  for (const auto& op : j["megengine"]["operators"]) {
    const OprClass* cls =
        FindClassByKey(std::string(StripVersionSuffix(op["type"].get<std::string>())));
    ASSERT_NE(cls, nullptr) << op["type"];
    V2Registration reg;
    ASSERT_TRUE(V2RegistrationOf(*cls, &reg));
    EXPECT_EQ(op["oprVersion"], reg.opr_version) << op["type"];
    EXPECT_EQ(op["type"], reg.type);
  }
  // A second V2 dump of the V2 file is the same bytes; back to FBS v1 is the original.
  EXPECT_EQ(Export(reloaded.model.get(), AsLoaded()).model(), out);
  EXPECT_EQ(Export(reloaded.model.get(), AsLoaded(CompatV1Options())).model(), original);
}

TEST(MgeWriteV2, ConvolutionIsWrittenAtVersionTwo) {
  auto l = Load(ReadCorpusFile(kConvFile));
  auto reloaded = Load(Export(l.model.get(), nullptr).model());
  nlohmann::json j = reloaded.model->Inspect();
  const auto& ops = j["megengine"]["operators"];
  EXPECT_EQ(ops[0]["type"], "Host2DeviceCopy");
  EXPECT_EQ(ops[0]["oprVersion"], 2);
  EXPECT_EQ(ops[0]["typeId"], "0x21d09889fd709229");
  EXPECT_EQ(ops[3]["type"], "Convolution");
  EXPECT_EQ(ops[3]["oprVersion"], 2);
  EXPECT_EQ(ops[3]["typeId"], "0xbc193eef48c27b7e");
  EXPECT_EQ(ops[5]["type"], "Elemwise");
  EXPECT_EQ(ops[5]["oprVersion"], 1);
  EXPECT_EQ(ops[5]["typeId"], "0xd6c488c11172ec08");
  EXPECT_EQ(ops[10]["typeId"], "0xb1b87e381228d93a");
}

INSTANTIATE_TEST_SUITE_P(Corpus, MgeWriteV2, ::testing::ValuesIn(CorpusFiles()));

}  // namespace
}  // namespace graphport::mge

namespace graphport::mge {
namespace {

// From FBS v1, the default (optimized) export's middle tensors are MegEngine's own: every
// var's shown name (the input named after its tensor, the others by the default names
// MegEngine gave their operators on load, with its load ids) and the static shape inferred
// when its operator was inserted; no dtype or comp node, which MegEngine writes only for a
// var holding a device tensor (none does in a graph loaded and not run). The whole file is
// MegEngine v1.13.4's byte for byte (tests/js/mge_reference.test.mjs).
TEST(MgeWriteV2, MiddleTensorsFromFbsV1) {
  auto l = testing::Load(testing::ReadCorpusFile(testing::kConvFile));
  std::string out = testing::Export(l.model.get(), nullptr).model();
  std::vector<uint64_t> storage((out.size() + 7) / 8);
  std::memcpy(storage.data(), out.data(), out.size());
  const auto* model = mgb::serialization::fbs::v2::GetSizePrefixedModel(storage.data());
  const auto* middle = model->middle_tensors();
  ASSERT_NE(middle, nullptr);
  ASSERT_EQ(middle->size(), 11u);
  auto shape = [&](uint32_t k) {
    const auto* s = middle->Get(k)->shape();
    return s == nullptr ? std::vector<uint32_t>() : std::vector<uint32_t>(s->begin(), s->end());
  };
  EXPECT_EQ(middle->Get(0)->name()->str(), "arg_0");
  EXPECT_EQ(shape(0), (std::vector<uint32_t>{8, 1, 32, 32}));
  EXPECT_EQ(middle->Get(2)->name()->str(), "const{5,1,3,3}[4]");
  EXPECT_EQ(shape(2), (std::vector<uint32_t>{5, 1, 3, 3}));
  EXPECT_EQ(middle->Get(5)->name()->str(), "ADD(conv[6],const{1,5,1,1}[11])[13]");
  EXPECT_EQ(shape(5), (std::vector<uint32_t>{8, 5, 16, 16}));
  EXPECT_EQ(middle->Get(10)->name()->str(), "OprAttr");
  EXPECT_EQ(shape(10), (std::vector<uint32_t>{5, 1, 3, 3}));
  for (uint32_t k = 0; k < middle->size(); ++k) {
    EXPECT_EQ(middle->Get(k)->dtype(), nullptr) << k;
    EXPECT_EQ(middle->Get(k)->comp_node(), nullptr) << k;
  }
}

// Kept as loaded, an FBS v1 file's vars have what graphport reads in it: a constant's value
// layout and the input's shape; other vars a synthesized name.
TEST(MgeWriteV2, MiddleTensorsFromFbsV1AsLoaded) {
  auto l = testing::Load(testing::ReadCorpusFile(testing::kConvFile));
  std::string out = testing::Export(l.model.get(), testing::AsLoaded()).model();
  std::vector<uint64_t> storage((out.size() + 7) / 8);
  std::memcpy(storage.data(), out.data(), out.size());
  const auto* model = mgb::serialization::fbs::v2::GetSizePrefixedModel(storage.data());
  const auto* middle = model->middle_tensors();
  ASSERT_NE(middle, nullptr);
  ASSERT_EQ(middle->size(), 11u);
  const auto* input = middle->Get(0);
  ASSERT_NE(input->shape(), nullptr);
  EXPECT_EQ(std::vector<uint32_t>(input->shape()->begin(), input->shape()->end()),
            (std::vector<uint32_t>{8, 1, 32, 32}));
  EXPECT_EQ(input->dtype(), nullptr);
  EXPECT_EQ(input->name()->str(), "var0");
  const auto* weight = middle->Get(2);
  ASSERT_NE(weight->shape(), nullptr);
  EXPECT_EQ(weight->shape()->size(), 4u);
  ASSERT_NE(weight->comp_node(), nullptr);
  EXPECT_EQ(weight->comp_node()->logical_locator()->str(), "xpux:0");
  EXPECT_NE(weight->dtype(), nullptr);
  EXPECT_EQ(weight->format_type(), mgb::serialization::fbs::v2::TensorFormat_DefaultTensorFormat);
  EXPECT_EQ(middle->Get(10)->name()->str(), "OprAttr");
  EXPECT_EQ(middle->Get(5)->shape(), nullptr);
}

}  // namespace
}  // namespace graphport::mge

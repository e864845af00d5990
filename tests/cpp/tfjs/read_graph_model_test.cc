// Reading TF.js graph models: the corpus parity pair, and a model built here with every dtype
// and quantization TF.js writes.
#include "tfjs/read_graph_model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>

#include "tf/meta_graph/attr_value_equal.h"
#include "tfjs_test_util.h"

namespace graphport::tfjs {
namespace {

using nlohmann::json;
using testing::Bytes;
using testing::ConstNode;
using testing::OwnedInputSet;
using testing::Values;

const tensorflow::NodeDef* FindNode(const tensorflow::GraphDef& graph, const std::string& name) {
  for (const auto& node : graph.node()) {
    if (node.name() == name) return &node;
  }
  return nullptr;
}

const tensorflow::TensorProto& ValueOf(const tensorflow::GraphDef& graph, const std::string& name) {
  const tensorflow::NodeDef* node = FindNode(graph, name);
  EXPECT_NE(node, nullptr) << name;
  static const tensorflow::TensorProto empty;
  return node == nullptr ? empty : node->attr().at("value").tensor();
}

// Every Const of the TensorFlow-frozen graph equals ours, bit for bit, in the same form
// (tensor_content, dtype, shape): the weights are back where TensorFlow holds them.
TEST(ReadGraphModelTest, SimpleCorpusConstsEqualFrozenGraph) {
  ASSERT_TRUE(testing::CorpusPresent()) << testing::MissingCorpusMessage();
  OwnedInputSet inputs;
  inputs.AddFolder(testing::CorpusDir() / "tfjs/tfjs-to-tf/simple");
  tensorflow::MetaGraphDef meta;
  ReadResult result = testing::ReadModel(&inputs, &meta);
  tensorflow::GraphDef frozen;
  ASSERT_TRUE(frozen.ParseFromString(testing::ReadCorpus(testing::kFrozenGraph)));
  int consts = 0;
  for (const auto& theirs : frozen.node()) {
    if (theirs.op() != "Const") continue;
    const tensorflow::NodeDef* ours = FindNode(meta.graph_def(), theirs.name());
    ASSERT_NE(ours, nullptr) << theirs.name();
    EXPECT_TRUE(testing::MessagesEqual(theirs, *ours)) << theirs.name();
    ++consts;
  }
  EXPECT_EQ(consts, 2);
  EXPECT_EQ(meta.graph_def().versions().producer(), frozen.versions().producer());
  // The nodes that are not fused are equal too; placeholders and the output.
  for (const char* name : {"x", "Identity"}) {
    EXPECT_TRUE(testing::MessagesEqual(*FindNode(frozen, name), *FindNode(meta.graph_def(), name)))
        << name;
  }
  // userDefinedMetadata.signature, frozen-graph form: outputs only, a node name.
  const auto& signature = meta.signature_def().at(kSignatureKey);
  EXPECT_EQ(signature.outputs().at("Identity").name(), "Identity:0");
  EXPECT_EQ(result.manifest["signatureSource"], "userDefinedMetadata.signature");
  EXPECT_EQ(result.manifest["convertedBy"], "TensorFlow.js Converter v1.7.2");
  EXPECT_EQ(result.manifest["weights"].size(), 2u);
  EXPECT_EQ(result.manifest["shards"][0]["bytes"], 8);
  EXPECT_EQ(result.manifest["weights"][1]["offset"], 4);
  EXPECT_EQ(result.input_bytes, inputs.bytes("model.json").size() + 8);
}

TEST(ReadGraphModelTest, PreluCorpusReads) {
  ASSERT_TRUE(testing::CorpusPresent()) << testing::MissingCorpusMessage();
  OwnedInputSet inputs;
  inputs.AddFolder(testing::CorpusDir() / "tfjs/tfjs-to-tf/prelu");
  tensorflow::MetaGraphDef meta;
  testing::ReadModel(&inputs, &meta);
  EXPECT_EQ(meta.graph_def().node_size(), 10);
  const auto& alpha =
      ValueOf(meta.graph_def(), "StatefulPartitionedCall/point_in_sphere/Prelu/Neg");
  EXPECT_EQ(alpha.tensor_content().size(), 12u);
  const auto& signature = meta.signature_def().at(kSignatureKey);
  EXPECT_EQ(signature.inputs().at("input_1:0").dtype(), tensorflow::DT_FLOAT);
  EXPECT_EQ(signature.outputs().at("Identity:0").name(), "Identity:0");
}

// A model with every stored dtype, built here: the values are what TF.js's decodeWeight
// gives, computed below from its formulas, not by graphport's code.
class EveryDtypeModel {
 public:
  EveryDtypeModel() {
    f32_ = {1.5f, -2.25f, 3.0e-8f};
    u8_codes_ = {0, 20, 128, 255};
    u16_codes_ = {0, 1, 65535};
    f16_bits_ = {0x3c00, 0x0001, 0x7c00, 0xc000, 0x7e00};
    bools_ = {1, 0, 1};
    c64_ = {1.0f, -1.0f, 0.5f, 2.0f};
    i64_ = {-3, 7};
    int_codes_ = {0, 1, 2, 3};
    strings_ = {"ab", "", std::string("\xff\x00z", 3)};

    json nodes = json::array();
    auto add = [&](json node) { nodes.push_back(std::move(node)); };
    add(ConstNode("f32", "DT_FLOAT", {3}));
    add(ConstNode("u8", "DT_FLOAT", {2, 2}));
    add(ConstNode("u16", "DT_FLOAT", {3}));
    add(ConstNode("f16", "DT_FLOAT", {5}));
    add(ConstNode("f16_as_double", "DT_DOUBLE", {5}));
    add(ConstNode("bools", "DT_BOOL", {3}));
    add(ConstNode("c64", "DT_COMPLEX64", {2}));
    add(ConstNode("i64", "DT_INT64", {2}));
    add(ConstNode("int_codes", "DT_INT32", {4}));
    add(ConstNode("strings", "DT_STRING", {3}));
    add(ConstNode("empty", "DT_FLOAT", {0, 2}));
    add({{"name", "x"}, {"op", "Placeholder"}, {"attr", {{"dtype", {{"type", "DT_FLOAT"}}}}}});
    add({{"name", "y"},
         {"op", "AddV2"},
         {"input", {"x", "f32"}},
         {"attr", {{"T", {{"type", "DT_FLOAT"}}}}}});

    json weights = json::array();
    auto entry = [&](const std::string& name, const std::string& dtype, std::vector<int64_t> shape,
                     json quantization = nullptr) {
      json e = {{"name", name}, {"shape", shape}, {"dtype", dtype}};
      if (!quantization.is_null()) e["quantization"] = quantization;
      weights.push_back(e);
    };
    std::string data;
    // Odd offsets on purpose: the float32 after the bools starts unaligned.
    entry("bools", "bool", {3});
    data += Bytes(bools_);
    entry("f32", "float32", {3});
    data += Bytes(f32_);
    entry(
        "u8", "float32", {2, 2},
        {{"dtype", "uint8"}, {"scale", kU8Scale}, {"min", kU8Min}, {"original_dtype", "float32"}});
    data += Bytes(u8_codes_);
    entry("u16", "float32", {3}, {{"min", kU16Min}, {"scale", kU16Scale}, {"dtype", "uint16"}});
    data += Bytes(u16_codes_);
    entry("f16", "float32", {5}, {{"dtype", "float16"}, {"original_dtype", "float32"}});
    data += Bytes(f16_bits_);
    entry("f16_as_double", "float32", {5}, {{"dtype", "float16"}});
    data += Bytes(f16_bits_);
    entry("c64", "complex64", {2});
    data += Bytes(c64_);
    entry("i64", "int32", {2});
    data += Bytes(std::vector<int32_t>{-3, 7});
    entry("int_codes", "int32", {4}, {{"dtype", "uint8"}, {"scale", 0.5}, {"min", -1.25}});
    data += Bytes(int_codes_);
    entry("strings", "string", {3});
    for (const std::string& s : strings_) {
      uint32_t n = static_cast<uint32_t>(s.size());
      data += Bytes(std::vector<uint32_t>{n}) + s;
    }
    entry("empty", "float32", {0, 2});
    total_bytes_ = data.size();

    json paths = json::array();
    for (auto& [name, bytes] : testing::Shard(data, kShardSize)) {
      paths.push_back(name);
      inputs_.Add(name, bytes);
    }
    model_ = {{"format", "graph-model"},
              {"generatedBy", "2.4.0"},
              {"convertedBy", "TensorFlow.js Converter v2.7.0"},
              {"userDefinedMetadata",
               {{"signature",
                 {{"inputs", {{"x:0", {{"name", "x:0"}, {"dtype", "DT_FLOAT"}}}}},
                  {"outputs", {{"y:0", {{"name", "y:0"}, {"dtype", "DT_FLOAT"}}}}}}}}},
              {"modelTopology", {{"node", nodes}, {"versions", json::object()}}},
              {"weightsManifest", {{{"paths", paths}, {"weights", weights}}}}};
    inputs_.Add("model.json", model_.dump());
  }

  static constexpr size_t kShardSize = 7;  // every weight but the bools straddles shards
  static constexpr double kU8Scale = 0.00509803940852;
  static constexpr double kU8Min = -0.10196078817049663;
  static constexpr double kU16Scale = 1.0 / 3.0;
  static constexpr double kU16Min = -7.0;

  OwnedInputSet inputs_;
  json model_;
  size_t total_bytes_ = 0;
  std::vector<float> f32_, c64_;
  std::vector<uint8_t> u8_codes_, bools_, int_codes_;
  std::vector<uint16_t> u16_codes_, f16_bits_;
  std::vector<int64_t> i64_;
  std::vector<std::string> strings_;
};

TEST(ReadGraphModelTest, EveryDtypeReadsExactly) {
  EveryDtypeModel m;
  tensorflow::MetaGraphDef meta;
  ReadResult result = testing::ReadModel(&m.inputs_, &meta);
  const auto& g = meta.graph_def();

  EXPECT_EQ(Values<float>(ValueOf(g, "f32").tensor_content()), m.f32_);
  EXPECT_EQ(ValueOf(g, "f32").dtype(), tensorflow::DT_FLOAT);

  std::vector<float> u8;
  for (uint8_t q : m.u8_codes_) {
    volatile double product = double(q) * EveryDtypeModel::kU8Scale;  // no FMA here either
    u8.push_back(static_cast<float>(product + EveryDtypeModel::kU8Min));
  }
  EXPECT_EQ(Values<float>(ValueOf(g, "u8").tensor_content()), u8);
  EXPECT_EQ(u8[0], static_cast<float>(EveryDtypeModel::kU8Min));

  std::vector<float> u16;
  for (uint16_t q : m.u16_codes_) {
    volatile double product = double(q) * EveryDtypeModel::kU16Scale;
    u16.push_back(static_cast<float>(product + EveryDtypeModel::kU16Min));
  }
  EXPECT_EQ(Values<float>(ValueOf(g, "u16").tensor_content()), u16);

  // 1, the smallest subnormal 2^-24, +inf, -2, NaN.
  std::vector<float> f16 = Values<float>(ValueOf(g, "f16").tensor_content());
  ASSERT_EQ(f16.size(), 5u);
  EXPECT_EQ(f16[0], 1.0f);
  EXPECT_EQ(f16[1], std::ldexp(1.0f, -24));
  EXPECT_EQ(f16[2], std::numeric_limits<float>::infinity());
  EXPECT_EQ(f16[3], -2.0f);
  EXPECT_TRUE(std::isnan(f16[4]));
  // A float64 Const the converter stored as float16: widened back to DT_DOUBLE.
  std::vector<double> f16d = Values<double>(ValueOf(g, "f16_as_double").tensor_content());
  ASSERT_EQ(f16d.size(), 5u);
  EXPECT_EQ(f16d[1], std::ldexp(1.0, -24));
  EXPECT_EQ(ValueOf(g, "f16_as_double").dtype(), tensorflow::DT_DOUBLE);

  EXPECT_EQ(Values<uint8_t>(ValueOf(g, "bools").tensor_content()), m.bools_);
  EXPECT_EQ(Values<float>(ValueOf(g, "c64").tensor_content()), m.c64_);
  EXPECT_EQ(Values<int64_t>(ValueOf(g, "i64").tensor_content()), m.i64_);
  EXPECT_EQ(ValueOf(g, "i64").dtype(), tensorflow::DT_INT64);
  // Math.round(q * 0.5 - 1.25): -1.25, -0.75, -0.25, 0.25 -> -1, -1, 0, 0 (halves go up).
  EXPECT_EQ(Values<int32_t>(ValueOf(g, "int_codes").tensor_content()),
            (std::vector<int32_t>{-1, -1, 0, 0}));

  const auto& strings = ValueOf(g, "strings");
  ASSERT_EQ(strings.string_val_size(), 3);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(strings.string_val(i), m.strings_[i]);
  EXPECT_EQ(ValueOf(g, "empty").tensor_content(), "");
  EXPECT_EQ(ValueOf(g, "empty").tensor_shape().dim(0).size(), 0);

  const auto& signature = meta.signature_def().at(kSignatureKey);
  EXPECT_EQ(signature.inputs().at("x:0").name(), "x:0");
  EXPECT_EQ(signature.method_name(), "tensorflow/serving/predict");
  EXPECT_EQ(result.manifest["signatureSource"], "userDefinedMetadata.signature");

  // The summary: the straddling weight names both of its shards.
  const json& f32 = result.manifest["weights"][1];
  EXPECT_EQ(f32["name"], "f32");
  EXPECT_EQ(f32["offset"], 3);
  // Bytes 3..15 of the group, with 7-byte shards: shards 1, 2 and 3.
  std::string n = std::to_string(result.manifest["shards"].size());
  EXPECT_EQ(f32["shards"], json({"group1-shard1of" + n + ".bin", "group1-shard2of" + n + ".bin",
                                 "group1-shard3of" + n + ".bin"}));
  EXPECT_EQ(result.manifest["weights"][2]["quantization"]["dtype"], "uint8");
  EXPECT_EQ(result.manifest["weights"][2]["quantization"]["min"], EveryDtypeModel::kU8Min);
  EXPECT_EQ(result.input_bytes, m.inputs_.bytes("model.json").size() + m.total_bytes_);
}

// dequantize: false keeps the codes and says how to dequantize them.
TEST(ReadGraphModelTest, KeepsQuantizedCodesOnRequest) {
  EveryDtypeModel m;
  tensorflow::MetaGraphDef meta;
  ReadOptions options;
  options.dequantize = false;
  testing::ReadModel(&m.inputs_, &meta, options);
  const auto& g = meta.graph_def();
  EXPECT_EQ(ValueOf(g, "u8").dtype(), tensorflow::DT_UINT8);
  EXPECT_EQ(Values<uint8_t>(ValueOf(g, "u8").tensor_content()), m.u8_codes_);
  EXPECT_EQ(ValueOf(g, "f16").dtype(), tensorflow::DT_HALF);
  EXPECT_EQ(Values<uint16_t>(ValueOf(g, "f16").tensor_content()), m.f16_bits_);
  json q = json::parse(FindNode(g, "u8")->attr().at(kQuantizationAttr).s());
  EXPECT_EQ(q["dtype"], "uint8");
  EXPECT_EQ(q["scale"], EveryDtypeModel::kU8Scale);
  // Unquantized weights are as before.
  EXPECT_EQ(Values<float>(ValueOf(g, "f32").tensor_content()), m.f32_);
  EXPECT_EQ(FindNode(g, "f32")->attr().count(kQuantizationAttr), 0u);
}

// Shards are opened only as the weights reach them: a model whose manifest lists no weight
// never opens its shard.
class CountingInputSet : public InputSet {
 public:
  explicit CountingInputSet(InputSet* inner) : inner_(inner) {}
  const std::vector<std::string>& Names() const override { return inner_->Names(); }
  ByteSource* Open(const std::string& name) override {
    ++opened[name];
    return inner_->Open(name);
  }
  const std::string& label() const override { return inner_->label(); }
  std::map<std::string, int> opened;

 private:
  InputSet* inner_;
};

TEST(ReadGraphModelTest, OpensEachShardOnceAndOnlyThroughTheSet) {
  EveryDtypeModel m;
  CountingInputSet counting(m.inputs_.set());
  MemorySource source(m.inputs_.bytes("model.json"));
  tensorflow::MetaGraphDef meta;
  ReadGraphModel(&source, &counting, "model.json", {}, &meta);
  EXPECT_EQ(counting.opened.count("model.json"), 0u);
  for (const auto& [name, count] : counting.opened) EXPECT_EQ(count, 1) << name;
  EXPECT_EQ(counting.opened.size(), m.inputs_.set()->Names().size() - 1);
}

// The pb2json spelling of 2019: strings as arrays of char codes, enums as numbers, every
// repeated field present, no library, shard names without ".bin".
TEST(ReadGraphModelTest, ReadsPb2JsonSpelling) {
  OwnedInputSet inputs;
  json model = {
      {"modelTopology",
       {{"node",
         {{{"name", "w"},
           {"op", "Const"},
           {"input", json::array()},
           {"attr",
            {{"dtype", {{"type", 1}}},
             {"value",
              {{"tensor",
                {{"dtype", 1},
                 {"tensorShape", {{"dim", {{{"size", "2"}}}}}},
                 {"floatVal", json::array()},
                 {"stringVal", json::array()}}}}}}}},
          {{"name", "x"},
           {"op", "Placeholder"},
           {"input", json::array()},
           {"attr", {{"dtype", {{"type", 1}}}}}},
          {{"name", "c"},
           {"op", "Conv2D"},
           {"input", {"x", "w"}},
           {"attr",
            {{"T", {{"type", 1}}},
             {"data_format", {{"s", {78, 72, 87, 67}}}},
             {"padding", {{"s", {86, 65, 76, 73, 68}}}},
             {"strides",
              {{"list",
                {{"s", json::array()}, {"i", {"1", "1", "1", "1"}}, {"f", json::array()}}}}}}}}}},
        {"versions", {{"badConsumers", json::array()}}}}},
      {"weightsManifest",
       {{{"paths", {"group1-shard1of1"}},
         {"weights", {{{"name", "w"}, {"shape", {2}}, {"dtype", "float32"}}}}}}}};
  inputs.Add("model.json", model.dump());
  inputs.Add("group1-shard1of1", Bytes(std::vector<float>{1, 2}));
  tensorflow::MetaGraphDef meta;
  testing::ReadModel(&inputs, &meta);
  const tensorflow::NodeDef* conv = FindNode(meta.graph_def(), "c");
  ASSERT_NE(conv, nullptr);
  EXPECT_EQ(conv->attr().at("data_format").s(), "NHWC");
  EXPECT_EQ(conv->attr().at("padding").s(), "VALID");
  EXPECT_EQ(conv->attr().at("strides").list().i_size(), 4);
  EXPECT_EQ(conv->attr().at("T").type(), tensorflow::DT_FLOAT);
  EXPECT_EQ(Values<float>(ValueOf(meta.graph_def(), "w").tensor_content()),
            (std::vector<float>{1, 2}));
}

}  // namespace
}  // namespace graphport::tfjs

// Writing TF.js graph models, and reading them back.
#include "tfjs/write_graph_model.h"

#include <gtest/gtest.h>

#include <cmath>

#include "tfjs/quantize.h"
#include "tfjs_test_util.h"

namespace graphport::tfjs {
namespace {

using nlohmann::json;
using testing::Bytes;
using testing::OwnedInputSet;
using testing::Values;

const MemoryOutputSet::File* FindFile(const MemoryOutputSet& out, const std::string& name) {
  for (const auto& f : out.files()) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

tensorflow::MetaGraphDef ReadCorpusModel(const std::string& folder, OwnedInputSet* inputs,
                                         const ReadOptions& options = {}) {
  inputs->AddFolder(testing::CorpusDir() / "tfjs/tfjs-to-tf" / folder);
  tensorflow::MetaGraphDef meta;
  testing::ReadModel(inputs, &meta, options);
  return meta;
}

// Read, write, read: the same graph, and the very bytes tfjs-converter wrote for the shard.
TEST(WriteGraphModelTest, CorpusRoundTripsToTheSameGraphAndShardBytes) {
  ASSERT_TRUE(testing::CorpusPresent()) << testing::MissingCorpusMessage();
  for (const char* folder : {"simple", "prelu"}) {
    SCOPED_TRACE(folder);
    OwnedInputSet original;
    tensorflow::MetaGraphDef meta = ReadCorpusModel(folder, &original);
    MemoryOutputSet out;
    WriteOptions options;
    options.generated_by = "2.1.0";
    json info =
        WriteGraphModel(meta.graph_def(), &meta.signature_def().at(kSignatureKey), options, &out);
    EXPECT_EQ(info["files"], json({"group1-shard1of1.bin", "model.json"}));
    ASSERT_NE(FindFile(out, "group1-shard1of1.bin"), nullptr);
    EXPECT_EQ(FindFile(out, "group1-shard1of1.bin")->bytes, original.bytes("group1-shard1of1.bin"));

    OwnedInputSet written;
    testing::AddOutputs(out, &written);
    tensorflow::MetaGraphDef back;
    testing::ReadModel(&written, &back);
    EXPECT_TRUE(testing::MessagesEqual(meta.graph_def(), back.graph_def()));
    EXPECT_TRUE(testing::MessagesEqual(meta.signature_def().at(kSignatureKey),
                                       back.signature_def().at(kSignatureKey)));

    // The manifest is the converter's, entry for entry.
    json theirs = json::parse(original.bytes("model.json"));
    json ours = json::parse(written.bytes("model.json"));
    EXPECT_EQ(ours["weightsManifest"], theirs["weightsManifest"]);
    EXPECT_EQ(ours["format"], "graph-model");
    EXPECT_EQ(ours["convertedBy"], "graphport");
  }
}

TEST(WriteGraphModelTest, ModelJsonKeysInTheConvertersOrderAndTopologyForTfjs) {
  ASSERT_TRUE(testing::CorpusPresent()) << testing::MissingCorpusMessage();
  OwnedInputSet original;
  tensorflow::MetaGraphDef meta = ReadCorpusModel("simple", &original);
  meta.mutable_graph_def()->clear_versions();  // even empty, versions must be there
  MemoryOutputSet out;
  WriteOptions options;
  options.user_metadata = {{"note", "x"}};
  WriteGraphModel(meta.graph_def(), &meta.signature_def().at(kSignatureKey), options, &out);
  nlohmann::ordered_json model = nlohmann::ordered_json::parse(FindFile(out, "model.json")->bytes);
  std::vector<std::string> keys;
  for (auto& [key, value] : model.items()) keys.push_back(key);
  EXPECT_EQ(keys,
            (std::vector<std::string>{"format", "generatedBy", "convertedBy", "signature",
                                      "modelTopology", "userDefinedMetadata", "weightsManifest"}));
  EXPECT_TRUE(model["generatedBy"].is_null());
  const auto& topology = model["modelTopology"];
  EXPECT_EQ(topology["versions"], nlohmann::ordered_json::object());
  EXPECT_EQ(topology["library"], nlohmann::ordered_json::object());
  // Consts keep dtype and shape, not their values; int64 dims as strings; node keys in
  // NodeDef field order.
  const auto& weight = topology["node"][0];
  std::vector<std::string> node_keys;
  for (auto& [key, value] : weight.items()) node_keys.push_back(key);
  EXPECT_EQ(node_keys, (std::vector<std::string>{"name", "op", "attr"}));
  EXPECT_EQ(json::parse(weight["attr"]["value"]["tensor"].dump()),
            json::parse(R"({"dtype": "DT_FLOAT", "tensorShape": {"dim": [{"size": "1"},
                           {"size": "1"}]}})"));
  // The fused node: bytes in base64, a float attr as its shortest decimal.
  const auto& fused = topology["node"][3];
  EXPECT_EQ(fused["attr"]["fused_ops"]["list"]["s"][0], "Qmlhc0FkZA==");
  EXPECT_EQ(fused["attr"]["epsilon"]["f"].dump(), "0.0");
  EXPECT_EQ(fused["device"], "/device:CPU:0");
  EXPECT_EQ(model["signature"]["outputs"]["Identity"]["name"], "Identity:0");
}

TEST(WriteGraphModelTest, ShardLayoutForAShardSize) {
  ASSERT_TRUE(testing::CorpusPresent()) << testing::MissingCorpusMessage();
  OwnedInputSet original;
  tensorflow::MetaGraphDef meta = ReadCorpusModel("prelu", &original);  // 124 weight bytes
  MemoryOutputSet out;
  WriteOptions options;
  options.shard_size = 50;
  json info = WriteGraphModel(meta.graph_def(), nullptr, options, &out);
  EXPECT_EQ(info["shards"], 3);
  EXPECT_EQ(info["weightBytes"], 124);
  ASSERT_EQ(out.files().size(), 4u);
  EXPECT_EQ(out.files()[0].name, "group1-shard1of3.bin");
  EXPECT_EQ(out.files()[1].name, "group1-shard2of3.bin");
  EXPECT_EQ(out.files()[2].name, "group1-shard3of3.bin");
  EXPECT_EQ(out.files()[0].bytes.size(), 50u);
  EXPECT_EQ(out.files()[1].bytes.size(), 50u);
  EXPECT_EQ(out.files()[2].bytes.size(), 24u);
  EXPECT_EQ(out.files()[0].bytes + out.files()[1].bytes + out.files()[2].bytes,
            original.bytes("group1-shard1of1.bin"));
  json model = json::parse(out.files()[3].bytes);
  EXPECT_FALSE(model.contains("signature"));
  EXPECT_EQ(model["weightsManifest"][0]["paths"],
            json({"group1-shard1of3.bin", "group1-shard2of3.bin", "group1-shard3of3.bin"}));
  OwnedInputSet written;
  testing::AddOutputs(out, &written);
  tensorflow::MetaGraphDef back;
  testing::ReadModel(&written, &back);
  EXPECT_TRUE(testing::MessagesEqual(meta.graph_def(), back.graph_def()));
}

// A graph built here with Consts of every dtype TF.js can hold, in typed fields (not
// tensor_content), to be converted and broadcast as TensorFlow's MakeNdarray does.
tensorflow::GraphDef TypedConsts() {
  tensorflow::GraphDef graph;
  auto add = [&](const std::string& name, tensorflow::DataType dtype, std::vector<int64_t> shape) {
    tensorflow::NodeDef* node = graph.add_node();
    node->set_name(name);
    node->set_op("Const");
    (*node->mutable_attr())["dtype"].set_type(dtype);
    tensorflow::TensorProto* t = (*node->mutable_attr())["value"].mutable_tensor();
    t->set_dtype(dtype);
    for (int64_t d : shape) t->mutable_tensor_shape()->add_dim()->set_size(d);
    return t;
  };
  add("f", tensorflow::DT_FLOAT, {3})->add_float_val(2.5f);  // broadcast to 3
  auto* d = add("d", tensorflow::DT_DOUBLE, {2});
  d->add_double_val(0.1);
  d->add_double_val(-3);
  auto* i64 = add("i64", tensorflow::DT_INT64, {2});
  i64->add_int64_val(-5);
  i64->add_int64_val(int64_t{1} << 33 | 7);  // wraps to 7, as astype(int32) does
  add("b", tensorflow::DT_BOOL, {2})->add_bool_val(true);
  auto* s = add("s", tensorflow::DT_STRING, {2});
  s->add_string_val("hello");
  s->add_string_val("");
  auto* c = add("c", tensorflow::DT_COMPLEX64, {1});
  c->add_scomplex_val(1);
  c->add_scomplex_val(-2);
  add("u8", tensorflow::DT_UINT8, {2})->add_int_val(200);
  add("scalar", tensorflow::DT_FLOAT, {})->add_float_val(7);
  graph.mutable_versions()->set_producer(1);
  return graph;
}

TEST(WriteGraphModelTest, TypedValuesAreConvertedAsTheConverterDoes) {
  MemoryOutputSet out;
  WriteGraphModel(TypedConsts(), nullptr, {}, &out);
  OwnedInputSet written;
  testing::AddOutputs(out, &written);
  tensorflow::MetaGraphDef back;
  testing::ReadModel(&written, &back);
  auto value = [&](const std::string& name) -> const tensorflow::TensorProto& {
    for (const auto& n : back.graph_def().node()) {
      if (n.name() == name) return n.attr().at("value").tensor();
    }
    static tensorflow::TensorProto none;
    ADD_FAILURE() << name;
    return none;
  };
  EXPECT_EQ(Values<float>(value("f").tensor_content()), (std::vector<float>{2.5f, 2.5f, 2.5f}));
  // float64 narrowed to float32 in the manifest, widened back for the DT_DOUBLE Const.
  EXPECT_EQ(Values<double>(value("d").tensor_content()),
            (std::vector<double>{static_cast<float>(0.1), -3}));
  EXPECT_EQ(Values<int64_t>(value("i64").tensor_content()), (std::vector<int64_t>{-5, 7}));
  EXPECT_EQ(Values<uint8_t>(value("b").tensor_content()), (std::vector<uint8_t>{1, 1}));
  EXPECT_EQ(value("s").string_val(0), "hello");
  EXPECT_EQ(value("s").string_val(1), "");
  EXPECT_EQ(Values<float>(value("c").tensor_content()), (std::vector<float>{1, -2}));
  EXPECT_EQ(Values<uint8_t>(value("u8").tensor_content()), (std::vector<uint8_t>{200, 200}));
  EXPECT_EQ(value("u8").dtype(), tensorflow::DT_UINT8);
  EXPECT_EQ(Values<float>(value("scalar").tensor_content()), (std::vector<float>{7}));
  json model = json::parse(written.bytes("model.json"));
  EXPECT_EQ(model["weightsManifest"][0]["weights"][2]["dtype"], "int32");
  EXPECT_EQ(model["weightsManifest"][0]["weights"][7]["shape"], json::array());
  // f 12, d 8, i64 8, b 2, s (4+5) + (4+0), c 8, u8 as int32 8, scalar 4: 63 bytes.
  EXPECT_EQ(model["weightsManifest"][0]["paths"].size(), 1u);
  EXPECT_EQ(written.bytes("group1-shard1of1.bin").size(), 63u);
}

// The converter's docstring example: [0, -0.1, 1.2] as uint8 is [20, 0, 255] with the
// nudged minimum -0.10196078817049663.
TEST(WriteGraphModelTest, AffineQuantizationMatchesTheConverter) {
  std::vector<float> values = {0.0f, -0.1f, 1.2f};
  AffineQuantized q = QuantizeAffine(values.data(), values.size(), 255);
  EXPECT_EQ(q.codes, (std::vector<uint16_t>{20, 0, 255}));
  EXPECT_DOUBLE_EQ(q.min, -0.10196078817049663);
  EXPECT_NEAR(q.scale, 0.00509803940852, 1e-14);
  // All equal: codes 0, scale 1, min the value.
  std::vector<float> same = {3.5f, 3.5f};
  q = QuantizeAffine(same.data(), same.size(), 65535);
  EXPECT_EQ(q.codes, (std::vector<uint16_t>{0, 0}));
  EXPECT_EQ(q.scale, 1.0);
  EXPECT_EQ(q.min, 3.5);
  // Zero outside the range: no nudging.
  std::vector<float> positive = {1, 2, 3};
  q = QuantizeAffine(positive.data(), positive.size(), 255);
  EXPECT_EQ(q.min, 1.0);
  EXPECT_EQ(q.codes, (std::vector<uint16_t>{0, 128, 255}));  // 127.5: to even, and up
  // A tie whose lower neighbour is even: halves to even give 2, halves away from zero 3.
  std::vector<float> tie = {0.0f, 2.5f, 255.0f};
  q = QuantizeAffine(tie.data(), tie.size(), 255);
  EXPECT_EQ(q.scale, 1.0);
  EXPECT_EQ(q.codes, (std::vector<uint16_t>{0, 2, 255}));
  // And in the zero point: [-2.5, 252.5] has scale 1 and zero point 2.5, which rounds to 2
  // (0 is code 2); -2.5 clips to the nudged minimum -2, and 252.5 is 254.5 codes up: 254.
  std::vector<float> nudged = {-2.5f, 252.5f};
  q = QuantizeAffine(nudged.data(), nudged.size(), 255);
  EXPECT_EQ(q.min, -2.0);
  EXPECT_EQ(q.codes, (std::vector<uint16_t>{0, 254}));
}

TEST(WriteGraphModelTest, FnMatchIsPythons) {
  EXPECT_TRUE(FnMatch("*", "a/b/c"));
  EXPECT_TRUE(FnMatch("conv*/weights", "conv1/block/weights"));
  EXPECT_TRUE(FnMatch("w?", "w1"));
  EXPECT_FALSE(FnMatch("w?", "w12"));
  EXPECT_TRUE(FnMatch("w[0-3]", "w2"));
  EXPECT_FALSE(FnMatch("w[!0-3]", "w2"));
  EXPECT_TRUE(FnMatch("w[!0-3]", "w7"));
  EXPECT_TRUE(FnMatch("a[", "a["));
  EXPECT_FALSE(FnMatch("W*", "w1"));
  EXPECT_TRUE(FnMatch("*BiasAdd*", "dense/BiasAdd/ReadVariableOp"));
}

// Quantized re-exports read back within the quantization step, weight by weight; only the
// weights the patterns name are quantized.
TEST(WriteGraphModelTest, QuantizedExportsReadBackWithinTheStep) {
  ASSERT_TRUE(testing::CorpusPresent()) << testing::MissingCorpusMessage();
  OwnedInputSet original;
  tensorflow::MetaGraphDef meta = ReadCorpusModel("prelu", &original);
  for (const char* dtype : {"uint8", "uint16", "float16"}) {
    SCOPED_TRACE(dtype);
    MemoryOutputSet out;
    WriteOptions options;
    options.quantize = dtype;
    options.quantize_weights = {"*MatMul*"};
    json info = WriteGraphModel(meta.graph_def(), nullptr, options, &out);
    EXPECT_EQ(info["quantized"].size(), 2u);
    OwnedInputSet written;
    testing::AddOutputs(out, &written);
    tensorflow::MetaGraphDef back;
    testing::ReadModel(&written, &back);
    json manifest = json::parse(written.bytes("model.json"))["weightsManifest"][0]["weights"];
    for (int i = 0; i < meta.graph_def().node_size(); ++i) {
      const auto& node = meta.graph_def().node(i);
      if (node.op() != "Const") continue;
      std::vector<float> before = Values<float>(node.attr().at("value").tensor().tensor_content());
      std::vector<float> after =
          Values<float>(back.graph_def().node(i).attr().at("value").tensor().tensor_content());
      ASSERT_EQ(before.size(), after.size());
      json entry;
      for (const json& e : manifest) {
        if (e["name"] == node.name()) entry = e;
      }
      bool quantized = node.name().find("MatMul") != std::string::npos;
      EXPECT_EQ(entry.contains("quantization"), quantized) << node.name();
      for (size_t k = 0; k < before.size(); ++k) {
        double step = 0;
        if (!quantized) {
          step = 0;
        } else if (std::string(dtype) == "float16") {
          step = std::ldexp(std::fabs(before[k]), -11);  // half an ulp of binary16
        } else {
          step = entry["quantization"]["scale"].get<double>() / 2 * (1 + 1e-6);
        }
        EXPECT_LE(std::fabs(double(before[k]) - double(after[k])), step)
            << node.name() << "[" << k << "]";
      }
    }
  }
}

// Kept codes (dequantize: false) go back out as the same codes and the same manifest entry.
TEST(WriteGraphModelTest, KeptCodesAreWrittenBackUntouched) {
  ASSERT_TRUE(testing::CorpusPresent()) << testing::MissingCorpusMessage();
  OwnedInputSet original;
  tensorflow::MetaGraphDef meta = ReadCorpusModel("prelu", &original);
  MemoryOutputSet quantized;
  WriteOptions options;
  options.quantize = "uint8";
  WriteGraphModel(meta.graph_def(), nullptr, options, &quantized);
  OwnedInputSet first;
  testing::AddOutputs(quantized, &first);
  ReadOptions keep;
  keep.dequantize = false;
  tensorflow::MetaGraphDef codes;
  testing::ReadModel(&first, &codes, keep);
  MemoryOutputSet again;
  WriteGraphModel(codes.graph_def(), nullptr, {}, &again);
  EXPECT_EQ(FindFile(again, "group1-shard1of1.bin")->bytes,
            FindFile(quantized, "group1-shard1of1.bin")->bytes);
  EXPECT_EQ(json::parse(FindFile(again, "model.json")->bytes)["weightsManifest"],
            json::parse(FindFile(quantized, "model.json")->bytes)["weightsManifest"]);
  EXPECT_EQ(json::parse(FindFile(again, "model.json")->bytes)["modelTopology"],
            json::parse(FindFile(quantized, "model.json")->bytes)["modelTopology"]);
}

TEST(WriteGraphModelTest, FunctionConstsBecomeWeightsUnderTheFunctionsName) {
  tensorflow::GraphDef graph;
  auto* f = graph.mutable_library()->add_function();
  f->mutable_signature()->set_name("body");
  auto* c = f->add_node_def();
  c->set_name("k");
  c->set_op("Const");
  (*c->mutable_attr())["dtype"].set_type(tensorflow::DT_FLOAT);
  auto* t = (*c->mutable_attr())["value"].mutable_tensor();
  t->set_dtype(tensorflow::DT_FLOAT);
  t->add_float_val(4);
  auto* add = f->add_node_def();
  add->set_name("add");
  add->set_op("AddV2");
  add->add_input("k:output:0");
  add->add_input("^k");
  (*f->mutable_ret())["out"] = "k:output:0";
  MemoryOutputSet out;
  json info = WriteGraphModel(graph, nullptr, {}, &out);
  EXPECT_EQ(info["renamedFunctionConsts"], 1);
  json model = json::parse(FindFile(out, "model.json")->bytes);
  EXPECT_EQ(model["weightsManifest"][0]["weights"][0]["name"], "body/k");
  const json& body = model["modelTopology"]["library"]["function"][0];
  EXPECT_EQ(body["nodeDef"][0]["name"], "body/k");
  EXPECT_EQ(body["nodeDef"][1]["input"], json({"body/k:output:0", "^body/k"}));
  EXPECT_EQ(body["ret"]["out"], "body/k:output:0");
  OwnedInputSet written;
  testing::AddOutputs(out, &written);
  tensorflow::MetaGraphDef back;
  testing::ReadModel(&written, &back);
  EXPECT_EQ(Values<float>(back.graph_def()
                              .library()
                              .function(0)
                              .node_def(0)
                              .attr()
                              .at("value")
                              .tensor()
                              .tensor_content()),
            std::vector<float>{4});
}

// A weight is named by its node, a function's Consts under the function's name: a graph node
// of that name too would make two weights of one name, which TF.js cannot tell apart.
TEST(WriteGraphModelTest, TwoConstsOfOneWeightNameAreRefused) {
  tensorflow::GraphDef graph;
  auto add_const = [](tensorflow::NodeDef* c, const std::string& name) {
    c->set_name(name);
    c->set_op("Const");
    auto* t = (*c->mutable_attr())["value"].mutable_tensor();
    t->set_dtype(tensorflow::DT_FLOAT);
    t->add_float_val(1);
  };
  add_const(graph.add_node(), "body/k");
  auto* f = graph.mutable_library()->add_function();
  f->mutable_signature()->set_name("body");
  add_const(f->add_node_def(), "k");
  MemoryOutputSet out;
  try {
    WriteGraphModel(graph, nullptr, {}, &out);
    ADD_FAILURE() << "two weights named body/k were written";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kUnsupported);
    EXPECT_EQ(e.where().node, "body/k");
    EXPECT_NE(std::string(e.what()).find("two Consts would both be weight 'body/k'"),
              std::string::npos)
        << e.what();
  }
  EXPECT_TRUE(out.files().empty());

  // Named apart, both are weights.
  graph.mutable_node(0)->set_name("k");
  MemoryOutputSet written;
  EXPECT_EQ(WriteGraphModel(graph, nullptr, {}, &written)["weights"], 2);
}

TEST(WriteGraphModelTest, BadOptionsAndWeights) {
  tensorflow::GraphDef graph = TypedConsts();
  auto expect_error = [&](WriteOptions options, ErrorCode code, const std::string& option,
                          const std::string& text, const tensorflow::GraphDef& g) {
    MemoryOutputSet out;
    try {
      WriteGraphModel(g, nullptr, options, &out);
      ADD_FAILURE() << "no error: " << text;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), code) << e.what();
      EXPECT_EQ(e.where().option, option) << e.what();
      EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
    }
  };
  WriteOptions o;
  o.quantize = "int4";
  expect_error(o, ErrorCode::kInvalidOption, "quantize", "float16, uint8 or uint16", graph);
  o = {};
  o.quantize_weights = {"*"};
  expect_error(o, ErrorCode::kInvalidOption, "quantizeWeights", "needs quantize", graph);
  o = {};
  o.shard_size = 0;
  expect_error(o, ErrorCode::kInvalidOption, "shardSize", "positive", graph);
  tensorflow::GraphDef nan = graph;
  nan.mutable_node(0)->mutable_attr()->at("value").mutable_tensor()->set_float_val(0, NAN);
  o = {};
  o.quantize = "uint8";
  expect_error(o, ErrorCode::kInvalidOption, "quantize", "weight 'f' holds NaN", nan);
  tensorflow::GraphDef resource = graph;
  auto* t = resource.mutable_node(0)->mutable_attr()->at("value").mutable_tensor();
  t->set_dtype(tensorflow::DT_RESOURCE);
  expect_error({}, ErrorCode::kUnsupported, "", "no weight dtype for DT_RESOURCE", resource);
  tensorflow::GraphDef short_content = graph;
  t = short_content.mutable_node(0)->mutable_attr()->at("value").mutable_tensor();
  t->clear_float_val();
  t->set_tensor_content("abc");
  expect_error({}, ErrorCode::kParseError, "", "tensor_content has 3 bytes", short_content);
}

// The initializer's signature keeps the input's (sorted) order; a linked table output the
// signature lacks is added at its end, and resourceId at the end of an entry that lacks it.
// A signature that is not an object of objects cannot take the link: an error, not a throw
// from inside the JSON library.
TEST(WriteGraphModelTest, InitializerSignatureTakesTheResourceLinksInOrder) {
  tensorflow::GraphDef graph, initializer;
  graph.add_node()->set_name("unknown");
  graph.mutable_node(0)->set_op("Placeholder");
  initializer.add_node()->set_name("Identity");
  initializer.mutable_node(0)->set_op("Identity");
  WriteOptions options;
  options.initializer = &initializer;
  options.resource_links = {{"unknown", "Identity:0", 42, ""}, {"unknown", "A:0", 7, ""}};
  options.initializer_signature =
      json::parse(R"({"outputs": {"Z:0": {"name": "Z:0"}, "A:0": {"name": "A:0", "x": 1}}})");
  MemoryOutputSet out;
  WriteGraphModel(graph, nullptr, options, &out);
  std::string text = FindFile(out, "model.json")->bytes;
  EXPECT_NE(text.find(R"("initializerSignature":{"outputs":{"A:0":{"name":"A:0","x":1,)"
                      R"("resourceId":7},"Z:0":{"name":"Z:0"},"Identity:0":{"name":)"
                      R"("Identity:0","dtype":"DT_RESOURCE","tensorShape":{},"resourceId":42}}})"),
            std::string::npos)
      << text;
  for (const char* bad : {R"([1])", R"({"outputs": [1]})"}) {
    options.initializer_signature = json::parse(bad);
    MemoryOutputSet failed;
    try {
      WriteGraphModel(graph, nullptr, options, &failed);
      ADD_FAILURE() << "no error for " << bad;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kParseError) << e.what();
      EXPECT_NE(std::string(e.what()).find("initializerSignature"), std::string::npos);
    }
  }
}

}  // namespace
}  // namespace graphport::tfjs

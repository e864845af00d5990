// Bad TF.js inputs: each one a graphport::Error with a clear code, a message naming the file,
// the weight or the node, and the same place in ErrorLocation. Never a crash, never an
// allocation the input's declared sizes ask for.
#include <gtest/gtest.h>

#include "core/error.h"
#include "core/limits.h"
#include "tfjs/read_graph_model.h"
#include "tfjs_test_util.h"

namespace graphport::tfjs {
namespace {

using nlohmann::json;
using testing::Bytes;
using testing::ConstNode;
using testing::OwnedInputSet;

// A one-weight model: Const "w" of `shape`, stored in `paths`.
json OneWeightModel(std::vector<int64_t> shape, json paths = {"group1-shard1of1.bin"}) {
  return {{"format", "graph-model"},
          {"modelTopology",
           {{"node", {ConstNode("w", "DT_FLOAT", shape)}}, {"versions", json::object()}}},
          {"weightsManifest",
           {{{"paths", paths},
             {"weights", {{{"name", "w"}, {"shape", shape}, {"dtype", "float32"}}}}}}}};
}

Error ReadError(OwnedInputSet* inputs, const std::string& name = "model.json") {
  tensorflow::MetaGraphDef meta;
  try {
    testing::ReadModel(inputs, &meta, {}, name);
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "no error";
  return Error(ErrorCode::kInternal, "no error");
}

bool Has(const Error& e, const std::string& text) {
  return std::string(e.what()).find(text) != std::string::npos;
}

TEST(TfjsBadInputTest, MissingShard) {
  OwnedInputSet inputs("folder");
  inputs.Add("model.json",
             OneWeightModel({2}, {"group1-shard1of2.bin", "group1-shard2of2.bin"}).dump());
  inputs.Add("group1-shard1of2.bin", Bytes(std::vector<float>{1}));
  Error e = ReadError(&inputs);
  EXPECT_EQ(e.code(), ErrorCode::kNotFound);
  EXPECT_TRUE(Has(e, "'group1-shard2of2.bin' is missing")) << e.what();
  EXPECT_TRUE(Has(e, "weightsManifest[0].paths[1]")) << e.what();
  EXPECT_EQ(e.where().file, "model.json");
}

TEST(TfjsBadInputTest, ShardShorterThanManifest) {
  OwnedInputSet inputs;
  inputs.Add("model.json", OneWeightModel({3}).dump());
  inputs.Add("group1-shard1of1.bin", Bytes(std::vector<float>{1, 2}));
  Error e = ReadError(&inputs);
  EXPECT_EQ(e.code(), ErrorCode::kParseError);
  EXPECT_TRUE(Has(e, "weight 'w'")) << e.what();
  EXPECT_TRUE(Has(e, "'group1-shard1of1.bin' ends at byte 8")) << e.what();
  EXPECT_TRUE(Has(e, "4 more bytes")) << e.what();
  EXPECT_EQ(e.where().node, "w");
  EXPECT_EQ(e.where().offset, 8);
}

// A declared size of 2^40 floats with 8 bytes of shard: the error comes after reading the 8
// bytes, without ever reserving the declared size.
TEST(TfjsBadInputTest, HugeDeclaredWeightIsNotAllocated) {
  OwnedInputSet inputs;
  inputs.Add("model.json", OneWeightModel({int64_t{1} << 40}).dump());
  inputs.Add("group1-shard1of1.bin", Bytes(std::vector<float>{1, 2}));
  Error e = ReadError(&inputs);
  EXPECT_EQ(e.code(), ErrorCode::kParseError);
  EXPECT_TRUE(Has(e, "shorter than the manifest")) << e.what();
}

TEST(TfjsBadInputTest, OverflowingShape) {
  OwnedInputSet inputs;
  inputs.Add("model.json", OneWeightModel({int64_t{1} << 62, int64_t{1} << 62}).dump());
  inputs.Add("group1-shard1of1.bin", "");
  Error e = ReadError(&inputs);
  EXPECT_EQ(e.code(), ErrorCode::kTooLarge);
  EXPECT_TRUE(Has(e, "overflows")) << e.what();
  // 2^62 elements fit, 2^64 bytes of float32 do not.
  inputs.Add("model.json", OneWeightModel({int64_t{1} << 62}).dump());
  e = ReadError(&inputs);
  EXPECT_EQ(e.code(), ErrorCode::kTooLarge);
}

TEST(TfjsBadInputTest, PathsOutsideTheModelFolderAreRefused) {
  for (const char* path : {"../secret.bin", "/etc/passwd", "a/../../b.bin", "shards/./x.bin"}) {
    OwnedInputSet inputs;
    inputs.Add("m/model.json", OneWeightModel({1}, {path}).dump());
    inputs.Add("m/x.bin", Bytes(std::vector<float>{1}));
    inputs.Add("secret.bin", Bytes(std::vector<float>{1}));
    Error e = ReadError(&inputs, "m/model.json");
    EXPECT_EQ(e.code(), ErrorCode::kUnsupported) << path;
    EXPECT_TRUE(Has(e, std::string("'") + path + "' is not a relative path inside")) << e.what();
  }
}

TEST(TfjsBadInputTest, ShardNamesWithAndWithoutBinAndInSubfolders) {
  OwnedInputSet inputs;
  inputs.Add("m/model.json", OneWeightModel({1}, {"./group1-shard1of1"}).dump());
  inputs.Add("m/group1-shard1of1.bin", Bytes(std::vector<float>{5}));
  tensorflow::MetaGraphDef meta;
  testing::ReadModel(&inputs, &meta, {}, "m/model.json");
  EXPECT_EQ(meta.graph_def().node(0).attr().at("value").tensor().tensor_content(),
            Bytes(std::vector<float>{5}));
}

TEST(TfjsBadInputTest, LayersModel) {
  OwnedInputSet inputs;
  inputs.Add("model.json",
             json({{"format", "layers-model"},
                   {"modelTopology", {{"class_name", "Sequential"}, {"config", json::object()}}},
                   {"weightsManifest", json::array()}})
                 .dump());
  Error e = ReadError(&inputs);
  EXPECT_EQ(e.code(), ErrorCode::kUnsupported);
  EXPECT_TRUE(Has(e, "this is a Keras layers model, not a graph model")) << e.what();
  // The Python converter's form: keras_version + model_config, no format.
  inputs.Add(
      "model.json",
      json({{"modelTopology", {{"keras_version", "2.2.4"}, {"model_config", json::object()}}},
            {"weightsManifest", json::array()}})
          .dump());
  EXPECT_TRUE(Has(ReadError(&inputs), "this is a Keras layers model, not a graph model"));
}

TEST(TfjsBadInputTest, WeightsOnlyManifest) {
  OwnedInputSet inputs;
  inputs.Add("model.json",
             json::array({{{"paths", {"a.bin"}}, {"weights", json::array()}}}).dump());
  Error e = ReadError(&inputs);
  EXPECT_EQ(e.code(), ErrorCode::kUnsupported);
  EXPECT_TRUE(Has(e, "weights manifest only")) << e.what();
}

TEST(TfjsBadInputTest, OpNeitherTfjsNorTensorFlowKnows) {
  OwnedInputSet inputs;
  json model = OneWeightModel({1});
  model["modelTopology"]["node"].push_back(
      {{"name", "strange"}, {"op", "FrobnicateV7"}, {"input", {"w"}}});
  inputs.Add("model.json", model.dump());
  inputs.Add("group1-shard1of1.bin", Bytes(std::vector<float>{1}));
  Error e = ReadError(&inputs);
  EXPECT_EQ(e.code(), ErrorCode::kUnsupported);
  EXPECT_TRUE(Has(e, "node 'strange' has op 'FrobnicateV7'")) << e.what();
  EXPECT_EQ(e.where().node, "strange");
  // An op TensorFlow's registry defines is fine when that registry is given.
  tensorflow::OpList registry;
  registry.add_op()->set_name("FrobnicateV7");
  ReadOptions options;
  options.op_registry = &registry;
  tensorflow::MetaGraphDef meta;
  testing::ReadModel(&inputs, &meta, options);
  EXPECT_EQ(meta.graph_def().node_size(), 2);
}

TEST(TfjsBadInputTest, NotUtf8AndNotJson) {
  OwnedInputSet inputs;
  std::string text = OneWeightModel({1}).dump();
  size_t at = text.find("graph-model");
  text[at] = '\xff';
  inputs.Add("model.json", text);
  Error e = ReadError(&inputs);
  EXPECT_EQ(e.code(), ErrorCode::kParseError);
  EXPECT_EQ(e.where().offset, static_cast<int64_t>(at)) << e.what();
  EXPECT_TRUE(Has(e, "UTF-8")) << e.what();
  inputs.Add("model.json", "{\"modelTopology\": {\"node\": [");
  e = ReadError(&inputs);
  EXPECT_EQ(e.code(), ErrorCode::kParseError);
  EXPECT_TRUE(Has(e, "not valid JSON")) << e.what();
}

TEST(TfjsBadInputTest, DtypeTheConstCannotHold) {
  OwnedInputSet inputs;
  json model = OneWeightModel({1});
  model["weightsManifest"][0]["weights"][0]["dtype"] = "string";
  inputs.Add("model.json", model.dump());
  inputs.Add("group1-shard1of1.bin", std::string("\1\0\0\0x", 5));
  Error e = ReadError(&inputs);
  EXPECT_EQ(e.code(), ErrorCode::kParseError);
  EXPECT_TRUE(Has(e, "weight 'w' is string in the manifest")) << e.what();
  EXPECT_EQ(e.where().node, "w");
}

TEST(TfjsBadInputTest, BadManifestEntries) {
  struct Case {
    const char* field;
    json value;
    const char* expected;
  };
  const Case cases[] = {
      {"dtype", "float64", "has no \"dtype\""},
      {"shape", {-1}, "not a non-negative integer"},
      {"quantization", {{"dtype", "uint8"}}, "without numbers \"scale\" and \"min\""},
      {"quantization", {{"dtype", "int4"}}, "quantization dtype other than"},
      {"dtype", "uint8", "without \"quantization\""},
  };
  for (const Case& c : cases) {
    OwnedInputSet inputs;
    json model = OneWeightModel({1});
    model["weightsManifest"][0]["weights"][0][c.field] = c.value;
    inputs.Add("model.json", model.dump());
    inputs.Add("group1-shard1of1.bin", Bytes(std::vector<float>{1}));
    Error e = ReadError(&inputs);
    EXPECT_EQ(e.code(), ErrorCode::kParseError) << c.expected;
    EXPECT_TRUE(Has(e, c.expected)) << e.what();
    EXPECT_TRUE(Has(e, "weightsManifest[0].weights[0] ('w')")) << e.what();
  }
}

TEST(TfjsBadInputTest, ConstWithoutWeightAndDuplicateWeights) {
  OwnedInputSet inputs;
  json model = OneWeightModel({1});
  model["modelTopology"]["node"].push_back(ConstNode("orphan", "DT_FLOAT", {2}));
  inputs.Add("model.json", model.dump());
  inputs.Add("group1-shard1of1.bin", Bytes(std::vector<float>{1}));
  Error e = ReadError(&inputs);
  EXPECT_TRUE(Has(e, "Const node 'orphan' has no value")) << e.what();
  EXPECT_EQ(e.where().node, "orphan");

  model = OneWeightModel({1});
  model["weightsManifest"][0]["weights"].push_back(model["weightsManifest"][0]["weights"][0]);
  inputs.Add("model.json", model.dump());
  inputs.Add("group1-shard1of1.bin", Bytes(std::vector<float>{1, 2}));
  EXPECT_TRUE(Has(ReadError(&inputs), "is in the manifest twice"));
}

TEST(TfjsBadInputTest, BadTopologyNamesTheNode) {
  OwnedInputSet inputs;
  json model = OneWeightModel({1});
  model["modelTopology"]["node"].push_back({{"name", "n1"}, {"op", "Identity"}, {"inputs", {"w"}}});
  inputs.Add("model.json", model.dump());
  inputs.Add("group1-shard1of1.bin", Bytes(std::vector<float>{1}));
  Error e = ReadError(&inputs);
  EXPECT_EQ(e.code(), ErrorCode::kParseError);
  EXPECT_TRUE(Has(e, "modelTopology.node[1] ('n1')")) << e.what();
  EXPECT_EQ(e.where().node, "n1");
}

// Brackets inside strings are text, escaped quotes included: a node name full of them nests
// nothing, and the model loads.
TEST(TfjsBadInputTest, BracketsInStringsAreNotNesting) {
  OwnedInputSet inputs;
  json model = OneWeightModel({1});
  const std::string name = std::string(5000, '[') + "\\\"{" + std::string(5000, '{');
  model["modelTopology"]["node"].push_back({{"name", name}, {"op", "Identity"}, {"input", {"w"}}});
  inputs.Add("model.json", model.dump());
  inputs.Add("group1-shard1of1.bin", Bytes(std::vector<float>{1}));
  tensorflow::MetaGraphDef meta;
  testing::ReadModel(&inputs, &meta, {}, "model.json");
  ASSERT_EQ(meta.graph_def().node_size(), 2);
  EXPECT_EQ(meta.graph_def().node(1).name(), name);
}

// JSON nested far deeper than any graph: refused with an error, not a stack overflow.
TEST(TfjsBadInputTest, DeeplyNestedJson) {
  const int depth = 200000;
  std::string attr = std::string(depth, '[') + std::string(depth, ']');
  std::string text =
      "{\"modelTopology\": {\"node\": [{\"name\": \"n\", \"op\": \"NoOp\", "
      "\"attr\": {\"a\": {\"list\": {\"s\": " +
      attr + "}}}}]}, \"weightsManifest\": []}";
  OwnedInputSet inputs;
  inputs.Add("model.json", text);
  Error e = ReadError(&inputs);
  EXPECT_EQ(e.code(), ErrorCode::kParseError) << e.what();
  EXPECT_NE(std::string(e.what()).find("levels deep"), std::string::npos) << e.what();
  // Found before any value is built, at the first bracket too deep: seven levels are open
  // where the attr's value starts, and the limit is 2 * kMaxProtoNesting + 16.
  const size_t first_too_deep = text.find(attr) + (2 * kMaxProtoNesting + 16 + 1) - 7 - 1;
  EXPECT_EQ(e.where().offset, static_cast<int64_t>(first_too_deep)) << e.what();
  std::string nested_value =
      "{\"modelTopology\": {\"node\": [{\"name\": \"n\", \"op\": \"NoOp\", "
      "\"attr\": {\"a\": {\"func\": ";
  // Within the JSON bound, but deeper than messages may nest: the protobuf reader's limit.
  for (int i = 0; i < 60; ++i) nested_value += "{\"name\": \"f\", \"attr\": {\"x\": {\"func\": ";
  nested_value += "{}";
  for (int i = 0; i < 60; ++i) nested_value += "}}}";
  nested_value += "}}}]}, \"weightsManifest\": []}";
  inputs.Add("model.json", nested_value);
  e = ReadError(&inputs);
  EXPECT_NE(std::string(e.what()).find("nest"), std::string::npos) << e.what();
}

}  // namespace
}  // namespace graphport::tfjs

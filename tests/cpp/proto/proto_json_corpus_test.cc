// proto::JsonToMessage on the corpus as libprotobuf's MessageToJsonString prints it (in each of
// its print styles), on the TF.js models' "modelTopology" and on a generated graph of a few
// thousand nodes: all must read back equal, and the wire bytes made must be libprotobuf's
// deterministic serialisation. The mapping's rules one by one are in proto_json_test.cc.
#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "proto/deterministic_bytes.h"
#include "proto/proto_json.h"
#include "proto_json_test_util.h"
#include "tensorflow/schemas.h"
#include "test_util.h"

namespace graphport::tf {
namespace {

using nlohmann::json;
using testing::CanonicalAnys;
using testing::DynamicMessage;
using testing::ReferencePool;
namespace pb = google::protobuf;
namespace util = google::protobuf::util;

const char* RootType(TfKind kind) {
  switch (kind) {
    case TfKind::kSavedModel:
      return "tensorflow.SavedModel";
    case TfKind::kMetaGraphDef:
      return "tensorflow.MetaGraphDef";
    case TfKind::kGraphDef:
      break;
  }
  return "tensorflow.GraphDef";
}

// --- (a) The corpus, as MessageToJsonString prints it ------------------------------------------

struct PrintStyle {
  const char* name;
  bool proto_names;
  bool all_primitives;
};

constexpr PrintStyle kPrintStyles[] = {
    {"json_names", false, false},
    {"proto_names", true, false},
    {"always_print_primitive_fields", false, true},
    {"proto_names_and_primitive_fields", true, true},
};

// An Any whose type is in none of our .proto files (export.meta holds
// tensorflow.serving.AssetFile) has no JSON form: MessageToJsonString fails on it, and so does
// JsonToMessage. Such values are left out of the round trip, wherever they are in the tree.
void DropAnysOfUnknownTypes(pb::Message* message, const pb::DescriptorPool& pool) {
  const pb::Reflection* r = message->GetReflection();
  std::vector<const pb::FieldDescriptor*> fields;
  r->ListFields(*message, &fields);
  for (const pb::FieldDescriptor* field : fields) {
    if (field->cpp_type() != pb::FieldDescriptor::CPPTYPE_MESSAGE) continue;
    const bool any = field->message_type()->full_name() == "google.protobuf.Any";
    auto unknown = [&](const pb::Message& m) {
      const std::string url = m.GetReflection()->GetString(m, m.GetDescriptor()->field(0));
      return pool.FindMessageTypeByName(url.substr(url.rfind('/') + 1)) == nullptr;
    };
    if (!field->is_repeated()) {
      if (any && unknown(r->GetMessage(*message, field))) {
        r->ClearField(message, field);
      } else {
        DropAnysOfUnknownTypes(r->MutableMessage(message, field), pool);
      }
      continue;
    }
    for (int i = r->FieldSize(*message, field) - 1; i >= 0; --i) {
      if (any && unknown(r->GetRepeatedMessage(*message, field, i))) {
        for (int k = i; k + 1 < r->FieldSize(*message, field); ++k) {
          r->SwapElements(message, field, k, k + 1);
        }
        r->RemoveLast(message, field);
      } else {
        DropAnysOfUnknownTypes(r->MutableRepeatedMessage(message, field, i), pool);
      }
    }
  }
}

class CorpusJsonTest : public ::testing::TestWithParam<testing::CorpusGraph> {};

TEST_P(CorpusJsonTest, MessageToJsonReadsBackEqual) {
  const testing::CorpusGraph& graph = GetParam();
  const ReferencePool& reference = ReferencePool::Tf();
  const std::string bytes = testing::ReadFile(graph.path());
  DynamicMessage original = reference.New(RootType(graph.kind), bytes);
  DropAnysOfUnknownTypes(original.get(), reference.pool());
  const proto::MessageSchema& schema = *TfSchemas().Find(RootType(graph.kind));
  for (const PrintStyle& style : kPrintStyles) {
    SCOPED_TRACE(style.name);
    util::JsonPrintOptions options;
    options.preserve_proto_field_names = style.proto_names;
    options.always_print_primitive_fields = style.all_primitives;
    std::string text;
    ASSERT_TRUE(util::MessageToJsonString(*original, &text, options).ok());
    std::unique_ptr<pb::MessageLite> read = testing::NewRoot(graph.kind);
    proto::JsonToMessage(json::parse(text), read.get(), schema, graph.relative);
    EXPECT_TRUE(testing::MessagesEqual(
        *original, *reference.New(RootType(graph.kind), read->SerializeAsString())));
    // The bytes made are the deterministic serialisation of what was printed, Any values
    // included (as libprotobuf would write each of them).
    DynamicMessage canonical(original->New());
    canonical->CopyFrom(*original);
    CanonicalAnys(canonical.get(), reference);
    EXPECT_TRUE(proto::JsonToWire(json::parse(text), schema, graph.relative) ==
                proto::DeterministicBytes(*canonical));
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusJsonTest, ::testing::ValuesIn(testing::CorpusGraphs()),
                         testing::CorpusTestName);

// The GraphDef a TensorFlow.js model.json holds as "modelTopology" (the reason this converter
// exists) reads as libprotobuf reads it.
TEST(ProtoJsonTest, TfjsModelTopologyAsLibprotobufReadsIt) {
  ASSERT_TRUE(testing::CorpusPresent()) << testing::MissingCorpusMessage();
  int models = 0;
  for (const auto& entry :
       testing::fs::recursive_directory_iterator(testing::CorpusDir() / "tfjs")) {
    if (entry.path().filename() != "model.json") continue;
    SCOPED_TRACE(entry.path().string());
    json model = json::parse(testing::ReadFile(entry.path()));
    ASSERT_TRUE(model.contains("modelTopology"));
    DynamicMessage theirs = ReferencePool::Tf().New("tensorflow.GraphDef");
    ASSERT_TRUE(util::JsonStringToMessage(model["modelTopology"].dump(), theirs.get()).ok());
    tensorflow::GraphDef ours;
    proto::JsonToMessage(model["modelTopology"], &ours, entry.path().string());
    EXPECT_GT(ours.node_size(), 0);
    EXPECT_TRUE(testing::MessagesEqual(
        *theirs, *ReferencePool::Tf().New("tensorflow.GraphDef", ours.SerializeAsString())));
    ++models;
  }
  EXPECT_GE(models, 2);
}

// A generated GraphDef of a few thousand nodes: the size of a model.json topology. Reports the
// time next to libprotobuf's (from text, as it must start from text) without asserting on it.
TEST(ProtoJsonTest, ThousandsOfNodesReadBackEqual) {
  tensorflow::GraphDef graph;
  for (int i = 0; i < 5000; ++i) {
    tensorflow::NodeDef* node = graph.add_node();
    node->set_name("scope/node_" + std::to_string(i));
    node->set_op(i % 2 ? "Conv2D" : "Const");
    node->add_input("scope/node_" + std::to_string(i / 2));
    node->set_device("/device:CPU:0");
    (*node->mutable_attr())["T"].set_type(tensorflow::DT_FLOAT);
    auto* strides = (*node->mutable_attr())["strides"].mutable_list();
    for (int k = 0; k < 4; ++k) strides->add_i(k);
    tensorflow::TensorProto* tensor = (*node->mutable_attr())["value"].mutable_tensor();
    tensor->set_dtype(tensorflow::DT_FLOAT);
    tensor->mutable_tensor_shape()->add_dim()->set_size(3);
    tensor->set_tensor_content(std::string(12, static_cast<char>(i)));
  }
  const ReferencePool& reference = ReferencePool::Tf();
  DynamicMessage original = reference.New("tensorflow.GraphDef", graph.SerializeAsString());
  std::string text;
  ASSERT_TRUE(util::MessageToJsonString(*original, &text).ok());
  json value = json::parse(text);
  using Clock = std::chrono::steady_clock;
  auto start = Clock::now();
  tensorflow::GraphDef read;
  proto::JsonToMessage(value, &read, "graph");
  auto ours = Clock::now() - start;
  start = Clock::now();
  DynamicMessage oracle = reference.New("tensorflow.GraphDef");
  ASSERT_TRUE(util::JsonStringToMessage(text, oracle.get()).ok());
  auto theirs = Clock::now() - start;
  EXPECT_TRUE(testing::MessagesEqual(
      *original, *reference.New("tensorflow.GraphDef", read.SerializeAsString())));
  EXPECT_TRUE(testing::MessagesEqual(*original, *oracle));
  using std::chrono::microseconds;
  RecordProperty("ours_us", std::chrono::duration_cast<microseconds>(ours).count());
  RecordProperty("libprotobuf_us", std::chrono::duration_cast<microseconds>(theirs).count());
}

}  // namespace
}  // namespace graphport::tf

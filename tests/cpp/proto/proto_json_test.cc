// proto::JsonToMessage against libprotobuf's own JSON parser and printer, which the WebAssembly
// module no longer links but these native tests still can, on DynamicMessages of the same
// schemas: the corpus printed by MessageToJsonString must read back equal, each rule of the
// mapping has its own case, and the wire bytes made must be libprotobuf's deterministic
// serialisation of what its parser reads.
#include "proto/proto_json.h"

#include <google/protobuf/text_format.h>
#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <string>

#include "core/limits.h"
#include "proto/deterministic_bytes.h"
#include "proto_json_legacy.pb.h"
#include "proto_json_test_util.h"
#include "tensorflow/schemas.h"
#include "test_util.h"

namespace graphport::tf {
namespace {

using graphport::test::Everything;
using nlohmann::json;
using testing::DynamicMessage;
using testing::ErrorFor;
using testing::FromText;
using testing::kEverything;
using testing::Read;
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

// Rewrites every Any's value (innermost first) as the deterministic serialisation of the
// message it holds: what JsonToWire makes of the Any's JSON, whichever writer made the value.
void CanonicalAnys(pb::Message* message, const ReferencePool& reference) {
  const pb::Reflection* r = message->GetReflection();
  if (message->GetDescriptor()->full_name() == "google.protobuf.Any") {
    const pb::FieldDescriptor* url_field = message->GetDescriptor()->FindFieldByNumber(1);
    const pb::FieldDescriptor* value_field = message->GetDescriptor()->FindFieldByNumber(2);
    const std::string url = r->GetString(*message, url_field);
    DynamicMessage inner =
        reference.New(url.substr(url.rfind('/') + 1), r->GetString(*message, value_field));
    CanonicalAnys(inner.get(), reference);
    r->SetString(message, value_field, proto::DeterministicBytes(*inner));
    return;
  }
  std::vector<const pb::FieldDescriptor*> fields;
  r->ListFields(*message, &fields);
  for (const pb::FieldDescriptor* field : fields) {
    if (field->cpp_type() != pb::FieldDescriptor::CPPTYPE_MESSAGE) continue;
    if (!field->is_repeated()) {
      CanonicalAnys(r->MutableMessage(message, field), reference);
      continue;
    }
    for (int i = 0; i < r->FieldSize(*message, field); ++i) {
      CanonicalAnys(r->MutableRepeatedMessage(message, field, i), reference);
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

// --- (b) Each rule of the mapping -------------------------------------------------------------

struct Accepted {
  const char* json;
  const char* expected;  // text format of the Everything it must give
};

constexpr Accepted kAccepted[] = {
    // Field names: JSON name and .proto name.
    {R"({"snakeCaseName": "a"})", R"(snake_case_name: "a")"},
    {R"({"snake_case_name": "a"})", R"(snake_case_name: "a")"},
    {R"({"field2x": 1})", "field_2x: 1"},
    {R"({"field_2x": 1})", "field_2x: 1"},
    // 32-bit integers: numbers, whole numbers written as floats, decimal strings.
    {R"({"scalars": {"i32": -2147483648, "u32": 4294967295}})",
     "scalars { i32: -2147483648 u32: 4294967295 }"},
    {R"({"scalars": {"i32": "-12", "u32": "+7", "s32": "007"}})",
     "scalars { i32: -12 u32: 7 s32: 7 }"},
    {R"({"scalars": {"i32": 1e2, "s32": 3.0, "f32": "4294967295", "sf32": -5}})",
     "scalars { i32: 100 s32: 3 f32: 4294967295 sf32: -5 }"},
    {R"({"scalars": {"i32": "-0"}})", "scalars { }"},
    // 64-bit integers: decimal strings (as MessageToJson writes them) or numbers.
    {R"({"scalars": {"i64": "-9223372036854775808", "u64": "18446744073709551615"}})",
     "scalars { i64: -9223372036854775808 u64: 18446744073709551615 }"},
    {R"({"scalars": {"i64": 9223372036854775807, "u64": 18446744073709551615}})",
     "scalars { i64: 9223372036854775807 u64: 18446744073709551615 }"},
    {R"({"scalars": {"s64": 1e18, "f64": "12", "sf64": "-3"}})",
     "scalars { s64: 1000000000000000000 f64: 12 sf64: -3 }"},
    // Floating point: numbers, numeric strings, the three special strings.
    {R"({"scalars": {"dbl": "1.5", "flt": -0.25}})", "scalars { dbl: 1.5 flt: -0.25 }"},
    {R"({"scalars": {"dbl": "Infinity", "flt": "-Infinity"}})", "scalars { dbl: inf flt: -inf }"},
    {R"({"scalars": {"flt": 3.4028235e38}})", "scalars { flt: 3.40282347e+38 }"},
    {R"({"scalars": {"flt": -3.4028235e38}})", "scalars { flt: -3.40282347e+38 }"},
    {R"({"scalars": {"flt": 1e-50}})", "scalars { }"},
    {R"({"dblList": [1, "2.5", "-Infinity", 1e300]})",
     "dbl_list: 1 dbl_list: 2.5 dbl_list: -inf dbl_list: 1e300"},
    // Bools and strings.
    {R"({"scalars": {"flag": true, "str": "h\u00e9"}})",
     "scalars { flag: true str: \"h\\303\\251\" }"},
    {R"({"scalars": {"flag": "true"}})", "scalars { flag: true }"},
    // Bytes: standard or URL-safe base64, padding optional.
    {R"({"scalars": {"raw": "+/8="}})", R"(scalars { raw: "\373\377" })"},
    {R"({"scalars": {"raw": "-_8"}})", R"(scalars { raw: "\373\377" })"},
    {R"({"rawList": ["AQID", "AQI", "AQI=", "AQ", "AQ==", ""]})",
     R"(raw_list: "\001\002\003" raw_list: "\001\002" raw_list: "\001\002" raw_list: "\001"
        raw_list: "\001" raw_list: "")"},
    // Enums by name or number; proto3 keeps numbers it has no name for.
    {R"({"colorList": ["RED", 2, 0, 7, -1, 1.0]})",
     "color_list: [RED, GREEN, COLOR_UNSPECIFIED, 7, -1, RED]"},
    // null leaves any field unset, including a oneof member next to another.
    {R"({"scalars": null, "intList": null, "strMap": null, "any": null, "int32Wrapper": null})",
     ""},
    {R"({"scalars": {"str": null, "optI32": null}})", "scalars { }"},
    {R"({"choiceStr": "a", "choiceInt": null})", R"(choice_str: "a")"},
    // Presence: an empty object is a present message; proto3 optional keeps a zero.
    {R"({"scalars": {}})", "scalars { }"},
    {R"({"scalars": {"optI32": 0}})", "scalars { opt_i32: 0 }"},
    {R"({"choiceInt": 0})", "choice_int: 0"},
    // Repeated fields and maps.
    {R"({"intList": [], "longList": ["1", 2], "strList": ["a", ""]})",
     R"(long_list: [1, 2] str_list: ["a", ""])"},
    {R"({"scalarsList": [{}, {"i32": 1}]})", "scalars_list { } scalars_list { i32: 1 }"},
    {R"({"strMap": {"a": "x", "": "y"}})",
     R"(str_map { key: "a" value: "x" } str_map { key: "" value: "y" })"},
    {R"({"intMap": {"-2": "a", "+3": "b"}, "uintMap": {"4294967295": -1}})",
     R"(int_map { key: -2 value: "a" } int_map { key: 3 value: "b" }
        uint_map { key: 4294967295 value: -1 })"},
    {R"({"longMap": {"-9223372036854775808": {"str": "s"}, "5": {}}})",
     R"(long_map { key: -9223372036854775808 value { str: "s" } } long_map { key: 5 value { } })"},
    {R"({"boolMap": {"true": "t", "false": "f"}})",
     R"(bool_map { key: true value: "t" } bool_map { key: false value: "f" })"},
    {R"({"fixedMap": {"18446744073709551615": "GREEN", "0": 7}})",
     "fixed_map { key: 18446744073709551615 value: GREEN } fixed_map { key: 0 value: 7 }"},
    {R"({"childMap": {"c": {"child": {"strList": ["deep"]}}}})",
     R"(child_map { key: "c" value { child { str_list: "deep" } } })"},
    // Wrappers: the bare value (or libprotobuf's object form).
    {R"({"int32Wrapper": 5, "int64Wrapper": "-6", "uint32Wrapper": "7", "uint64Wrapper": 8,
         "floatWrapper": "NaN", "doubleWrapper": 1.5, "boolWrapper": false,
         "stringWrapper": "s", "bytesWrapper": "AQID"})",
     R"(int32_wrapper { value: 5 } int64_wrapper { value: -6 } uint32_wrapper { value: 7 }
        uint64_wrapper { value: 8 } float_wrapper { value: nan } double_wrapper { value: 1.5 }
        bool_wrapper { } string_wrapper { value: "s" } bytes_wrapper { value: "\001\002\003" })"},
    {R"({"int32Wrapper": {"value": 5}})", "int32_wrapper { value: 5 }"},
    {R"({"wrapperList": [1, 0]})", "wrapper_list { value: 1 } wrapper_list { }"},
    // Any: "@type" anywhere among the fields; a special form goes under "value".
    {R"({"any": {"i32": 5, "@type": "type.googleapis.com/graphport.test.Scalars"}})",
     R"(any { type_url: "type.googleapis.com/graphport.test.Scalars" value: "\010\005" })"},
    {R"({"any": {}})", "any { }"},
    {R"({"any": {"@type": "type.googleapis.com/graphport.test.Scalars"}})",
     R"(any { type_url: "type.googleapis.com/graphport.test.Scalars" })"},
    {R"({"anyList": [{"@type": "type.googleapis.com/google.protobuf.Int32Value", "value": 5},
                     {"@type": "type.googleapis.com/google.protobuf.StringValue", "value": null}]})",
     R"(any_list { type_url: "type.googleapis.com/google.protobuf.Int32Value" value: "\010\005" }
        any_list { type_url: "type.googleapis.com/google.protobuf.StringValue" })"},
    {R"({"any": {"@type": "type.googleapis.com/google.protobuf.Any",
                 "value": {"@type": "type.googleapis.com/graphport.test.Scalars", "i32": 5}}})",
     R"(any { type_url: "type.googleapis.com/google.protobuf.Any"
              value: "\n*type.googleapis.com/graphport.test.Scalars\022\002\010\005" })"},
    // The Any's type URL may have any prefix: the name is what follows the last '/'.
    {R"({"any": {"@type": "example.com/x/graphport.test.Scalars", "i32": 5}})",
     R"(any { type_url: "example.com/x/graphport.test.Scalars" value: "\010\005" })"},
};

TEST(ProtoJsonTest, AcceptsEachRule) {
  for (const Accepted& c : kAccepted) {
    SCOPED_TRACE(c.json);
    Everything read;
    try {
      read = testing::ReadEverything(c.json);
    } catch (const Error& e) {
      ADD_FAILURE() << e.what();
      continue;
    }
    DynamicMessage expected = FromText(c.expected);
    // The bytes made are libprotobuf's deterministic serialisation of the message (NaN's
    // bits included).
    EXPECT_EQ(proto::JsonToWire(json::parse(c.json), proto::SchemaOf<Everything>(), "input"),
              proto::DeterministicBytes(*expected));
    // NaN never equals itself: compare the wrapper's bit pattern class, then drop it.
    if (read.has_float_wrapper() && std::isnan(read.float_wrapper().value())) {
      read.clear_float_wrapper();
      const pb::FieldDescriptor* field =
          expected->GetDescriptor()->FindFieldByName("float_wrapper");
      const pb::Message& wrapper = expected->GetReflection()->GetMessage(*expected, field);
      EXPECT_TRUE(std::isnan(
          wrapper.GetReflection()->GetFloat(wrapper, wrapper.GetDescriptor()->field(0))));
      expected->GetReflection()->ClearField(expected.get(), field);
    }
    EXPECT_TRUE(testing::MessagesEqual(*expected, *testing::Reference(read)));
  }
}

TEST(ProtoJsonTest, ReadsNaN) {
  Everything read = testing::ReadEverything(R"({"scalars": {"flt": "NaN", "dbl": "NaN"}})");
  EXPECT_TRUE(std::isnan(read.scalars().flt()));
  EXPECT_TRUE(std::isnan(read.scalars().dbl()));
}

TEST(ProtoJsonTest, ReplacesWhatTheMessageHeld) {
  Everything message;
  ASSERT_TRUE(message.ParseFromString(
      FromText(R"(str_list: "old" scalars { i32: 1 })")->SerializeAsString()));
  proto::JsonToMessage(json::parse(R"({"strList": ["new"]})"), &message, "input");
  EXPECT_TRUE(
      testing::MessagesEqual(*FromText(R"(str_list: "new")"), *testing::Reference(message)));
}

// An error leaves the message empty rather than partly filled.
TEST(ProtoJsonTest, AnErrorLeavesTheMessageEmpty) {
  Everything message;
  message.add_str_list("old");
  EXPECT_THROW(
      proto::JsonToMessage(json::parse(R"({"strList": ["new"], "nope": 1})"), &message, "input"),
      Error);
  EXPECT_EQ(message.ByteSizeLong(), 0u);
}

struct Refused {
  const char* json;
  const char* error;  // a fragment of the error message, with the field path
};

constexpr Refused kRefused[] = {
    // Names.
    {R"({"nope": 1})", "input: field 'nope': no such field in graphport.test.Everything"},
    {R"({"SnakeCaseName": "a"})", "field 'SnakeCaseName': no such field"},
    {R"({"scalars": {"i32": 1, "bogus": 2}})",
     "field 'scalars.bogus': no such field in "
     "graphport.test.Scalars"},
    {R"({"snake_case_name": "a", "snakeCaseName": "b"})",
     "given twice, as 'snakeCaseName' and 'snake_case_name'"},
    {R"({"choiceStr": "a", "choiceInt": 1})",
     "field 'choice_str': 'choice_int' of the same oneof 'choice' is set already"},
    {R"({"choiceMsg": {}, "choiceStr": "x"})", "'choice_msg' of the same oneof 'choice'"},
    // Integers.
    {R"({"scalars": {"i32": 1.5}})",
     "field 'scalars.i32': expected an int32 (a whole number or "
     "a decimal string), got 1.5"},
    {R"({"scalars": {"i32": 2147483648}})", "2147483648 is out of range for int32"},
    {R"({"scalars": {"i32": "-2147483649"}})", "\"-2147483649\" is out of range for int32"},
    {R"({"scalars": {"u32": -1}})", "field 'scalars.u32': -1 is out of range for uint32"},
    {R"({"scalars": {"i32": "1e2"}})", "expected an int32"},
    {R"({"scalars": {"i32": " 12"}})", "expected an int32"},
    {R"({"scalars": {"i32": "0x10"}})", "expected an int32"},
    {R"({"scalars": {"i32": ""}})", "expected an int32"},
    {R"({"scalars": {"i32": true}})", "expected an int32"},
    {R"({"scalars": {"i64": "9223372036854775808"}})",
     "\"9223372036854775808\" is out of range for int64"},
    {R"({"scalars": {"i64": 9.2233720368547758e18}})", "out of range for int64"},
    {R"({"scalars": {"i64": "1.5"}})", "field 'scalars.i64': expected an int64"},
    {R"({"scalars": {"i64": 1.5}})", "expected an int64"},
    {R"({"scalars": {"u64": "18446744073709551616"}})", "out of range for uint64"},
    {R"({"scalars": {"u64": -1}})", "-1 is out of range for uint64"},
    {R"({"scalars": {"u64": 1.8446744073709552e19}})", "out of range for uint64"},
    // Floating point.
    {R"({"scalars": {"flt": 3.5e38}})", "field 'scalars.flt': 3.5e+38 is out of range for float"},
    {R"({"scalars": {"dbl": "1e400"}})", "\"1e400\" is out of range for double"},
    {R"({"scalars": {"dbl": "nan"}})", "expected a double"},
    {R"({"scalars": {"dbl": "inf"}})", "expected a double"},
    {R"({"scalars": {"dbl": " 1.5"}})", "expected a double"},
    {R"({"scalars": {"dbl": true}})", "expected a double"},
    // Bools, strings, bytes.
    {R"({"scalars": {"flag": 1}})", "field 'scalars.flag': expected a bool (true or false), got 1"},
    {R"({"scalars": {"str": 3}})", "field 'scalars.str': expected a string, got 3"},
    {R"({"scalars": {"str": {}}})", "expected a string, got {}"},
    {R"({"scalars": {"raw": "AQ ID"}})", "field 'scalars.raw': expected base64"},
    {R"({"scalars": {"raw": "-/8="}})", "expected base64"},
    {R"({"scalars": {"raw": "A"}})", "expected base64"},
    {R"({"scalars": {"raw": "AQ="}})", "expected base64"},
    {R"({"scalars": {"raw": "AR=="}})", "expected base64"},
    {R"({"scalars": {"raw": 3}})", "expected a string (base64), got 3"},
    // Enums.
    {R"({"scalars": {"color": "red"}})",
     "field 'scalars.color': no value \"red\" in enum graphport.test.Color"},
    {R"({"scalars": {"color": "7"}})", "no value \"7\" in enum"},
    {R"({"scalars": {"color": 1.5}})", "expected a value of enum graphport.test.Color"},
    {R"({"scalars": {"color": true}})", "expected a value of enum graphport.test.Color"},
    {R"({"scalars": {"color": 2147483648}})", "expected a value of enum"},
    // Messages, lists, maps.
    {R"({"scalars": []})", "field 'scalars': expected a JSON object for graphport.test.Scalars"},
    {R"({"scalars": "x"})", "expected a JSON object for graphport.test.Scalars, got \"x\""},
    {R"({"intList": 5})", "field 'int_list': expected a JSON array, got 5"},
    {R"({"intList": [[1]]})", "field 'int_list[0]': expected an int32"},
    {R"({"intList": [1, null, 3]})", "field 'int_list[1]': null is not allowed in a list"},
    {R"({"scalarsList": [{}, null]})", "field 'scalars_list[1]': null is not allowed"},
    {R"({"strList": ["a", 1]})", "field 'str_list[1]': expected a string, got 1"},
    {R"({"colorList": ["RED", 2, "nope"]})", "field 'color_list[2]': no value \"nope\""},
    {R"({"scalarsList": [{"i32": "x"}]})", "field 'scalars_list[0].i32': expected an int32"},
    {R"({"strMap": []})", "field 'str_map': expected a JSON object (a map), got []"},
    {R"({"strMap": {"a": null}})", "field 'str_map[\"a\"]': null is not allowed as a map value"},
    {R"({"intMap": {"x": "a"}})", "field 'int_map[\"x\"]': map key: expected an int32 in decimal"},
    {R"({"intMap": {"1.0": "a"}})", "map key: expected an int32"},
    {R"({"intMap": {"2147483648": "a"}})", "map key: \"2147483648\" is out of range for int32"},
    {R"({"uintMap": {"-1": 3}})", "map key: \"-1\" is out of range for uint32"},
    {R"({"boolMap": {"True": "a"}})", "map key: expected a bool (true or false), got \"True\""},
    {R"({"longMap": {"5": {"i32": "x"}}})", "field 'long_map[\"5\"].i32': expected an int32"},
    {R"({"childMap": {"k": {"scalarsList": [{}, {"flag": 0}]}}})",
     "field 'child_map[\"k\"].scalars_list[1].flag': expected a bool"},
    // Wrappers.
    {R"({"int32Wrapper": "x"})", "field 'int32_wrapper': expected an int32"},
    {R"({"wrapperList": [1, null]})", "field 'wrapper_list[1]': null is not allowed in a list"},
    {R"({"boolWrapper": {"value": 1}})", "field 'bool_wrapper.value': expected a bool"},
    // Any.
    {R"({"any": {"i32": 5}})", "field 'any': a google.protobuf.Any needs \"@type\""},
    {R"({"any": {"@type": 5}})", "\"@type\" must be a string, got 5"},
    {R"({"any": {"@type": "graphport.test.Scalars"}})", "\"@type\" must be a type URL"},
    {R"({"any": {"@type": "type.googleapis.com/"}})", "\"@type\" must be a type URL"},
    {R"({"any": {"@type": "type.googleapis.com/graphport.test.Nope"}})",
     "field 'any': \"@type\" names an unknown message type 'graphport.test.Nope'"},
    {R"({"any": {"@type": "type.googleapis.com/graphport.test.Scalars", "nope": 1}})",
     "field 'any.nope': no such field in graphport.test.Scalars"},
    {R"({"any": {"@type": "type.googleapis.com/graphport.test.Scalars", "value": {"i32": 5}}})",
     "field 'any.value': no such field in graphport.test.Scalars"},
    {R"({"any": {"@type": "type.googleapis.com/google.protobuf.Int32Value", "i32": 5}})",
     "field 'any.i32': no such field in an Any holding google.protobuf.Int32Value"},
    {R"({"any": {"@type": "type.googleapis.com/google.protobuf.Int32Value", "value": "x"}})",
     "field 'any.value': expected an int32"},
    {R"({"anyList": [{}, {"@type": "type.googleapis.com/graphport.test.Scalars", "i32": 1.5}]})",
     "field 'any_list[1].i32': expected an int32"},
    {R"({"any": 3})", "expected a JSON object with \"@type\" for google.protobuf.Any, got 3"},
    // The top level.
    {"[]", "input: expected a JSON object for graphport.test.Everything, got []"},
    {"null", "input: expected a JSON object"},
};

TEST(ProtoJsonTest, RefusesWithThePath) {
  for (const Refused& c : kRefused) {
    SCOPED_TRACE(c.json);
    ErrorCode code = ErrorCode::kInternal;
    std::string error = ErrorFor(c.json, &code);
    EXPECT_NE(error.find(c.error), std::string::npos) << "got: " << error;
    EXPECT_EQ(code, ErrorCode::kParseError);
  }
}

TEST(ProtoJsonTest, ErrorsCarryTheCallersCode) {
  Everything message;
  try {
    proto::JsonToMessage(json::parse(R"({"nope": 1})"), &message, "option 'x'",
                         ErrorCode::kInvalidOption);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidOption);
    EXPECT_STREQ(e.what(), "option 'x': field 'nope': no such field in graphport.test.Everything");
  }
}

// Well-known types with JSON forms of their own (the test schema imports them; graphport's
// never do): inside an Any or as a field they are refused as unsupported rather than misread
// as plain objects.
TEST(ProtoJsonTest, OtherWellKnownTypesAreUnsupported) {
  for (const char* type : {"Duration", "Timestamp", "FieldMask", "Struct", "Value", "ListValue"}) {
    SCOPED_TRACE(type);
    const proto::MessageSchema* schema =
        graphport::test::TestSchemas().Find(std::string("google.protobuf.") + type);
    ASSERT_NE(schema, nullptr);
    EXPECT_EQ(schema->well_known, proto::WellKnown::kUnsupported);
    std::string text = std::string(R"({"any": {"@type": "type.googleapis.com/google.protobuf.)") +
                       type + R"(", "value": "1s"}})";
    ErrorCode code = ErrorCode::kInternal;
    std::string error = ErrorFor(text, &code);
    EXPECT_NE(error.find("field 'any.value': google.protobuf." + std::string(type) +
                         " in JSON is not supported"),
              std::string::npos)
        << error;
    EXPECT_EQ(code, ErrorCode::kUnsupported);
  }
  for (const char* field :
       {"duration", "timestamp", "fieldMask", "structValue", "dynamicValue", "listValue"}) {
    SCOPED_TRACE(field);
    ErrorCode code = ErrorCode::kInternal;
    std::string error = ErrorFor(std::string(R"({")") + field + R"(": "1s"})", &code);
    EXPECT_NE(error.find("is not supported"), std::string::npos) << error;
    EXPECT_EQ(code, ErrorCode::kUnsupported);
  }
}

// The Any in TensorFlow's own schema, as MetaGraphDef.collection_def.any_list holds it.
TEST(ProtoJsonTest, TensorflowAnyList) {
  const ReferencePool& reference = ReferencePool::Tf();
  DynamicMessage meta = reference.New("tensorflow.MetaGraphDef");
  ASSERT_TRUE(pb::TextFormat::ParseFromString(R"(
      collection_def {
        key: "savers"
        value { any_list { value {
          [type.googleapis.com/tensorflow.SaverDef] {
            filename_tensor_name: "save/Const:0" version: V2 } } } } })",
                                              meta.get()));
  std::string text;
  ASSERT_TRUE(util::MessageToJsonString(*meta, &text).ok());
  tensorflow::MetaGraphDef read;
  proto::JsonToMessage(json::parse(text), &read, "meta");
  EXPECT_TRUE(testing::MessagesEqual(
      *meta, *reference.New("tensorflow.MetaGraphDef", read.SerializeAsString())));
  const auto& any = read.collection_def().at("savers").any_list().value(0);
  EXPECT_EQ(any.type_url(), "type.googleapis.com/tensorflow.SaverDef");
  tensorflow::SaverDef unpacked;
  ASSERT_TRUE(unpacked.ParseFromString(any.value()));
  EXPECT_EQ(unpacked.filename_tensor_name(), "save/Const:0");
  EXPECT_EQ(unpacked.version(), tensorflow::SaverDef::V2);
}

// --- (e) The wire bytes made ------------------------------------------------------------

struct WireCase {
  const char* json;
  const char* expected;  // text format of the message, whose deterministic bytes are wanted
  const char* type;
};

constexpr char kLegacy[] = "graphport.test.Legacy";

constexpr WireCase kWireCases[] = {
    // Every scalar type, at its extremes and below zero.
    {R"({"scalars": {"i32": -1, "i64": "-1", "u32": 4294967295, "u64": "18446744073709551615",
                     "s32": -2147483648, "s64": "-9223372036854775808", "f32": 4294967295,
                     "f64": "18446744073709551615", "sf32": -2147483648,
                     "sf64": "-9223372036854775808", "flt": -1.5, "dbl": 2.5e-300, "flag": true,
                     "str": "s\u00e9", "raw": "AAE=", "color": "GREEN", "optI32": -7}})",
     R"(scalars { i32: -1 i64: -1 u32: 4294967295 u64: 18446744073709551615 s32: -2147483648
                  s64: -9223372036854775808 f32: 4294967295 f64: 18446744073709551615
                  sf32: -2147483648 sf64: -9223372036854775808 flt: -1.5 dbl: 2.5e-300
                  flag: true str: "s\303\251" raw: "\000\001" color: GREEN opt_i32: -7 })",
     kEverything},
    {R"({"scalars": {"i32": 2147483647, "s32": 2147483647, "s64": "9223372036854775807",
                     "sf32": 1, "sf64": "1", "color": -5, "flt": 3.4028235e38}})",
     R"(scalars { i32: 2147483647 s32: 2147483647 s64: 9223372036854775807 sf32: 1 sf64: 1
                  color: -5 flt: 3.40282347e+38 })",
     kEverything},
    // Zeros: a field without presence leaves its default out, a float's by its bits (-0.0 is
    // written); proto3 optional and a oneof member keep theirs.
    {R"({"scalars": {"i32": 0, "i64": "0", "u64": 0, "flt": 0, "dbl": -0.0, "flag": false,
                     "str": "", "raw": "", "color": "COLOR_UNSPECIFIED", "optI32": 0}})",
     "scalars { dbl: -0 opt_i32: 0 }", kEverything},
    {R"({"choiceStr": ""})", R"(choice_str: "")", kEverything},
    {R"({"choiceMsg": {}})", "choice_msg { }", kEverything},
    {R"({"choiceMsg": {"i32": 3}, "choiceInt": null})", "choice_msg { i32: 3 }", kEverything},
    // Repeated fields of every type, packed (proto3's default) and not; fields out of number
    // order in the JSON come out in number order.
    {R"({"lists": {"unpackedColor": ["GREEN", 9], "i32": [1, -1], "i64": ["-2", 3],
                   "u32": [4294967295, 0], "u64": ["18446744073709551615"], "s32": [-1, 1],
                   "s64": ["-3"], "f32": [7], "f64": ["8"], "sf32": [-9], "sf64": ["-10"],
                   "flt": [1.5, "-Infinity", -0.0], "dbl": [0, 1e-300], "flag": [true, false],
                   "str": ["a", ""], "raw": ["AQ==", ""], "color": ["RED", 5, 0],
                   "unpackedI32": [-1, 0, 1], "unpackedS64": ["-5"], "unpackedF64": ["6"],
                   "unpackedFlt": [0.5]}, "scalars": {"i32": 1}})",
     R"(scalars { i32: 1 }
        lists { i32: [1, -1] i64: [-2, 3] u32: [4294967295, 0] u64: 18446744073709551615
                s32: [-1, 1] s64: -3 f32: 7 f64: 8 sf32: -9 sf64: -10 flt: [1.5, -inf, -0]
                dbl: [0, 1e-300] flag: [true, false] str: ["a", ""] raw: ["\001", ""]
                color: [RED, 5, COLOR_UNSPECIFIED] unpacked_i32: [-1, 0, 1] unpacked_s64: -5
                unpacked_f64: 6 unpacked_flt: 0.5 unpacked_color: [GREEN, 9] })",
     kEverything},
    {R"({"lists": {"i32": [], "str": []}})", "lists { }", kEverything},
    // Maps with each key type, in key order whatever order the JSON has them in; both key and
    // value written, defaults included.
    {R"({"u64Map": {"18446744073709551615": "AQ==", "2": ""},
         "sintMap": {"-1": 1.5, "10": 0, "-10": -2},
         "sint64Map": {"-9223372036854775808": 1, "9": 0},
         "fixed32Map": {"4294967295": true, "0": false},
         "sfixedMap": {"-2147483648": "5", "2": "-1"},
         "sfixed64Map": {"-1": "18446744073709551615", "1": "0"},
         "intMap": {"10": "x", "9": "y", "-1": "z"},
         "longMap": {"2": {}, "10": {"i32": 1}, "-3": {"str": ""}},
         "uintMap": {"7": 0, "10": 1},
         "boolMap": {"true": "t", "false": ""},
         "fixedMap": {"10": 0, "9": "RED"},
         "strMap": {"b": "", "a": "x", "\u00e9": "y"},
         "childMap": {"k": {}}})",
     R"(str_map { key: "a" value: "x" } str_map { key: "b" value: "" }
        str_map { key: "\303\251" value: "y" }
        int_map { key: -1 value: "z" } int_map { key: 9 value: "y" } int_map { key: 10 value: "x" }
        long_map { key: -3 value { } } long_map { key: 2 value { } }
        long_map { key: 10 value { i32: 1 } }
        uint_map { key: 7 value: 0 } uint_map { key: 10 value: 1 }
        bool_map { key: false value: "" } bool_map { key: true value: "t" }
        fixed_map { key: 9 value: RED } fixed_map { key: 10 value: COLOR_UNSPECIFIED }
        child_map { key: "k" value { } }
        u64_map { key: 2 value: "" } u64_map { key: 18446744073709551615 value: "\001" }
        sint_map { key: -10 value: -2 } sint_map { key: -1 value: 1.5 } sint_map { key: 10 value: 0 }
        sint64_map { key: -9223372036854775808 value: 1 } sint64_map { key: 9 value: 0 }
        fixed32_map { key: 0 value: false } fixed32_map { key: 4294967295 value: true }
        sfixed_map { key: -2147483648 value: 5 } sfixed_map { key: 2 value: -1 }
        sfixed64_map { key: -1 value: 18446744073709551615 } sfixed64_map { key: 1 value: 0 })",
     kEverything},
    // One integer key spelled three ways: one entry, the value of the last spelling (in the
    // JSON object's order: "+1", "01", "1").
    {R"({"intMap": {"1": "a", "01": "b", "+1": "c"}})", R"(int_map { key: 1 value: "a" })",
     kEverything},
    // An Any's value is the deterministic serialisation of the message it holds, Anys in it
    // included.
    {R"({"any": {"@type": "type.googleapis.com/graphport.test.Everything", "strList": ["x"],
                 "scalars": {"i32": 1}, "intMap": {"10": "a", "9": "b"},
                 "any": {"@type": "type.googleapis.com/google.protobuf.Any",
                         "value": {"@type": "type.googleapis.com/graphport.test.Scalars",
                                   "str": "deep", "i32": 2}}}})",
     R"(any { [type.googleapis.com/graphport.test.Everything] {
          scalars { i32: 1 } str_list: "x" int_map { key: 9 value: "b" }
          int_map { key: 10 value: "a" }
          any { [type.googleapis.com/google.protobuf.Any] {
                  [type.googleapis.com/graphport.test.Scalars] { i32: 2 str: "deep" } } } } })",
     kEverything},
    {R"({"anyList": [{"@type": "type.googleapis.com/google.protobuf.Int32Value", "value": 0},
                     {"@type": "type.googleapis.com/graphport.test.Scalars", "i32": 0}]})",
     R"(any_list { type_url: "type.googleapis.com/google.protobuf.Int32Value" }
        any_list { type_url: "type.googleapis.com/graphport.test.Scalars" })",
     kEverything},
    // proto2: every singular field has presence, so defaults are written; repeated numbers are
    // unpacked unless the field says packed; closed enums by name or number.
    {R"({"i32": 0, "str": "", "closed": "CLOSED_ZERO", "flt": -0.0, "flag": false})",
     R"(i32: 0 str: "" closed: CLOSED_ZERO flt: -0 flag: false)", kLegacy},
    {R"({"closedList": ["CLOSED_FIVE", 1], "closedPacked": [5, "CLOSED_ONE"], "longs": ["-1", 2],
         "closedMap": {"b": 0, "a": "CLOSED_FIVE"}, "child": {"child": {}}})",
     R"(closed_list: [CLOSED_FIVE, CLOSED_ONE] closed_packed: [CLOSED_FIVE, CLOSED_ONE]
        closed_map { key: "a" value: CLOSED_FIVE } closed_map { key: "b" value: CLOSED_ZERO }
        child { child { } } longs: [-1, 2])",
     kLegacy},
};

TEST(ProtoJsonTest, WireBytesAreTheDeterministicSerialisation) {
  const ReferencePool& reference = ReferencePool::Test();
  for (const WireCase& c : kWireCases) {
    SCOPED_TRACE(c.json);
    DynamicMessage expected = FromText(c.expected, c.type);
    // Text format packs an Any's message with a plain serialisation (maps in hash order).
    CanonicalAnys(expected.get(), reference);
    const proto::MessageSchema& schema = *graphport::test::TestSchemas().Find(c.type);
    std::string wire;
    try {
      wire = proto::JsonToWire(json::parse(c.json), schema, "input");
    } catch (const Error& e) {
      ADD_FAILURE() << e.what();
      continue;
    }
    EXPECT_EQ(wire, proto::DeterministicBytes(*expected));
    DynamicMessage read = reference.New(c.type);
    proto::JsonToMessage(json::parse(c.json), read.get(), schema, "input");
    EXPECT_TRUE(testing::MessagesEqual(*expected, *read));
  }
}

// A few by hand: the encodings themselves, apart from libprotobuf's word for them.
TEST(ProtoJsonTest, WireBytesByHand) {
  auto wire = [](const char* text) {
    return proto::JsonToWire(json::parse(text), proto::SchemaOf<Everything>(), "input");
  };
  // int32 -1: ten bytes, sign-extended; sint32 -1: zigzag 1; sfixed32 -2: four bytes.
  EXPECT_EQ(wire(R"({"scalars": {"i32": -1}})"),
            std::string("\x0a\x0b\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 13));
  EXPECT_EQ(wire(R"({"scalars": {"s32": -1}})"), std::string("\x0a\x02\x28\x01", 4));
  EXPECT_EQ(wire(R"({"scalars": {"sf32": -2}})"), std::string("\x0a\x05\x4d\xfe\xff\xff\xff", 7));
  // A float: its four bytes, little-endian.
  EXPECT_EQ(wire(R"({"scalars": {"flt": 1}})"), std::string("\x0a\x05\x5d\x00\x00\x80\x3f", 7));
  // Packed: one record; unpacked: one per value.
  EXPECT_EQ(wire(R"({"intList": [1, 300]})"), std::string("\x1a\x03\x01\xac\x02", 5));
  EXPECT_EQ(wire(R"({"lists": {"unpackedI32": [1, 2]}})"),
            std::string("\x92\x02\x06\x88\x01\x01\x88\x01\x02", 9));
  // A payload of 128 bytes or more takes a two-byte length.
  const std::string long_text(200, 'x');
  EXPECT_EQ(wire((R"({"snakeCaseName": ")" + long_text + R"("})").c_str()),
            std::string("\x82\x02\xc8\x01", 4) + long_text);
}

// A proto3 string must be UTF-8 (libprotobuf-lite refuses it otherwise); a proto2 one need
// not be. Only a JSON value built in memory can hold such a string: nlohmann's parser refuses
// it.
TEST(ProtoJsonTest, Proto3StringsMustBeUtf8) {
  const std::string bad = "a\xff";
  auto error_for = [](const json& value) {
    Everything message;
    try {
      proto::JsonToMessage(value, &message, "input");
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kParseError);
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error_for(json{{"snakeCaseName", bad}})
                .find("field 'snake_case_name': a string "
                      "that is not UTF-8"),
            std::string::npos);
  EXPECT_NE(error_for(json{{"strList", {"ok", bad}}}).find("field 'str_list[1]': a string that"),
            std::string::npos);
  EXPECT_NE(error_for(json{{"strMap", {{bad, "v"}}}}).find("not UTF-8"), std::string::npos);
  EXPECT_NE(
      error_for(json{{"any", {{"@type", "type.googleapis.com" + bad + "/graphport.test.Scalars"}}}})
          .find("field 'any': a string that is not UTF-8"),
      std::string::npos);
  EXPECT_EQ(error_for(json{{"rawList", {"/w=="}}}), "");  // bytes are bytes
  graphport::test::Legacy legacy;
  proto::JsonToMessage(json{{"str", bad}}, &legacy, "input");
  EXPECT_EQ(legacy.str(), bad);
}

struct LegacyRefused {
  const char* json;
  const char* error;
};

// A proto2 message's enum fields are closed: a number its enum lacks is refused.
TEST(ProtoJsonTest, ClosedEnumsTakeOnlyTheirNumbers) {
  constexpr LegacyRefused kRefusedLegacy[] = {
      {R"({"closed": 7})", "field 'closed': no value 7 in enum graphport.test.Closed"},
      {R"({"closedList": [1, 2]})", "field 'closed_list[1]': no value 2 in enum"},
      {R"({"closedPacked": [-1]})", "no value -1 in enum graphport.test.Closed"},
      {R"({"closedMap": {"a": 3}})", "field 'closed_map[\"a\"]': no value 3 in enum"},
      {R"({"closed": "RED"})", "no value \"RED\" in enum graphport.test.Closed"},
  };
  for (const LegacyRefused& c : kRefusedLegacy) {
    SCOPED_TRACE(c.json);
    ErrorCode code = ErrorCode::kInternal;
    std::string error = ErrorFor(c.json, &code, kLegacy);
    EXPECT_NE(error.find(c.error), std::string::npos) << error;
    EXPECT_EQ(code, ErrorCode::kParseError);
  }
}

}  // namespace
}  // namespace graphport::tf

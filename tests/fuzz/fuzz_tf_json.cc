// libFuzzer target: graphport's protobuf JSON reader (proto::JsonToMessage), which reads message
// options and TensorFlow.js topologies. Any JSON value goes into each root type; a topology
// ({"modelTopology": ...}) goes in as its GraphDef. Every failure must be a graphport::Error
// that is not INTERNAL, and what it read must print as binary and text and parse back.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "core/error.h"
#include "proto/proto_json.h"
#include "tensorflow/graph.pb.h"
#include "tensorflow/meta_graph.pb.h"
#include "tensorflow/saver.pb.h"

namespace {

[[noreturn]] void Fail(const std::string& what) {
  std::fprintf(stderr, "%s\n", what.c_str());
  __builtin_trap();
}

void Read(const nlohmann::json& value, google::protobuf::Message* message) {
  try {
    graphport::tf::JsonToMessage(value, message, "json");
  } catch (const graphport::Error& e) {
    if (e.code() == graphport::ErrorCode::kInternal) Fail(std::string("INTERNAL: ") + e.what());
    return;
  } catch (const std::exception& e) {
    Fail(std::string("not a graphport::Error: ") + e.what());
  }
  std::string binary;
  if (!message->SerializeToString(&binary)) Fail("cannot serialize what was read");
  std::unique_ptr<google::protobuf::Message> again(message->New());
  if (!again->ParseFromString(binary)) Fail("what was read does not parse back");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // nlohmann's parser without exceptions: a discarded value for bad JSON (bad UTF-8 included).
  nlohmann::json value =
      nlohmann::json::parse(data, data + size, nullptr, /*allow_exceptions=*/false);
  if (value.is_discarded()) return 0;
  const nlohmann::json& root =
      value.is_object() && value.contains("modelTopology") ? value["modelTopology"] : value;
  tensorflow::GraphDef graph;
  Read(root, &graph);
  tensorflow::MetaGraphDef meta_graph;
  Read(root, &meta_graph);
  tensorflow::SaverDef saver;
  Read(root, &saver);
  return 0;
}

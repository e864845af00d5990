// graphport's protobuf JSON reader (proto::JsonToMessage), which reads message options and
// TensorFlow.js topologies. Any JSON value goes into each root type; a topology
// ({"modelTopology": ...}) goes in as its GraphDef. Every failure must be a graphport::Error
// that is not INTERNAL, and what it read must print as binary and parse back.
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "core/error.h"
#include "fuzz/targets/fuzz_targets.h"
#include "proto/proto_json.h"
#include "tensorflow/graph.pb.h"
#include "tensorflow/meta_graph.pb.h"
#include "tensorflow/saver.pb.h"
#include "tensorflow/schemas.h"

namespace graphport::fuzz {
namespace {

template <typename Message>
std::string Read(const nlohmann::json& value, Message* message) {
  try {
    proto::JsonToMessage(value, message, "json");
  } catch (const Error& e) {
    if (e.code() == ErrorCode::kInternal) return std::string("INTERNAL: ") + e.what();
    return "";
  } catch (const std::exception& e) {
    return std::string("not a graphport::Error: ") + e.what();
  }
  std::string binary;
  if (!message->SerializeToString(&binary)) return "cannot serialize what was read";
  std::unique_ptr<google::protobuf::MessageLite> again(message->New());
  if (!again->ParseFromString(binary)) return "what was read does not parse back";
  return "";
}

}  // namespace

std::string TfJson(std::string_view bytes) {
  // nlohmann's parser without exceptions: a discarded value for bad JSON (bad UTF-8 included).
  nlohmann::json value = nlohmann::json::parse(bytes.begin(), bytes.end(), nullptr,
                                               /*allow_exceptions=*/false);
  if (value.is_discarded()) return "";
  const nlohmann::json& root =
      value.is_object() && value.contains("modelTopology") ? value["modelTopology"] : value;
  tensorflow::GraphDef graph;
  std::string failure = Read(root, &graph);
  tensorflow::MetaGraphDef meta_graph;
  if (failure.empty()) failure = Read(root, &meta_graph);
  tensorflow::SaverDef saver;
  if (failure.empty()) failure = Read(root, &saver);
  return failure;
}

}  // namespace graphport::fuzz

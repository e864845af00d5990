#include "tf/freeze/freeze_export.h"

#include <cstdint>
#include <set>
#include <vector>

#include "core/byte_stream.h"
#include "core/error.h"
#include "core/limits.h"
#include "tensorflow/op_def.pb.h"
#include "tf/freeze/checkpoint_store.h"
#include "tf/freeze/freeze.h"
#include "tf/freeze/variable_values.h"
#include "tf/message_option.h"
#include "tf/option_names.h"

namespace graphport::tf {
namespace {

using nlohmann::json;

// A table filled from a text file needs the freeze too: it reads the file from assets/ now,
// which TF.js could not (text_file_initializers.h).
bool NeedsFreezeOp(const std::string& op, const std::set<std::string>& functions) {
  return IsVariableOp(op) || op == "ReadVariableOp" || op == "PartitionedCall" ||
         op == "StatefulPartitionedCall" || op == "InitializeTableFromTextFile" ||
         op == "InitializeTableFromTextFileV2" || functions.count(op) != 0;
}

std::string OpList(const std::map<std::string, uint64_t>& ops) {
  std::string text;
  for (const auto& [op, count] : ops) {
    text += (text.empty() ? "" : ", ") + op + " x" + std::to_string(count);
  }
  return text;
}

}  // namespace

std::map<std::string, uint64_t> OpsNeedingFreeze(const TfModel& model) {
  std::map<std::string, uint64_t> ops;
  std::set<std::string> functions;
  if (const WireGraph* wire = model.wire_graph()) {
    for (const auto& f : wire->functions()) functions.emplace(f.name);
    for (const auto& [op, count] : wire->op_counts()) {
      std::string name(op);
      if (NeedsFreezeOp(name, functions)) ops[name] += count;
    }
    return ops;
  }
  const tensorflow::GraphDef& graph = model.graph();
  for (const auto& f : graph.library().function()) functions.insert(f.signature().name());
  for (const auto& node : graph.node()) {
    if (NeedsFreezeOp(node.op(), functions)) ++ops[node.op()];
  }
  return ops;
}

FrozenModel FreezeForExport(const TfModel& model, InputSet* inputs, const std::string& folder,
                            const OptionValues& values, bool checks_only) {
  FrozenModel frozen;
  bool to_tfjs = values.String(option::kTo) == "tfjs";
  bool given = values.Has(option::kFreeze);
  if (given && !values.Bool(option::kFreeze)) {
    if (to_tfjs && model.meta_graph() != nullptr) {
      std::map<std::string, uint64_t> ops = OpsNeedingFreeze(model);
      if (!ops.empty()) {
        std::string message = "freeze: false with to: 'tfjs', but the graph holds " + OpList(ops) +
                              ", which the TF.js runtime cannot run: leave freeze unset (an "
                              "export to tfjs freezes such a graph) or set it";
        if (!checks_only) {
          throw Error(ErrorCode::kInvalidOption, message, ErrorLocation::OfOption(option::kFreeze));
        }
        frozen.refusal = {
            {"code", "INVALID_OPTION"}, {"option", option::kFreeze}, {"message", message}};
      }
    }
    return frozen;
  }
  if (!given) {
    if (!to_tfjs || model.meta_graph() == nullptr || OpsNeedingFreeze(model).empty()) {
      return frozen;
    }
  }
  if (model.meta_graph() == nullptr) {
    throw Error(ErrorCode::kInvalidOption,
                "freeze needs a SavedModel or MetaGraphDef: it freezes one of their "
                "signatures, and a GraphDef has none",
                ErrorLocation::OfOption(option::kFreeze));
  }
  std::string prefix = (folder.empty() ? "" : folder + "/") + "variables/variables";
  std::unique_ptr<CheckpointStore> store = CheckpointStore::Open(inputs, prefix);
  FreezeOptions options;
  options.signature = values.String(option::kSignature);
  // TensorFlow's own freeze does not fuse: the converter's optimizations go to TF.js only.
  options.optimize_for_tfjs = to_tfjs && values.Bool(option::kOptimize);
  // The user's op registry comes first when a function body names an op's outputs (a custom
  // op the model's stripped_op_list and the built-in table lack).
  tensorflow::OpList op_registry;
  if (values.Has(option::kOpRegistry)) {
    ParseProtoOption(option::kOpRegistry, values.Raw(option::kOpRegistry), &op_registry);
    options.op_registry = &op_registry;
  }
  options.read_asset = [inputs, &folder](const std::string& filename, std::string* bytes,
                                         std::string* label) {
    std::string name = (folder.empty() ? "" : folder + "/") + "assets/" + filename;
    if (!inputs->Has(name)) return false;
    *label = inputs->DisplayName(name);
    bytes->clear();
    ReadWhole(inputs->Open(name), UINT64_MAX, bytes);  // an asset has no size limit of its own
    return true;
  };
  frozen.model = TfModel::Build(
      TfFormat{TfKind::kMetaGraphDef, false}, model.detection_reason(), model.input_bytes(),
      [&](google::protobuf::Arena*, tensorflow::MetaGraphDef* out) {
        frozen.report = Freeze(*model.meta_graph(), model.graph(), store.get(), options, out);
      });
  frozen.report["checkpoint"] = store != nullptr ? json(store->label()) : json(nullptr);
  return frozen;
}

}  // namespace graphport::tf

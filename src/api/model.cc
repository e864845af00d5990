#include "api/model.h"

#include <nlohmann/json.hpp>

#include "api/options.h"
#include "api/proto_option.h"
#include "core/error.h"
#include "tf/export.h"
#include "tf/inspect.h"
#include "tf/tf_model.h"

namespace graphport {

using nlohmann::json;

Model::Model() = default;
Model::~Model() = default;

LoadOptions ParseLoadOptions(const std::string& json_text) {
  LoadOptions options;
  OptionReader reader(json_text, "load");
  reader.String("format", &options.format);
  reader.StringList("tags", &options.tags);
  reader.String("name", &options.name);
  reader.RejectUnknown();
  return options;
}

std::unique_ptr<Model> Model::Load(ByteSource* source, const LoadOptions& options) {
  std::unique_ptr<Model> model(new Model());
  tf::TfLoadOptions tf_options;
  tf_options.format = options.format;
  tf_options.name = options.name.empty() ? "input" : options.name;
  if (!options.tags.empty()) {
    tf_options.tags = options.tags;
    tf_options.tags_explicit = true;
  }
  model->tf_ = tf::TfModel::Load(source, tf_options);
  return model;
}

std::string Model::InspectJson() const { return tf::Inspect(*tf_).dump(); }

std::string Model::ExportJson(const std::string& options_json, OutputSet* out) {
  OptionReader reader(options_json, "export");
  tf::TfExportOptions options;
  std::string to = tf::KindName(options.to);
  reader.String("to", &to);
  if (!tf::ParseKindName(to, &options.to)) {
    throw Error(ErrorCode::kInvalidOption,
                "export option 'to' is '" + to + "'; use meta-graph, graph-def or saved-model");
  }
  reader.Bool("asText", &options.as_text);
  reader.String("filename", &options.filename);
  reader.String("exportScope", &options.export_scope);
  reader.Bool("clearDevices", &options.clear_devices);
  reader.Bool("clearExtraneousSavers", &options.clear_extraneous_savers);
  reader.Bool("stripDefaultAttrs", &options.strip_default_attrs);
  reader.Bool("saveDebugInfo", &options.save_debug_info);
  if (reader.Raw("collectionList") != nullptr) {
    std::vector<std::string> keys;
    reader.StringList("collectionList", &keys);
    options.collection_list = std::move(keys);
  }
  // Messages given as options live until the export returns.
  tensorflow::MetaGraphDef::MetaInfoDef meta_info_def;
  tensorflow::GraphDef graph_def;
  tensorflow::SaverDef saver_def;
  tensorflow::OpList op_registry;
  if (const auto* v = reader.Raw("metaInfoDef")) {
    ParseProtoOption("metaInfoDef", *v, &meta_info_def);
    options.meta_info_def = &meta_info_def;
  }
  if (const auto* v = reader.Raw("graphDef")) {
    ParseProtoOption("graphDef", *v, &graph_def);
    options.graph_def = &graph_def;
  }
  if (const auto* v = reader.Raw("saverDef")) {
    ParseProtoOption("saverDef", *v, &saver_def);
    options.saver_def = &saver_def;
  }
  if (const auto* v = reader.Raw("opRegistry")) {
    ParseProtoOption("opRegistry", *v, &op_registry);
    options.op_registry = &op_registry;
  }
  reader.RejectUnknown();
  json info = tf::Export(tf_.get(), options, out);
  return info.dump();
}

}  // namespace graphport

// The TensorFlow family's options, described once (core/option_schema.h): the load options
// (a SavedModel's tag set) and the export options, which are tf.train.export_meta_graph's.
#ifndef GRAPHPORT_TF_OPTIONS_H_
#define GRAPHPORT_TF_OPTIONS_H_

#include "core/option_schema.h"
#include "tf/export.h"
#include "tf/tf_model.h"

namespace graphport::tf {

const OptionSchema& TfLoadSchema();
const OptionSchema& TfExportSchema();

// The messages that message options carry, parsed; they live as long as this object, which
// must outlive the export that points at them.
struct TfMessageOptions {
  tensorflow::MetaGraphDef::MetaInfoDef meta_info_def;
  tensorflow::GraphDef graph_def;
  tensorflow::SaverDef saver_def;
  tensorflow::OpList op_registry;
};

// Reads the values of TfLoadSchema() into `options`.
void ReadTfLoadOptions(const OptionValues& values, TfLoadOptions* options);
// Reads the values of TfExportSchema(); message options are parsed into `messages`.
TfExportOptions ReadTfExportOptions(const OptionValues& values, TfMessageOptions* messages);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_OPTIONS_H_

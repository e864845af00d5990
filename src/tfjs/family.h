// The TensorFlow.js family: graph models (model.json with weight shards), read into the
// TensorFlow family's form and exported as any TensorFlow graph is, or back to TF.js.
#ifndef GRAPHPORT_TFJS_FAMILY_H_
#define GRAPHPORT_TFJS_FAMILY_H_

#include <nlohmann/json.hpp>

#include "core/family.h"
#include "core/option_schema.h"
#include "core/output_set.h"
#include "tf/family.h"
#include "tf/tf_model.h"

namespace graphport::tfjs {

inline constexpr char kFormatName[] = "tfjs-graph-model";

const Family& TfjsFamily();

// The TensorFlow family's export schema with "tfjs" among the values of "to" and the TF.js
// export options (quantize, quantizeWeights, shardSize, unfuseOps) in their own group. The
// TensorFlow family can take it as its own export schema, so any TensorFlow graph can be
// written as a TF.js model.
const OptionSchema& TfWithTfjsExportSchema();

// An export of a TensorFlow model with options read against TfWithTfjsExportSchema():
// to: 'tfjs' writes a TF.js graph model (the export_meta_graph options applied first), other
// kinds go to tf::Export; unfuseOps rewrites the graph first, and info.unfusedOps lists the
// rewrites. `tfjs_manifest` is the summary of the model.json the model came from, or null:
// its generatedBy and userDefinedMetadata are carried over to a TF.js export.
nlohmann::json ExportWithTfjs(tf::TfModel* model, const OptionValues& values,
                              const nlohmann::json& tfjs_manifest, OutputSet* out);

// What the TensorFlow family takes to write any TensorFlow graph `to: 'tfjs'` as well.
tf::TfExportExtension TfjsExportExtension();

}  // namespace graphport::tfjs

#endif  // GRAPHPORT_TFJS_FAMILY_H_

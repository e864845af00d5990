// The TensorFlow.js options, described once (core/option_schema.h): the load option of a
// graph model (dequantize) and the options of a TF.js export (quantize, quantizeWeights,
// shardSize) and of unfusing (unfuseOps), all in the group "TensorFlow.js". The family
// merges the export ones into the TensorFlow family's export schema, whose "to" also takes
// "tfjs".
#ifndef GRAPHPORT_TFJS_OPTIONS_H_
#define GRAPHPORT_TFJS_OPTIONS_H_

#include <vector>

#include "core/option_schema.h"
#include "tfjs/read_graph_model.h"
#include "tfjs/write_graph_model.h"

namespace graphport::tfjs {

inline constexpr char kOptionGroup[] = "tfjs";

// The option specs alone, for merging into another schema.
std::vector<OptionSpec> TfjsLoadOptionSpecs();
std::vector<OptionSpec> TfjsExportOptionSpecs();
OptionGroup TfjsOptionGroup();  // {"tfjs", "TensorFlow.js"}

// The load schema of the TF.js family.
const OptionSchema& TfjsLoadSchema();

void ReadTfjsLoadOptions(const OptionValues& values, ReadOptions* options);
// quantize, quantizeWeights and shardSize; unfuseOps is read by whoever unfuses.
void ReadTfjsWriteOptions(const OptionValues& values, WriteOptions* options);

}  // namespace graphport::tfjs

#endif  // GRAPHPORT_TFJS_OPTIONS_H_

// What the TensorFlow.js family's inspect() and export() give, described once
// (core/result_schema.h). A TF.js model is a TensorFlow graph: its summary is TensorFlow's
// graph fields under its own header, with the model.json's own fields in `tfjs`; its exports
// are TensorFlow's, whose info gains TfjsExportInfo (to: 'tfjs').
#ifndef GRAPHPORT_TFJS_RESULTS_H_
#define GRAPHPORT_TFJS_RESULTS_H_

#include <vector>

#include "core/result_schema.h"

namespace graphport::tfjs {

// The info of an export to: 'tfjs' and the types it names: TensorFlow's export extension.
std::vector<ResultType> TfjsExportResultTypes();
const ResultSchema& TfjsResultSchema();

}  // namespace graphport::tfjs

#endif  // GRAPHPORT_TFJS_RESULTS_H_

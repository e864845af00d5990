// What the TensorFlow family's inspect() and export() give, described once
// (core/result_schema.h): the summary, the export info, and the types they share with the
// TensorFlow.js family, whose model is a TensorFlow graph.
#ifndef GRAPHPORT_TF_RESULTS_H_
#define GRAPHPORT_TF_RESULTS_H_

#include <string>
#include <vector>

#include "core/result_schema.h"

namespace graphport::tf {

// The name of the type that describes a TensorFlow graph's summary after the common header:
// the fields of TfFamilyModel::Inspect(), which the TensorFlow.js summary has too. A summary
// type lists it in `extends`.
inline constexpr char kTfGraphSummaryType[] = "TensorflowGraphSummary";
// That type, those that its fields and TfExportResultTypes() name.
std::vector<ResultType> TfSharedResultTypes();
// The info of an export to a TensorFlow format: TensorflowFormatExportInfo.
std::vector<ResultType> TfExportResultTypes();

// The family's description: TensorflowSummary, and TensorflowFormatExportInfo or, with an
// extension (TensorFlow.js: to: 'tfjs'), the union with the extension's `export_info`.
ResultSchema TfResultSchema(const std::vector<ResultType>& extension_types = {},
                            const std::string& extension_export_info = "");

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_RESULTS_H_

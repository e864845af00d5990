// The TensorFlow part of the CLI's text summary: producer, tags, nodes and ops, constants,
// scopes, functions, collections, signatures and meta graphs.
#ifndef GRAPHPORT_TF_SUMMARY_TEXT_H_
#define GRAPHPORT_TF_SUMMARY_TEXT_H_

#include <nlohmann/json.hpp>
#include <string>

namespace graphport::tf {

// `summary` is what TfFamilyModel::Inspect() made (taken by value: missing keys read as null).
std::string TfSummaryText(nlohmann::json summary);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_SUMMARY_TEXT_H_

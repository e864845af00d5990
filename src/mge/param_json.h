// Operator params decoded by field name through FlatBuffers reflection (the embedded binary
// schemas), enums by name: inspect's view of a param table, with no code per table.
#ifndef GRAPHPORT_MGE_PARAM_JSON_H_
#define GRAPHPORT_MGE_PARAM_JSON_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "mge/mge_model.h"

namespace graphport::mge {

// {"union": 3, "type": "Convolution", "fields": {"mode": "CROSS_CORRELATION", "pad_h": 1,
// ...}} with every field of the table (absent ones at their schema default); an enum value
// without a name shows as its number; a bit-flag enum as "HEURISTIC|REPRODUCIBLE".
// {"union": 120, "type": null} for a union member the schemas do not declare.
// `writer_version` (Graph.mgb_version / Model.mge_version) picks the layout the writer used
// (schema/param_history.h): "layout" names it when it is not today's table, and "ambiguous"
// is true when the version (8.9999.0) stands for releases whose layouts differed.
nlohmann::json ParamToJson(const Param& param, uint32_t writer_version = 0);

// {"dtype": "Quantized8Asymm", "scale": 0.5, "zero_point": 128}: the dtype's name, with the
// quantization params a dtype has (zero_point only where it has one); null when absent.
nlohmann::json DTypeJson(const std::optional<DType>& d);

// The union member's table name ("Convolution", "DType"), or "" when unknown.
std::string ParamTypeName(uint8_t type);

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_PARAM_JSON_H_

// The op histogram of the text summaries (TensorFlow's ops, MegEngine's operator types): the
// most frequent first, as `graphport inspect` prints them.
#ifndef GRAPHPORT_CORE_OP_HISTOGRAM_H_
#define GRAPHPORT_CORE_OP_HISTOGRAM_H_

#include <nlohmann/json.hpp>
#include <string>

namespace graphport {

// `counts` ({"Const": 12, ...}) as lines "  Const<padding>12", the most frequent first (ties in
// the object's order), at most 12 of them, then "  ... N more<more>" when there are more.
std::string OpHistogramText(const nlohmann::json& counts, const char* more);

}  // namespace graphport

#endif  // GRAPHPORT_CORE_OP_HISTOGRAM_H_

// strip_info_file: what MegEngine's get_info_for_strip collects (operator C++ class names,
// dtypes of every output var, Elemwise modes) plus the dump's hash, as the JSON
// megbrain_graph.dump_graph writes, and its append_json merge.
#ifndef GRAPHPORT_MGE_DUMP_STRIP_INFO_H_
#define GRAPHPORT_MGE_DUMP_STRIP_INFO_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "mge/mge_model.h"

namespace graphport::mge {

struct StripInfo {
  std::vector<std::string> dtypes;          // sorted
  std::vector<std::string> elemwise_modes;  // sorted
  std::vector<std::string> opr_types;       // sorted
  uint64_t hash = 0;
  uint32_t vars_without_dtype = 0;  // outputs whose dtype neither the file nor inference gives
};

StripInfo CollectStripInfo(const Graph& graph, uint64_t content_hash);

// The file's text: {"dtypes": [...], "elemwise_modes": [...], "opr_types": [...], "hash": N}
// in Python's json.dump format. With `existing` (append_json and a non-empty file), every
// key of the old object that the new one has gets the new values it lacks appended in
// sorted order, keys only in the new one are dropped, and "hash" is set to the new hash.
// Throws Error(kInvalidOption) when `existing` is not a JSON object.
std::string StripInfoJson(const StripInfo& info, const std::optional<std::string>& existing);

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_DUMP_STRIP_INFO_H_

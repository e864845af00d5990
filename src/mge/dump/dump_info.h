// MegEngine's CompGraphDumpResult (nr_opr, tot_bytes, tensor_value_bytes, content_hash,
// inputs, outputs, params) as a JSON object: what Export returns, and what inspect shows for
// the file as loaded.
#ifndef GRAPHPORT_MGE_DUMP_DUMP_INFO_H_
#define GRAPHPORT_MGE_DUMP_DUMP_INFO_H_

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "mge/mge_model.h"

namespace graphport::mge {

// "0x9e62dbf156949217": 64-bit hashes and ids travel as hex text (JSON numbers lose bits).
std::string Hex64(uint64_t v);

struct DumpInfo {
  uint32_t nr_opr = 0;
  uint64_t tot_bytes = 0;
  uint64_t tensor_value_bytes = 0;
  uint64_t content_hash = 0;
  std::vector<std::string> inputs;   // sorted
  std::vector<std::string> outputs;  // in output order; "unnamed<i>" without names
  std::vector<std::string> params;
};

nlohmann::json DumpInfoJson(const DumpInfo& info);

// The dump info of a graph as it was loaded.
DumpInfo LoadedDumpInfo(const Graph& graph);

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_DUMP_DUMP_INFO_H_

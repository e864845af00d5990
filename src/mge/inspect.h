// inspect() of a MegEngine model: the common header, then the operators in order (params
// decoded by field name), vars, metadata (user_info decoded when it is a plain pickle), the
// dump info as loaded, an op histogram, the graphs of the file and mgbtest0 test cases.
#ifndef GRAPHPORT_MGE_INSPECT_H_
#define GRAPHPORT_MGE_INSPECT_H_

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/summary_pages.h"
#include "mge/mge_model.h"

namespace graphport::mge {

struct InspectContext {
  std::string detection;  // the detection reason
  std::vector<std::string> inputs;
  size_t graph = 0;  // the graph the load option picked
};

// The operators a summary lists for the JS API and the CLI: the rest come a page at a time
// (OperatorPageJson), so a 100k-operator summary is kilobytes, not 80 MB of JSON.
constexpr size_t kSummaryOperators = 100;

// The inspect object as JSON text, equal to nlohmann's dump(-1, ' ', false, replace) of it, but
// written without a DOM for the operators (their part is linear in time and text size).
// `operators` lists the first `listed` operators; `operatorCount` counts all of them.
std::string InspectMgeFileText(const MgeFile& file, const InspectContext& context,
                               size_t listed = SIZE_MAX);
// The same object parsed, for callers that want the DOM.
nlohmann::json InspectMgeFile(const MgeFile& file, const InspectContext& context,
                              size_t listed = SIZE_MAX);

// A page of the "operators" list (core/summary_pages.h): the operators whose type, class or
// name holds the filter, as inspect() lists them. Throws kInvalidOption for another list.
std::string OperatorPageJson(const MgeFile& file, const InspectContext& context,
                             const SummaryPageRequest& request);

// One operator of `graph` as inspect() lists it: {blobs, class, compNodes, index, inputs,
// name, outputDtype, outputs, params, priority, tensors, type, typeId}.
nlohmann::json OperatorJson(const Graph& graph, size_t index);

// The optimize_for_inference kwargs an options word stands for, as Network.metadata lists
// them (deserialize_infer_option): only the true ones, layout first.
std::vector<std::string> OptimizeOptionNames(uint64_t word);

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_INSPECT_H_

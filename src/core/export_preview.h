// The export preview (model.preview(), `graphport export --dry-run`): what an export with the
// given options would do to the graph, node by node, before anything is written. The export
// runs as it would (its writer included) into memory, the output is read back, and the two
// graphs are compared here by node name and content; the family then says which of its
// options each difference belongs to (PreviewRule), since it knows where each option acts.
#ifndef GRAPHPORT_CORE_EXPORT_PREVIEW_H_
#define GRAPHPORT_CORE_EXPORT_PREVIEW_H_

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/graph_index.h"
#include "core/result_schema.h"

namespace graphport {

// Names a preview lists per list at most (with the full count beside them): a 200k-node graph's
// preview stays small.
inline constexpr size_t kPreviewNamesListed = 1000;

// The ways a node kept by the export can differ, as the preview names them.
namespace change {
inline constexpr char kRenamed[] = "renamed";  // by an export scope
inline constexpr char kDeviceCleared[] = "device cleared";
inline constexpr char kDeviceChanged[] = "device changed";
inline constexpr char kAttrsStripped[] = "attrs removed";  // default attrs stripped, ...
inline constexpr char kAttrsAdded[] = "attrs added";
inline constexpr char kAttrsChanged[] = "attrs changed";
inline constexpr char kValueChanged[] = "value changed";  // a Const folded or quantized
inline constexpr char kOpChanged[] = "op changed";        // fused, unfused, frozen
inline constexpr char kInputsChanged[] = "inputs changed";
inline constexpr char kTensorsChanged[] = "tensors changed";  // an operator's own tensors
}  // namespace change

// One node the export keeps but changes.
struct NodeChange {
  uint32_t before = 0;
  uint32_t after = 0;
  std::vector<std::string> kinds;  // change::k*, in the order above
  std::vector<std::string> attrs;  // the attrs or params removed, added or changed
};

struct GraphDiff {
  uint64_t nodes_before = 0;
  uint64_t nodes_after = 0;
  std::vector<uint32_t> dropped;  // nodes of the input with no node in the output
  std::vector<uint32_t> added;    // nodes of the output with no node in the input
  std::vector<NodeChange> changed;
  uint64_t renamed = 0;  // nodes kept under another name (changed, kind kRenamed)
};

// How an option of the family shows in the preview: the differences it claims, and what it
// has to say besides. Rules are asked in order; a difference goes to the first that claims it,
// and what none claims is listed under the export itself ("export": the writer's own doing).
struct PreviewRule {
  std::string option;  // its JSON name: "clearDevices"
  std::string label;   // how the preview names it: "clearDevices", "exportScope 'a'"
  // The dropped nodes it claims, by their name and op in the input; unset claims none.
  std::function<bool(std::string_view name, const std::string& op)> drops;
  std::vector<std::string> changes;                 // the change kinds it claims
  bool adds = false;                                // claims the added nodes
  bool counts_kept = false;                         // says how many nodes it kept (an export scope)
  nlohmann::json facts = nlohmann::json::object();  // more to say, merged into its entry
  std::string note;  // said after its counts in the line for people: "6 signatures dropped"
};

// A node's name in the output, given its name in the input (an export scope strips its
// prefix); unset keeps names.
using PreviewRename = std::function<std::string(std::string_view name)>;

// A node as the preview compares it, from GraphSource::NodeDetails: {op, device, attrs (or
// params), inputs: ["[^]node[:output]"] (producers renamed by `rename`), tensors?}.
nlohmann::json PreviewNodeContent(const nlohmann::json& details, const PreviewRename& rename);

// Compares the input's graph with the one read back from the export's output.
GraphDiff DiffGraphs(GraphSource* before, GraphSource* after, const PreviewRename& rename);

// The preview as JSON (ExportPreview in core/result_schema.cc describes it): the counts, the
// lists of each kind of difference, and one entry per rule that claimed any.
nlohmann::json PreviewJson(const GraphDiff& diff, GraphSource* before, GraphSource* after,
                           const std::vector<PreviewRule>& rules);

// The result types of a family's preview, for its ResultSchema: "<prefix>ExportPreview" (what
// the schema's `preview` names), "<prefix>PreviewOption" whose `facts` are "<prefix>PreviewFacts"
// with `facts` (the family's PreviewRule::facts, every one optional), and the shared types.
std::vector<ResultType> PreviewResultTypes(const std::string& prefix,
                                           const std::vector<ResultField>& facts);

}  // namespace graphport

#endif  // GRAPHPORT_CORE_EXPORT_PREVIEW_H_

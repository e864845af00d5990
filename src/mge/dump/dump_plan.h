// What a re-dump writes, decided option by option before the writer runs: the writers replay
// MegEngine's builder sequence and take every name, priority and metadata field from here.
// Each keep_* file fills its part from the loaded graph and the request.
#ifndef GRAPHPORT_MGE_DUMP_DUMP_PLAN_H_
#define GRAPHPORT_MGE_DUMP_DUMP_PLAN_H_

#include <optional>
#include <string>
#include <vector>

#include "mge/dump/dump_request.h"
#include "mge/mge_model.h"

namespace graphport::mge {

// The MegEngine release whose Network.dump graphport writes as: v1.13.4, as its files name it,
// (major * 1000 + minor) * 100 + patch.
inline constexpr uint32_t kNetworkDumpVersion = 101304;

struct DumpPlan {
  const Graph* graph = nullptr;
  DumpFormat format = DumpFormat::kFbsV2;
  V1Magic magic = V1Magic::kMgbc;

  // keep_var_name: per var id, the name written (FBS v1 output_name, FBS_V2 middle tensor);
  // per operator (FBS v1), whether output_name is written; FBS_V2: whether middle_tensors is.
  std::vector<std::string> var_names;
  std::vector<bool> write_output_names;
  bool write_middle_tensors = false;
  uint32_t synthesized_var_names = 0;  // names the input did not store
  // keep_opr_name
  std::vector<std::optional<std::string>> opr_names;
  uint32_t missing_opr_names = 0;
  // keep_param_name: per operator, per tensor, the tensor name written
  std::vector<std::vector<std::optional<std::string>>> tensor_names;
  std::vector<std::string> param_names;  // dump info `params`
  // keep_opr_priority
  std::vector<int32_t> priorities;
  // Graph.mgb_version / Model.mge_version: kNetworkDumpVersion, or the loaded graph's
  uint32_t version = 0;
  // enable_metadata / user_info / optimize_for_inference
  bool write_metadata = false;
  Metadata metadata;
  std::string metadata_note;  // how the metadata was decided, for info
};

// The whole plan: every keep_* part, metadata, format and header.
DumpPlan MakeDumpPlan(const Graph& graph, const DumpRequest& request);

void PlanVarNames(const Graph& graph, const DumpRequest& request, DumpPlan* plan);
void PlanOprNames(const Graph& graph, const DumpRequest& request, DumpPlan* plan);
void PlanParamNames(const Graph& graph, const DumpRequest& request, DumpPlan* plan);
void PlanOprPriorities(const Graph& graph, const DumpRequest& request, DumpPlan* plan);
void PlanMetadata(const Graph& graph, const DumpRequest& request, DumpPlan* plan);
void PlanWriterVersion(const Graph& graph, const DumpRequest& request, DumpPlan* plan);

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_DUMP_DUMP_PLAN_H_

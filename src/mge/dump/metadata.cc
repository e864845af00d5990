// enable_metadata, user_info and the optimize_options word, as Network.dump writes them
// (research megengine_optimize.md §1.1 step 6): a fresh Metadata on every dump, is_valid and
// graph_modified set, user_info the pickle of the userInfo argument (None when there is none:
// the loaded one is not carried over), optimize_options the kwargs' word when the graph was
// optimized (absent otherwise). enable_metadata=False writes an invalid one with an empty
// user_info. graphport's asLoaded keeps the loaded file's metadata instead, none included.
#include "mge/dump/dump_plan.h"
#include "mge/pickle/pickle_writer.h"

namespace graphport::mge {
namespace {

void PlanLoadedMetadata(const Graph& graph, const DumpRequest& request, DumpPlan* plan) {
  const Metadata& loaded = graph.metadata;
  if (!loaded.present) {
    plan->write_metadata = false;
    plan->metadata_note = "as loaded: the input has no metadata";
    return;
  }
  plan->write_metadata = true;
  plan->metadata = loaded;
  if (request.user_info) plan->metadata.user_info = request.user_info;
  plan->metadata_note =
      request.user_info ? "as loaded, user_info from the userInfo option" : "as loaded";
}

}  // namespace

void PlanMetadata(const Graph& graph, const DumpRequest& request, DumpPlan* plan) {
  // asLoaded keeps what the input has unless metadata is turned off, or asked for where the
  // input has none.
  if (request.as_loaded && request.enable_metadata &&
      (graph.metadata.present || !request.metadata_requested)) {
    PlanLoadedMetadata(graph, request, plan);
    return;
  }
  plan->write_metadata = true;
  Metadata& m = plan->metadata;
  m.present = true;
  if (!request.enable_metadata) {
    m.is_valid = false;
    m.graph_modified = false;
    m.user_info = std::string();
    m.optimize_options = 0;
    plan->metadata_note = "disabled: an invalid Metadata with empty user_info, as MegEngine";
    return;
  }
  m.is_valid = true;
  // Network.dump marks its dumps as modified graphs.
  m.graph_modified = true;
  if (request.user_info) {
    m.user_info = request.user_info;
    plan->metadata_note = "user_info from the userInfo option";
  } else {
    m.user_info = PickleNone();
    plan->metadata_note = "user_info = pickle of None";
  }
  m.optimize_options = request.optimize_for_inference ? request.optimize.Serialize() : 0;
}

}  // namespace graphport::mge

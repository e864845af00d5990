// enable_metadata, user_info and the optimize_options word. MegEngine writes a Metadata
// table on every dump (enable_metadata=False: an invalid one with an empty user_info).
// graphport keeps a loaded file's choice when the caller says nothing about metadata, so a
// file from before metadata existed re-dumps byte for byte; asking for it (enableMetadata or
// userInfo) writes it as Network.dump does.
#include "mge/dump/dump_plan.h"
#include "mge/pickle/pickle_writer.h"

namespace graphport::mge {

void PlanMetadata(const Graph& graph, const DumpRequest& request, DumpPlan* plan) {
  const Metadata& loaded = graph.metadata;
  if (!loaded.present && !request.metadata_requested) {
    plan->write_metadata = false;
    plan->metadata_note = "as loaded: the input has no metadata";
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
  } else if (loaded.present && loaded.user_info) {
    m.user_info = loaded.user_info;
    plan->metadata_note = "user_info as loaded";
  } else {
    m.user_info = PickleNone();
    plan->metadata_note = "user_info = pickle of None";
  }
  m.optimize_options = request.optimize_for_inference ? loaded.optimize_options : 0;
}

}  // namespace graphport::mge

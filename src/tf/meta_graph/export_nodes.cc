#include "tf/meta_graph/export_nodes.h"

#include "tf/meta_graph/parsed_export_nodes.h"
#include "tf/meta_graph/wire_export_nodes.h"
#include "tf/meta_graph/wire_nodes.h"

namespace graphport::tf {

std::unique_ptr<ExportNodes> NodesToExport(const TfModel& model, const TfExportOptions& options) {
  if (const WireGraph* wire = WireNodesFor(model, options)) {
    return std::make_unique<WireExportNodes>(*wire);
  }
  return std::make_unique<ParsedExportNodes>(options.graph_def != nullptr ? *options.graph_def
                                                                          : model.graph());
}

}  // namespace graphport::tf

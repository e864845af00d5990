#include "tf/meta_graph/clear_extraneous_savers.h"

#include "tf/meta_graph/extraneous_savers.h"

namespace graphport::tf {

ClearExtraneousSavers::ClearExtraneousSavers(const ForEachNode& for_each_node,
                                             const tensorflow::SaverDef* saver)
    : excluded_(FindExtraneousSaverNodes(for_each_node, saver)) {}

bool ClearExtraneousSavers::Keeps(const NodeView& node) const {
  return excluded_.count(std::string(node.name())) == 0;
}

}  // namespace graphport::tf

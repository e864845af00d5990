// export_meta_graph(clear_devices=True): every exported node loses its device, so the graph
// can be imported on a machine with other devices.
#ifndef GRAPHPORT_TF_META_GRAPH_CLEAR_DEVICES_H_
#define GRAPHPORT_TF_META_GRAPH_CLEAR_DEVICES_H_

#include "tf/meta_graph/node_view.h"

namespace graphport::tf {

class ClearDevices final : public NodePass {
 public:
  bool ReadsNode() const override { return false; }
  void Edit(const NodeView& node, NodeEdit* edit) const override;
};

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_META_GRAPH_CLEAR_DEVICES_H_

#include "tf/meta_graph/clear_devices.h"

namespace graphport::tf {

void ClearDevices::Edit(const NodeView& /*node*/, NodeEdit* edit) const {
  // TensorFlow's _node_def blanks the device of every node, set or not; a blank device is left
  // out of the output either way (proto3), so both forms write the same bytes.
  edit->ClearDevice();
}

}  // namespace graphport::tf

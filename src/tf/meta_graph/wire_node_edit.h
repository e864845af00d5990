// Edits of a canonical NodeDef's bytes that need no parse: whether an attr may name a
// function, and a rename (NodeEdit::RenameWith; export_scope.h's) with clearDevices applied
// record by record. The result equals libprotobuf's deterministic serialisation of the parsed
// node so edited, because a canonical node's records are already in that order and only the
// name, inputs and device change; a node whose attrs a pass changes is not edited here.
#ifndef GRAPHPORT_TF_META_GRAPH_WIRE_NODE_EDIT_H_
#define GRAPHPORT_TF_META_GRAPH_WIRE_NODE_EDIT_H_

#include <google/protobuf/io/coded_stream.h>

#include <string>
#include <string_view>
#include <vector>

#include "tf/meta_graph/node_view.h"

namespace graphport::tf {

// Whether an attr of the node in `bytes` (checked wire bytes, canonical or not) may name a
// library function: holds an AttrValue `func` or a list with one. False only when none does;
// a true answer is settled by parsing the node (UsedOps reads its attrs).
bool AttrsMayNameFunctions(std::string_view bytes);

// `renamer` must outlive the edit.
class WireRenameEdit {
 public:
  WireRenameEdit(const NodeRenamer& renamer, bool clear_devices)
      : renamer_(renamer), clear_devices_(clear_devices) {}

  // The edited payload's size; with `unbound`, appends the edited node's "$unbound_inputs_"
  // inputs (made here or by an earlier export), as AddUnboundInputs would.
  uint64_t Size(std::string_view bytes, std::vector<std::string>* unbound) const;
  void Write(std::string_view bytes, google::protobuf::io::CodedOutputStream* out) const;

 private:
  const NodeRenamer& renamer_;
  bool clear_devices_;
};

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_META_GRAPH_WIRE_NODE_EDIT_H_

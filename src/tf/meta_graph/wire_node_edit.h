// Edits of a canonical NodeDef's bytes that need no parse: reading its attr keys (and whether
// an attr may name a function), and
// exportScope with clearDevices (RewriteNode, tf/meta_graph/node_rewrite.h) applied record by
// record. The result equals libprotobuf's deterministic serialisation of RewriteNode's output,
// because a canonical node's records are already in that order and only the name, inputs and
// device change; a node whose attrs the scope rewrites (_class, frame_name) is not edited here.
#ifndef GRAPHPORT_TF_META_GRAPH_WIRE_NODE_EDIT_H_
#define GRAPHPORT_TF_META_GRAPH_WIRE_NODE_EDIT_H_

#include <google/protobuf/io/coded_stream.h>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "tf/meta_graph/scope.h"

namespace graphport::tf {

// Calls `visit` with the key of each attr of the node in `bytes`.
void ForEachAttrKey(std::string_view bytes, const std::function<void(std::string_view)>& visit);

// Whether an attr of the node in `bytes` (checked wire bytes, canonical or not) may name a
// library function: holds an AttrValue `func` or a list with one. False only when none does;
// a true answer is settled by parsing the node (UsedOps reads its attrs).
bool AttrsMayNameFunctions(std::string_view bytes);

class WireScopeEdit {
 public:
  WireScopeEdit(const Scope& scope, bool clear_devices)
      : scope_(scope), clear_devices_(clear_devices) {}

  // Whether a canonical node whose attrs include `key` can still be edited here (else:
  // RewriteNode on its parse, which rewrites that attr).
  bool AppliesWith(std::string_view attr_key) const;
  // The edited payload's size; with `unbound`, appends the edited node's "$unbound_inputs_"
  // inputs (made here or by an earlier export), as AddUnboundInputs would.
  uint64_t Size(std::string_view bytes, std::vector<std::string>* unbound) const;
  void Write(std::string_view bytes, google::protobuf::io::CodedOutputStream* out) const;

 private:
  // An input as the edit writes it: `marker` + `rest`, or the unbound form of `input`.
  struct Input {
    std::string_view marker, rest;
    bool unbound = false;
    size_t size() const;
  };
  Input EditInput(std::string_view input) const;

  Scope scope_;
  bool clear_devices_;
};

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_META_GRAPH_WIRE_NODE_EDIT_H_

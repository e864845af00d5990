// meta_info_def.stripped_op_list: the OpDefs of every op the exported graph uses, so that an
// importer can tell which attrs a newer producer added (RemoveNewDefaultAttrsFromGraphDef).
#ifndef GRAPHPORT_TF_META_GRAPH_STRIPPED_OP_LIST_H_
#define GRAPHPORT_TF_META_GRAPH_STRIPPED_OP_LIST_H_

#include <deque>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "tensorflow/graph.pb.h"
#include "tensorflow/op_def.pb.h"
#include "tf/meta_graph/op_registry.h"

namespace graphport::tf {

// The ops a graph uses, gathered node by node: a node's op or, for a node that calls a library
// function (as its op, or through a func-valued attr such as PartitionedCall's "f" or While's
// "body"), the ops of that function's body, recursively and cycle-safe. Function names
// themselves are not ops.
class UsedOps {
 public:
  // `library` must outlive this object.
  explicit UsedOps(const tensorflow::FunctionDefLibrary& library);

  bool has_functions() const { return !functions_.empty(); }
  // A node: its op, and the functions its attrs name unless `attrs` is null (the caller knows
  // they name none). The op's characters must outlive this object: they are kept as a view
  // (a node-heavy graph names a handful of ops hundreds of thousands of times).
  void AddNode(std::string_view op, const tensorflow::NodeDef* attrs);
  // Every op found, the called functions' bodies walked: sorted by code point, each once.
  std::vector<std::string> Sorted();

 private:
  void Call(const std::string& function);

  std::map<std::string, const tensorflow::FunctionDef*, std::less<>> functions_;
  std::unordered_set<std::string_view> ops_;
  std::set<std::string> visited_;
  std::deque<const tensorflow::FunctionDef*> pending_;
};

// Op names the graph uses (UsedOps over its top-level nodes): every top-level node's op and, for
// each library function the graph calls (as an op, or through a func-valued attr such as
// PartitionedCall's "f" or While's "body"), the ops of its body, recursively and cycle-safe.
// Function names themselves are not ops. Sorted by code point, as TensorFlow sorts them.
std::vector<std::string> OpsUsedByGraph(const tensorflow::GraphDef& graph);

// The OpDefs of OpsUsedByGraph(graph) from the registry's complete layers, with every summary
// and description removed. Ops no layer knows are left out and listed in `unregistered`
// (TensorFlow 2.x skips them silently too; graphport reports them).
void BuildStrippedOpList(const tensorflow::GraphDef& graph, const OpRegistry& registry,
                         tensorflow::OpList* out, std::vector<std::string>* unregistered);
// The same for ops already listed (sorted by code point, each once).
void BuildStrippedOpList(const std::vector<std::string>& used_ops, const OpRegistry& registry,
                         tensorflow::OpList* out, std::vector<std::string>* unregistered);

// The names of the graph's library functions.
std::set<std::string> FunctionNames(const tensorflow::GraphDef& graph);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_META_GRAPH_STRIPPED_OP_LIST_H_

// Inlines function calls into the graph, as Grappler's function optimizer does in the
// aggressive mode tfjs-converter asks for: every PartitionedCall, StatefulPartitionedCall and
// direct call of a library function, nested calls included. TensorFlow's names are kept: body
// node n of call C becomes "C/n"; the call's inputs pass through Identities
// "Func/C/input/_N", its outputs through "Func/C/output/_N", its control edges through NoOps
// "Func/C/input_control_node/_N" and "Func/C/output_control_node/_N" (N counting up across
// the graph). Functional control flow (If, While, Case) is not a call: it stays, with its
// branch and body functions in the library.
#ifndef GRAPHPORT_TF_FREEZE_INLINE_CALLS_H_
#define GRAPHPORT_TF_FREEZE_INLINE_CALLS_H_

#include <string>
#include <vector>

#include "tensorflow/graph.pb.h"
#include "tf/meta_graph/op_registry.h"

namespace graphport::tf {

// The library function a node calls, or null when it calls none (control flow is no call).
const tensorflow::FunctionDef* CalledFunction(const tensorflow::NodeDef& node,
                                              const tensorflow::FunctionDefLibrary& library);

// Inlines every call of `graph` (whose library holds the functions). `fetches` are graph
// tensors ("node", "node:1") the caller keeps: those that named a call's output are rewritten
// to the Identity that now carries it. Returns the number of calls inlined. Throws
// Error(kUnsupported) past kMaxInlineDepth nested calls (a recursive function) or when a body
// uses an op without an OpDef.
int InlineCalls(tensorflow::GraphDef* graph, const OpRegistry& registry,
                std::vector<std::string>* fetches);

inline constexpr int kMaxInlineDepth = 64;

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_FREEZE_INLINE_CALLS_H_

// Where the GraphDef sits inside a binary MetaGraphDef or SavedModel, so its nodes can be kept
// as wire bytes (tf/wire_graph.h) like a GraphDef input's, and the bytes of everything else
// with the graph's nodes cut out, for a parse of the small rest.
#ifndef GRAPHPORT_TF_WIRE_NESTED_H_
#define GRAPHPORT_TF_WIRE_NESTED_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tf/tf_format.h"

namespace graphport::tf {

// One length-delimited record, as offsets into the message's bytes.
struct RecordSpan {
  uint64_t start = 0;    // its tag
  uint64_t tag_end = 0;  // where its length begins
  uint64_t value = 0;    // its payload
  uint64_t length = 0;   // of the payload
  uint64_t end() const { return value + length; }
};

// The records from the top of the message down to its graph_def: {graph_def} in a
// MetaGraphDef, {meta_graphs, graph_def} in a SavedModel.
using GraphLocation = std::vector<RecordSpan>;

// False unless the bytes hold exactly one graph_def to keep (one MetaGraphDef in a
// SavedModel, one graph_def record in it) and every record on the way reads: anything else
// is parsed whole.
bool LocateGraph(std::string_view bytes, TfKind kind, GraphLocation* location);

// `bytes` with the graph_def's payload replaced by `payload`, every enclosing length fixed.
std::string ReplaceGraphPayload(std::string_view bytes, const GraphLocation& location,
                                std::string_view payload);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_WIRE_NESTED_H_

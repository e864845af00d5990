// Writes a message whose GraphDef still has its nodes as wire bytes (tf/wire_graph.h): the
// message is serialised (or printed) without them, and the nodes are put back at the start
// of that GraphDef, where a GraphDef's first field belongs. The bytes equal what writing the
// fully parsed message gives (proto/proto_io.h), without ever holding the parsed nodes.
#ifndef GRAPHPORT_TF_WIRE_WRITE_H_
#define GRAPHPORT_TF_WIRE_WRITE_H_

#include <google/protobuf/message_lite.h>

#include <string>
#include <vector>

#include "core/byte_stream.h"
#include "proto/schema.h"
#include "proto/unknown_fields.h"
#include "tf/wire_graph.h"

namespace graphport::tf {

// One step from a message to the GraphDef inside it: the `occurrence`-th record of field
// `number` (named `name` in text).
struct GraphStep {
  int number;
  int occurrence;
  std::string name;
};
using GraphPath = std::vector<GraphStep>;

// GraphDef: {}; MetaGraphDef: {graph_def}; SavedModel: {meta_graphs[i], graph_def}.
// `type` is the message's schema: one of those three.
GraphPath PathToGraph(const proto::MessageSchema& type, int meta_graph_index);

// As proto::WriteBinary: deterministic, TOO_LARGE from 2 GiB before writing a byte.
void WriteBinaryWithNodes(const google::protobuf::MessageLite& message,
                          const proto::MessageSchema& type, const GraphPath& path,
                          const WireGraph& wire, const NodePlan& plan, ByteSink* sink);
// As proto::WriteText. The nodes must all be canonical (no unknown fields to leave out).
proto::UnknownFieldReport WriteTextWithNodes(const google::protobuf::MessageLite& message,
                                             const proto::MessageSchema& type,
                                             const GraphPath& path, const WireGraph& wire,
                                             const NodePlan& plan, ByteSink* sink);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_WIRE_WRITE_H_

// A path from a root message down to one field, for messages that name where in a model
// something is: "graph_def.node[3].attr[\"T\"].s".
#ifndef GRAPHPORT_PROTO_FIELD_PATH_H_
#define GRAPHPORT_PROTO_FIELD_PATH_H_

#include <google/protobuf/message.h>

#include <string>
#include <vector>

namespace graphport::proto {

struct FieldStep {
  const google::protobuf::Message* parent;
  const google::protobuf::FieldDescriptor* field;
  int index;  // -1 for a singular field
};

using FieldPath = std::vector<FieldStep>;

// "node[3].attr[\"T\"].s": map entries by key (a string key capped for messages), other
// repeated fields by index. A very deep path keeps its first and last steps.
std::string FieldPathText(const FieldPath& path);

}  // namespace graphport::proto

#endif  // GRAPHPORT_PROTO_FIELD_PATH_H_

// Where OpDefs come from during an export: layers searched in order, the first that knows an
// op wins. export_meta_graph uses, in order: a registry the caller passes, the input's own
// stripped_op_list (the producer's view), and graphport's built-in defaults table.
#ifndef GRAPHPORT_TF_META_GRAPH_OP_REGISTRY_H_
#define GRAPHPORT_TF_META_GRAPH_OP_REGISTRY_H_

#include <map>
#include <string>
#include <vector>

#include "tensorflow/op_def.pb.h"

namespace graphport::tf {

class OpRegistry {
 public:
  // `ops` must outlive the registry. `complete` says whether its OpDefs are whole (usable
  // in a stripped_op_list) or hold only attr defaults.
  void AddLayer(const tensorflow::OpList* ops, std::string source, bool complete);

  struct Found {
    const tensorflow::OpDef* op = nullptr;
    const std::string* source = nullptr;
    bool complete = false;
  };
  // Searches every layer; an empty Found when no layer has the op.
  Found Find(const std::string& name) const;
  // Only layers with whole OpDefs.
  const tensorflow::OpDef* FindComplete(const std::string& name) const;

 private:
  struct Layer {
    std::string source;
    bool complete;
    std::map<std::string, const tensorflow::OpDef*> ops;
  };
  std::vector<Layer> layers_;
};

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_META_GRAPH_OP_REGISTRY_H_

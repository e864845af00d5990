// graphport's own table of attr defaults for the ops common in inference graphs: the last
// layer of the op registry that strip_default_attrs consults.
#ifndef GRAPHPORT_TF_META_GRAPH_BUILTIN_OP_DEFAULTS_H_
#define GRAPHPORT_TF_META_GRAPH_BUILTIN_OP_DEFAULTS_H_

#include <vector>

#include "tensorflow/op_def.pb.h"

namespace graphport::tf {

struct BuiltinAttrDefault {
  const char* op;
  const char* attr;
  const char* type;           // AttrDef.type, e.g. "list(int)"
  const char* default_value;  // an AttrValue in protobuf text format
};

const std::vector<BuiltinAttrDefault>& BuiltinAttrDefaults();

// The same rows as an OpList whose OpDefs hold only attrs with defaults.
const tensorflow::OpList& BuiltinDefaultsOpList();

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_META_GRAPH_BUILTIN_OP_DEFAULTS_H_

// A node's attrs and a Const node's `value` tensor read from the node's wire bytes, so
// inspect() can total a graph's constants, and a TF.js export size and write its weights
// (tfjs/const_header.h), without parsing each Const node into a message.
#ifndef GRAPHPORT_TF_WIRE_TENSOR_H_
#define GRAPHPORT_TF_WIRE_TENSOR_H_

#include <cstdint>
#include <string_view>

namespace graphport::tf {

// TensorPayloadBytes (tf/inspect.h) of the `value` attr's tensor of the NodeDef in `bytes`
// (0 when it has none). The bytes must be canonical (proto::CheckWire): each singular field
// once, map keys once, no empty packed record; for any other node, parse it.
uint64_t CanonicalConstPayloadBytes(std::string_view bytes);

// The AttrValue bytes of the attr `key` of the canonical NodeDef in `bytes` (empty for an entry
// without a value); false when the node has no such attr.
bool FindCanonicalAttr(std::string_view bytes, std::string_view key, std::string_view* value);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_WIRE_TENSOR_H_

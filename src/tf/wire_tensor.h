// The payload size of a Const node's `value` tensor read from the node's wire bytes, so
// inspect() can total a graph's constants without parsing each Const node into a message.
#ifndef GRAPHPORT_TF_WIRE_TENSOR_H_
#define GRAPHPORT_TF_WIRE_TENSOR_H_

#include <cstdint>
#include <string_view>

namespace graphport::tf {

// TensorPayloadBytes (tf/inspect.h) of the `value` attr's tensor of the NodeDef in `bytes`
// (0 when it has none). The bytes must be canonical (proto::CheckWire): each singular field
// once, map keys once, no empty packed record; for any other node, parse it.
uint64_t CanonicalConstPayloadBytes(std::string_view bytes);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_WIRE_TENSOR_H_

// What a TF.js export needs of a Const to size its weight and, most often, to write it: its
// tensor's dtype and shape, its tensor_content, and whether its quantized codes are kept as
// they are. The export sizes every weight before it writes the first (each shard's name holds
// the shard count), then writes them; read from a node's bytes, these facts cost a walk over a
// few records and the content is written from where it lies, where parsing the node copied
// its tensor's contents, twice per weight (the whole 201 MiB of the weights benchmark's graph,
// one Const at a time).
#ifndef GRAPHPORT_TFJS_CONST_HEADER_H_
#define GRAPHPORT_TFJS_CONST_HEADER_H_

#include <cstdint>
#include <string_view>

#include "tensorflow/graph.pb.h"
#include "tensorflow/tensor_shape.pb.h"

namespace graphport::tfjs {

struct ConstHeader {
  // Of the tensor in the node's "value" attr; DT_INVALID and no dims when it has none, as a
  // parsed node's default tensor.
  tensorflow::DataType dtype = tensorflow::DT_INVALID;
  tensorflow::TensorShapeProto shape;
  std::string_view content;  // its tensor_content, in the node's bytes or in its parse
  bool kept_codes = false;   // the node has kQuantizationAttr: its codes are written as read
};

// From a parsed node.
ConstHeader ConstHeaderOf(const tensorflow::NodeDef& node);

// From a node's deterministic serialisation (each field once, map entries sorted by key: a
// wire graph's canonical node), the same facts ConstHeaderOf gives of its parse. False when
// its tensor's bytes do not read as a TensorProto.
bool ReadConstHeader(std::string_view node_bytes, ConstHeader* header);

}  // namespace graphport::tfjs

#endif  // GRAPHPORT_TFJS_CONST_HEADER_H_

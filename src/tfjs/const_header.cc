#include "tfjs/const_header.h"

#include "proto/wire_reader.h"
#include "tf/field_numbers.h"
#include "tf/wire_tensor.h"
#include "tfjs/read_graph_model.h"

namespace graphport::tfjs {
namespace {

using proto::FindLengthDelimited;
using proto::ReadRecord;
using proto::Record;

bool ReadTensorHeader(std::string_view tensor, ConstHeader* header) {
  const auto* p = reinterpret_cast<const uint8_t*>(tensor.data());
  const uint8_t* end = p + tensor.size();
  Record r;
  for (; p < end; p = r.end) {
    if (!ReadRecord(p, end, &r)) return false;
    if (r.number == tf::fields::kTensorDtype && r.wire_type == 0) {
      // An enum is read as an int32, whatever its value: as a parse keeps an open enum's.
      header->dtype = static_cast<tensorflow::DataType>(static_cast<int32_t>(r.varint));
    } else if (r.number == tf::fields::kTensorShape && r.wire_type == 2) {
      if (!header->shape.ParseFromArray(r.value, static_cast<int>(r.length))) return false;
    } else if (r.number == tf::fields::kTensorContent && r.wire_type == 2) {
      header->content = r.view();
    }
  }
  return true;
}

}  // namespace

ConstHeader ConstHeaderOf(const tensorflow::NodeDef& node) {
  ConstHeader header;
  header.kept_codes = node.attr().count(kQuantizationAttr) != 0;
  auto value = node.attr().find("value");
  if (value == node.attr().end()) return header;
  const tensorflow::TensorProto& tensor = value->second.tensor();
  header.dtype = tensor.dtype();
  header.shape = tensor.tensor_shape();
  header.content = tensor.tensor_content();
  return header;
}

bool ReadConstHeader(std::string_view node_bytes, ConstHeader* header) {
  *header = ConstHeader();
  std::string_view ignored, value, tensor;
  header->kept_codes = tf::FindCanonicalAttr(node_bytes, kQuantizationAttr, &ignored);
  // Without the attr, or with a value that is not a tensor: a parse's default tensor.
  if (!tf::FindCanonicalAttr(node_bytes, "value", &value) ||
      !FindLengthDelimited(value, tf::fields::kAttrTensor, &tensor)) {
    return true;
  }
  return ReadTensorHeader(tensor, header);
}

}  // namespace graphport::tfjs

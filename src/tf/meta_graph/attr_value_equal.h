// TensorFlow's equality of attr values (AreAttrValuesEqual): what strip_default_attrs uses to
// decide that an attr holds its default.
#ifndef GRAPHPORT_TF_META_GRAPH_ATTR_VALUE_EQUAL_H_
#define GRAPHPORT_TF_META_GRAPH_ATTR_VALUE_EQUAL_H_

#include "tensorflow/attr_value.pb.h"
#include "tensorflow/tensor.pb.h"

namespace graphport::tf {

// Types compare directly; tensors compare by value (so float_val: 1 equals the same tensor
// written as tensor_content); functions by name and attrs; everything else by deterministic
// serialized bytes (so -0.0 differs from 0.0 and NaNs compare bitwise, as in TensorFlow).
bool AreAttrValuesEqual(const tensorflow::AttrValue& a, const tensorflow::AttrValue& b);

// Tensor equality by value: same dtype, same shape, same elements after expanding the typed
// value fields (a shorter list repeats its last value, TensorFlow's rule).
bool AreTensorsEqual(const tensorflow::TensorProto& a, const tensorflow::TensorProto& b);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_META_GRAPH_ATTR_VALUE_EQUAL_H_

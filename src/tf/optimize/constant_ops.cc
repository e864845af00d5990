#include "tf/optimize/constant_ops.h"

#include <cstring>

#include "tf/dtype.h"
#include "tf/optimize/graph_edit.h"

namespace graphport::tf {
namespace {

using tensorflow::NodeDef;

int64_t Product(const std::vector<int64_t>& dims, size_t from, size_t to) {
  int64_t n = 1;
  for (size_t i = from; i < to; ++i) n *= dims[i];
  return n;
}

// An axis in [-rank, rank) made non-negative; false when out of range.
bool NormalizeAxis(int64_t axis, int64_t rank, int64_t* out) {
  if (axis < -rank || axis >= rank) return false;
  *out = axis < 0 ? axis + rank : axis;
  return true;
}

// The one integer of a scalar (or one-element) int32/int64 tensor.
bool ScalarInteger(const DenseTensor& tensor, int64_t* out) {
  std::vector<int64_t> values;
  if (!IntegerValues(tensor, &values) || values.size() != 1) return false;
  *out = values[0];
  return true;
}

bool ExpandDims(const std::vector<DenseTensor>& in, DenseTensor* out) {
  int64_t dim, axis;
  if (in.size() != 2 || !ScalarInteger(in[1], &dim)) return false;
  int64_t rank = static_cast<int64_t>(in[0].shape.size());
  if (!NormalizeAxis(dim, rank + 1, &axis)) return false;
  *out = in[0];
  out->shape.insert(out->shape.begin() + axis, 1);
  return true;
}

bool Squeeze(const NodeDef& node, const std::vector<DenseTensor>& in, DenseTensor* out) {
  if (in.size() != 1) return false;
  int64_t rank = static_cast<int64_t>(in[0].shape.size());
  std::vector<bool> drop(rank, false);
  const tensorflow::AttrValue* dims = FindAttr(node, "squeeze_dims");
  if (dims == nullptr || dims->list().i_size() == 0) {
    for (int64_t i = 0; i < rank; ++i) drop[i] = in[0].shape[i] == 1;
  } else {
    for (int64_t d : dims->list().i()) {
      int64_t axis;
      if (!NormalizeAxis(d, rank, &axis) || in[0].shape[axis] != 1) return false;
      drop[axis] = true;
    }
  }
  *out = in[0];
  out->shape.clear();
  for (int64_t i = 0; i < rank; ++i) {
    if (!drop[i]) out->shape.push_back(in[0].shape[i]);
  }
  return true;
}

bool Reshape(const std::vector<DenseTensor>& in, DenseTensor* out) {
  std::vector<int64_t> shape;
  if (in.size() != 2 || !IntegerValues(in[1], &shape)) return false;
  int64_t known = 1;
  int unknown = -1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      if (unknown >= 0) return false;
      unknown = static_cast<int>(i);
    } else if (shape[i] < 0) {
      return false;
    } else {
      known *= shape[i];
    }
  }
  int64_t elements = in[0].elements();
  if (unknown >= 0) {
    if (known == 0 || elements % known != 0) return false;
    shape[unknown] = elements / known;
  } else if (known != elements) {
    return false;
  }
  *out = in[0];
  out->shape = shape;
  return true;
}

bool Transpose(const std::vector<DenseTensor>& in, DenseTensor* out) {
  std::vector<int64_t> perm;
  if (in.size() != 2 || !IntegerValues(in[1], &perm)) return false;
  const DenseTensor& x = in[0];
  size_t rank = x.shape.size();
  if (perm.size() != rank) return false;
  std::vector<bool> seen(rank, false);
  for (int64_t p : perm) {
    if (p < 0 || p >= static_cast<int64_t>(rank) || seen[p]) return false;
    seen[p] = true;
  }
  size_t size = DtypeBytes(x.dtype);
  out->dtype = x.dtype;
  out->shape.resize(rank);
  for (size_t i = 0; i < rank; ++i) out->shape[i] = x.shape[perm[i]];
  out->bytes.resize(x.bytes.size());
  // Input strides, then walk the output in order with an odometer over its index.
  std::vector<int64_t> stride(rank, 1);
  for (size_t i = rank; i-- > 1;) stride[i - 1] = stride[i] * x.shape[i];
  std::vector<int64_t> index(rank, 0);
  int64_t count = x.elements();
  for (int64_t o = 0; o < count; ++o) {
    int64_t source = 0;
    for (size_t i = 0; i < rank; ++i) source += index[i] * stride[perm[i]];
    std::memcpy(&out->bytes[o * size], &x.bytes[source * size], size);
    for (size_t i = rank; i-- > 0;) {
      if (++index[i] < out->shape[i]) break;
      index[i] = 0;
    }
  }
  return true;
}

// Joins `parts` along `axis`: every other dimension must agree, and so must the dtypes.
bool Concatenate(const std::vector<DenseTensor>& parts, int64_t axis_given, DenseTensor* out) {
  if (parts.empty()) return false;
  int64_t rank = static_cast<int64_t>(parts[0].shape.size());
  int64_t axis;
  if (!NormalizeAxis(axis_given, rank, &axis)) return false;
  out->dtype = parts[0].dtype;
  out->shape = parts[0].shape;
  out->shape[axis] = 0;
  for (const DenseTensor& p : parts) {
    if (p.dtype != out->dtype || static_cast<int64_t>(p.shape.size()) != rank) return false;
    for (int64_t i = 0; i < rank; ++i) {
      if (i != axis && p.shape[i] != parts[0].shape[i]) return false;
    }
    out->shape[axis] += p.shape[axis];
  }
  size_t size = DtypeBytes(out->dtype);
  int64_t outer = Product(out->shape, 0, axis);
  out->bytes.clear();
  out->bytes.reserve(static_cast<size_t>(out->elements()) * size);
  for (int64_t o = 0; o < outer; ++o) {
    for (const DenseTensor& p : parts) {
      size_t run = static_cast<size_t>(Product(p.shape, axis, p.shape.size())) * size;
      out->bytes.append(p.bytes, o * run, run);
    }
  }
  return true;
}

bool ConcatV2(const std::vector<DenseTensor>& in, DenseTensor* out) {
  int64_t axis;
  if (in.size() < 2 || !ScalarInteger(in.back(), &axis)) return false;
  return Concatenate(std::vector<DenseTensor>(in.begin(), in.end() - 1), axis, out);
}

bool Pack(const NodeDef& node, const std::vector<DenseTensor>& in, DenseTensor* out) {
  if (in.empty()) return false;
  const tensorflow::AttrValue* axis_attr = FindAttr(node, "axis");
  int64_t axis;
  int64_t rank = static_cast<int64_t>(in[0].shape.size());
  if (!NormalizeAxis(axis_attr == nullptr ? 0 : axis_attr->i(), rank + 1, &axis)) return false;
  std::vector<DenseTensor> parts = in;
  for (DenseTensor& p : parts) {
    if (static_cast<int64_t>(p.shape.size()) != rank) return false;
    p.shape.insert(p.shape.begin() + axis, 1);
  }
  return Concatenate(parts, axis, out);
}

bool Shape(const NodeDef& node, const std::vector<DenseTensor>& in, DenseTensor* out) {
  if (in.size() != 1) return false;
  const tensorflow::AttrValue* type = FindAttr(node, "out_type");
  bool wide = type != nullptr && type->type() == tensorflow::DT_INT64;
  out->dtype = wide ? tensorflow::DT_INT64 : tensorflow::DT_INT32;
  out->shape = {static_cast<int64_t>(in[0].shape.size())};
  out->bytes.clear();
  for (int64_t d : in[0].shape) {
    if (wide) {
      out->bytes.append(reinterpret_cast<const char*>(&d), 8);
    } else {
      if (d > INT32_MAX) return false;
      int32_t narrow = static_cast<int32_t>(d);
      out->bytes.append(reinterpret_cast<const char*>(&narrow), 4);
    }
  }
  return true;
}

}  // namespace

bool IsFoldableOp(const std::string& op) {
  return op == "ExpandDims" || op == "Squeeze" || op == "Reshape" || op == "Transpose" ||
         op == "ConcatV2" || op == "Pack" || op == "Shape";
}

bool EvaluateConstantOp(const NodeDef& node, const std::vector<DenseTensor>& inputs,
                        DenseTensor* out) {
  const std::string& op = node.op();
  if (op == "ExpandDims") return ExpandDims(inputs, out);
  if (op == "Squeeze") return Squeeze(node, inputs, out);
  if (op == "Reshape") return Reshape(inputs, out);
  if (op == "Transpose") return Transpose(inputs, out);
  if (op == "ConcatV2") return ConcatV2(inputs, out);
  if (op == "Pack") return Pack(node, inputs, out);
  if (op == "Shape") return Shape(node, inputs, out);
  return false;
}

}  // namespace graphport::tf

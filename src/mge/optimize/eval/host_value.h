// A tensor value on the host, as the reference evaluator computes with it: float dtypes hold
// their values as float (a Float16 value is exactly representable in float), integer dtypes
// and Bool as int32. Decoded from and encoded to the little-endian bytes of a model's tensor.
#ifndef GRAPHPORT_MGE_OPTIMIZE_EVAL_HOST_VALUE_H_
#define GRAPHPORT_MGE_OPTIMIZE_EVAL_HOST_VALUE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mge/schema/dtype_generated.h"

namespace graphport::mge::opt {

using Shape = std::vector<uint32_t>;

// DTypeEnum values the evaluator knows (dtype.fbs).
enum EvalDType : int {
  kF32 = mgb::serialization::fbs::DTypeEnum_Float32,
  kU8 = mgb::serialization::fbs::DTypeEnum_Uint8,
  kI8 = mgb::serialization::fbs::DTypeEnum_Int8,
  kI16 = mgb::serialization::fbs::DTypeEnum_Int16,
  kI32 = mgb::serialization::fbs::DTypeEnum_Int32,
  kF16 = mgb::serialization::fbs::DTypeEnum_Float16,
  kBool = mgb::serialization::fbs::DTypeEnum_Bool,
  kU16 = mgb::serialization::fbs::DTypeEnum_Uint16,
};

// Whether the evaluator can hold a value of `dtype`; its element size in bytes.
bool EvaluableDType(int dtype);
bool IsFloatDType(int dtype);
size_t DTypeSize(int dtype);

size_t ElementCount(const Shape& shape);

struct HostValue {
  int dtype = kF32;
  Shape shape;
  std::vector<float> f;    // IsFloatDType(dtype)
  std::vector<int32_t> i;  // otherwise

  bool is_float() const { return IsFloatDType(dtype); }
  // A placeholder that stands for a value of this shape without its elements: static shape
  // inference runs the shape operators' kernels on these, which then compute shapes only.
  bool shape_only() const { return size() != 0 && f.empty() && i.empty(); }
  size_t size() const { return ElementCount(shape); }
  // Element k as a float or as an int, whatever the dtype.
  float AsFloat(size_t k) const { return is_float() ? f[k] : static_cast<float>(i[k]); }
  int64_t AsInt(size_t k) const { return is_float() ? static_cast<int64_t>(f[k]) : i[k]; }

  static HostValue Floats(Shape shape, std::vector<float> values, int dtype = kF32);
  static HostValue Ints(Shape shape, std::vector<int32_t> values, int dtype = kI32);
};

// The value of `bytes` (contiguous, little-endian) of `dtype` and `shape`; nullopt when the
// dtype is not evaluable or the size does not match.
std::optional<HostValue> DecodeValue(int dtype, const Shape& shape, std::string_view bytes);
// The bytes MegEngine stores for the value (Float16 as IEEE half bits).
std::string EncodeValue(const HostValue& value);

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_EVAL_HOST_VALUE_H_

#include "mge/optimize/eval/host_value.h"

#include <cstring>

#include "mge/optimize/eval/half.h"

namespace graphport::mge::opt {

bool EvaluableDType(int dtype) { return DTypeSize(dtype) != 0; }

bool IsFloatDType(int dtype) { return dtype == kF32 || dtype == kF16; }

size_t DTypeSize(int dtype) {
  switch (dtype) {
    case kF32:
    case kI32:
      return 4;
    case kF16:
    case kI16:
    case kU16:
      return 2;
    case kU8:
    case kI8:
    case kBool:
      return 1;
    default:
      return 0;
  }
}

size_t ElementCount(const Shape& shape) {
  size_t n = 1;
  for (uint32_t d : shape) n *= d;
  return n;
}

HostValue HostValue::Floats(Shape shape, std::vector<float> values, int dtype) {
  return {dtype, std::move(shape), std::move(values), {}};
}

HostValue HostValue::Ints(Shape shape, std::vector<int32_t> values, int dtype) {
  return {dtype, std::move(shape), {}, std::move(values)};
}

std::optional<HostValue> DecodeValue(int dtype, const Shape& shape, std::string_view bytes) {
  const size_t width = DTypeSize(dtype);
  const size_t n = ElementCount(shape);
  if (width == 0 || bytes.size() != n * width) return std::nullopt;
  HostValue v;
  v.dtype = dtype;
  v.shape = shape;
  const char* p = bytes.data();
  if (dtype == kF32) {
    v.f.resize(n);
    std::memcpy(v.f.data(), p, n * 4);
  } else if (dtype == kF16) {
    v.f.resize(n);
    for (size_t k = 0; k < n; ++k) {
      uint16_t h;
      std::memcpy(&h, p + 2 * k, 2);
      v.f[k] = HalfBitsToFloat(h);
    }
  } else {
    v.i.resize(n);
    for (size_t k = 0; k < n; ++k) {
      switch (dtype) {
        case kI32:
          std::memcpy(&v.i[k], p + 4 * k, 4);
          break;
        case kI16: {
          int16_t x;
          std::memcpy(&x, p + 2 * k, 2);
          v.i[k] = x;
          break;
        }
        case kU16: {
          uint16_t x;
          std::memcpy(&x, p + 2 * k, 2);
          v.i[k] = x;
          break;
        }
        case kI8:
          v.i[k] = static_cast<int8_t>(p[k]);
          break;
        default:  // Uint8, Bool
          v.i[k] = static_cast<uint8_t>(p[k]);
          break;
      }
    }
  }
  return v;
}

std::string EncodeValue(const HostValue& v) {
  const size_t width = DTypeSize(v.dtype);
  const size_t n = v.size();
  std::string out(n * width, '\0');
  char* p = out.data();
  for (size_t k = 0; k < n; ++k) {
    switch (v.dtype) {
      case kF32:
        std::memcpy(p + 4 * k, &v.f[k], 4);
        break;
      case kF16: {
        uint16_t h = FloatToHalfBits(v.f[k]);
        std::memcpy(p + 2 * k, &h, 2);
        break;
      }
      case kI32:
        std::memcpy(p + 4 * k, &v.i[k], 4);
        break;
      case kI16:
      case kU16: {
        uint16_t x = static_cast<uint16_t>(v.i[k]);
        std::memcpy(p + 2 * k, &x, 2);
        break;
      }
      default:
        p[k] = static_cast<char>(static_cast<uint8_t>(v.i[k]));
        break;
    }
  }
  return out;
}

}  // namespace graphport::mge::opt

#include "tfjs/weight_values.h"

#include <cstring>
#include <vector>

#include "core/error.h"
#include "tfjs/dequantize.h"
#include "tfjs/float16.h"

namespace graphport::tfjs {
namespace {

template <typename T>
T Load(const std::string& bytes, uint64_t i) {
  T v;
  std::memcpy(&v, bytes.data() + i * sizeof(T), sizeof(T));
  return v;
}

template <typename T>
void Store(std::string* bytes, uint64_t i, T v) {
  std::memcpy(&(*bytes)[i * sizeof(T)], &v, sizeof(T));
}

// A float32 tensor in memory, to the TensorFlow dtype the Const had.
bool FloatsTo(std::string floats, uint64_t n, tensorflow::DataType dtype, std::string* out) {
  switch (dtype) {
    case tensorflow::DT_FLOAT:
      *out = std::move(floats);
      return true;
    case tensorflow::DT_DOUBLE:
      out->resize(n * 8);
      for (uint64_t i = 0; i < n; ++i) {
        Store<double>(out, i, static_cast<double>(Load<float>(floats, i)));
      }
      return true;
    case tensorflow::DT_HALF:
    case tensorflow::DT_BFLOAT16:
      out->resize(n * 2);
      for (uint64_t i = 0; i < n; ++i) {
        float f = Load<float>(floats, i);
        Store<uint16_t>(out, i, dtype == tensorflow::DT_HALF ? FloatToHalf(f) : FloatToBfloat16(f));
      }
      return true;
    default:
      return false;
  }
}

// An int32 tensor to the integer dtype the Const had, as NumPy's astype would cast it back.
bool IntsTo(std::string ints, uint64_t n, tensorflow::DataType dtype, std::string* out) {
  auto narrow = [&](auto type_tag) {
    using T = decltype(type_tag);
    out->resize(n * sizeof(T));
    for (uint64_t i = 0; i < n; ++i) Store<T>(out, i, static_cast<T>(Load<int32_t>(ints, i)));
  };
  switch (dtype) {
    case tensorflow::DT_INT32:
      *out = std::move(ints);
      return true;
    case tensorflow::DT_INT64:
      narrow(int64_t{});
      return true;
    case tensorflow::DT_UINT64:
      narrow(uint64_t{});
      return true;
    case tensorflow::DT_UINT32:
      narrow(uint32_t{});
      return true;
    case tensorflow::DT_INT16:
      narrow(int16_t{});
      return true;
    case tensorflow::DT_UINT16:
      narrow(uint16_t{});
      return true;
    case tensorflow::DT_INT8:
      narrow(int8_t{});
      return true;
    case tensorflow::DT_UINT8:
      narrow(uint8_t{});
      return true;
    default:
      return false;
  }
}

bool ComplexTo(std::string pairs, uint64_t n, tensorflow::DataType dtype, std::string* out) {
  if (dtype == tensorflow::DT_COMPLEX64) {
    *out = std::move(pairs);
    return true;
  }
  if (dtype != tensorflow::DT_COMPLEX128) return false;
  out->resize(n * 16);
  for (uint64_t i = 0; i < 2 * n; ++i) {
    Store<double>(out, i, static_cast<double>(Load<float>(pairs, i)));
  }
  return true;
}

void ReadStrings(ShardReader* shards, const WeightSpec& spec, tensorflow::TensorProto* tensor) {
  std::string length_bytes;
  for (uint64_t i = 0; i < spec.elements; ++i) {
    length_bytes.clear();
    shards->Read(4, spec, &length_bytes);
    uint32_t length = 0;
    for (int b = 3; b >= 0; --b) length = (length << 8) | static_cast<uint8_t>(length_bytes[b]);
    std::string* value = tensor != nullptr ? tensor->add_string_val() : &length_bytes;
    value->clear();
    shards->Read(length, spec, value);
  }
}

}  // namespace

tensorflow::DataType StoredCodeDtype(WeightDtype stored) {
  switch (stored) {
    case WeightDtype::kUint8:
      return tensorflow::DT_UINT8;
    case WeightDtype::kUint16:
      return tensorflow::DT_UINT16;
    default:
      return tensorflow::DT_HALF;
  }
}

void SkipWeight(ShardReader* shards, const WeightSpec& spec) {
  if (spec.stored_dtype() == WeightDtype::kString) {
    ReadStrings(shards, spec, nullptr);
    return;
  }
  std::string scratch;
  uint64_t left = spec.stored_bytes;
  while (left > 0) {
    uint64_t step = left < (uint64_t{1} << 24) ? left : (uint64_t{1} << 24);
    scratch.clear();
    shards->Read(step, spec, &scratch);
    left -= step;
  }
}

void ReadWeightValues(ShardReader* shards, const WeightSpec& spec, tensorflow::DataType const_dtype,
                      bool dequantize, const std::string& node, const std::string& model_json,
                      tensorflow::TensorProto* tensor) {
  auto mismatch = [&]() {
    ErrorLocation location;
    location.file = model_json;
    location.node = node;
    throw Error(ErrorCode::kParseError,
                model_json + ": weight '" + spec.name + "' is " + WeightDtypeName(spec.dtype) +
                    " in the manifest, which a Const of " + tensorflow::DataType_Name(const_dtype) +
                    " (node '" + node + "') cannot hold",
                location);
  };
  if (spec.dtype == WeightDtype::kString) {
    if (const_dtype != tensorflow::DT_STRING) mismatch();
    tensor->set_dtype(tensorflow::DT_STRING);
    ReadStrings(shards, spec, tensor);
    return;
  }
  std::string stored;
  shards->Read(spec.stored_bytes, spec, &stored);
  const uint64_t n = spec.elements;
  const Quantization& q = spec.quantization;

  if (q.present && !dequantize) {
    // Kept as codes, for a TF.js re-export that writes them back untouched.
    tensor->set_dtype(StoredCodeDtype(q.dtype));
    tensor->set_tensor_content(std::move(stored));
    return;
  }
  std::string logical;  // the weight as TF.js holds it: float32, int32, bool or complex64
  if (!q.present) {
    logical = std::move(stored);
  } else if (q.dtype == WeightDtype::kFloat16) {
    logical.resize(n * 4);
    for (uint64_t i = 0; i < n; ++i)
      Store<float>(&logical, i, HalfToFloat(Load<uint16_t>(stored, i)));
  } else {
    logical.resize(n * 4);
    for (uint64_t i = 0; i < n; ++i) {
      uint32_t code = q.dtype == WeightDtype::kUint8 ? static_cast<uint8_t>(stored[i])
                                                     : Load<uint16_t>(stored, i);
      if (spec.dtype == WeightDtype::kInt32) {
        Store<int32_t>(&logical, i, DequantizeAffineToInt32(code, q.scale, q.min));
      } else {
        Store<float>(&logical, i, DequantizeAffineToFloat(code, q.scale, q.min));
      }
    }
  }
  std::string content;
  bool ok = false;
  switch (spec.dtype) {
    case WeightDtype::kFloat32:
      ok = FloatsTo(std::move(logical), n, const_dtype, &content);
      break;
    case WeightDtype::kInt32:
      ok = IntsTo(std::move(logical), n, const_dtype, &content);
      break;
    case WeightDtype::kBool:
      ok = const_dtype == tensorflow::DT_BOOL;
      content = std::move(logical);
      break;
    case WeightDtype::kComplex64:
      ok = ComplexTo(std::move(logical), n, const_dtype, &content);
      break;
    default:
      break;
  }
  if (!ok) mismatch();
  tensor->set_dtype(const_dtype);
  tensor->set_tensor_content(std::move(content));
}

}  // namespace graphport::tfjs

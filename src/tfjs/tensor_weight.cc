#include "tfjs/tensor_weight.h"

#include <cstring>

#include "core/error.h"
#include "core/limits.h"
#include "tf/dtype.h"
#include "tfjs/float16.h"

namespace graphport::tfjs {
namespace {

using tensorflow::DataType;

[[noreturn]] void Fail(ErrorCode code, const std::string& node, const std::string& what) {
  ErrorLocation location;
  location.node = node;
  throw Error(code, "Const node '" + node + "': " + what, location);
}

template <typename T>
void Put(std::string* out, uint64_t i, T v) {
  std::memcpy(&(*out)[i * sizeof(T)], &v, sizeof v);
}

template <typename T>
T Get(const std::string& in, uint64_t i) {
  T v;
  std::memcpy(&v, in.data() + i * sizeof(T), sizeof v);
  return v;
}

// Element i of the tensor as a double / int64 / pair, from tensor_content (`raw`) or the
// typed field (`count` values, the last repeated).
class Elements {
 public:
  Elements(const tensorflow::TensorProto& t, uint64_t n, const std::string& node)
      : t_(t), raw_(!t.tensor_content().empty()) {
    uint64_t width = tf::DtypeBytes(t.dtype());
    if (raw_) {
      if (t.tensor_content().size() != n * width) {
        Fail(ErrorCode::kParseError, node,
             "tensor_content has " + std::to_string(t.tensor_content().size()) +
                 " bytes, its shape needs " + std::to_string(n * width));
      }
      return;
    }
    count_ = TypedCount();
    if (count_ > n * (IsComplex() ? 2 : 1)) {
      Fail(ErrorCode::kParseError, node, "holds more values than its shape has elements");
    }
  }

  double Float(uint64_t i) const {
    switch (t_.dtype()) {
      case tensorflow::DT_FLOAT:
        return raw_ ? Get<float>(t_.tensor_content(), i) : Pick(t_.float_val(), i, 0.0f);
      case tensorflow::DT_DOUBLE:
        return raw_ ? Get<double>(t_.tensor_content(), i) : Pick(t_.double_val(), i, 0.0);
      case tensorflow::DT_HALF:
        return HalfToFloat(raw_ ? Get<uint16_t>(t_.tensor_content(), i)
                                : static_cast<uint16_t>(Pick(t_.half_val(), i, 0)));
      case tensorflow::DT_BFLOAT16:
        return Bfloat16ToFloat(raw_ ? Get<uint16_t>(t_.tensor_content(), i)
                                    : static_cast<uint16_t>(Pick(t_.half_val(), i, 0)));
      default:
        return 0;
    }
  }

  int64_t Int(uint64_t i) const {
    const std::string& c = t_.tensor_content();
    switch (t_.dtype()) {
      case tensorflow::DT_INT32:
        return raw_ ? Get<int32_t>(c, i) : Pick(t_.int_val(), i, 0);
      case tensorflow::DT_INT16:
        return raw_ ? Get<int16_t>(c, i) : Pick(t_.int_val(), i, 0);
      case tensorflow::DT_UINT16:
        return raw_ ? Get<uint16_t>(c, i) : Pick(t_.int_val(), i, 0);
      case tensorflow::DT_INT8:
        return raw_ ? Get<int8_t>(c, i) : Pick(t_.int_val(), i, 0);
      case tensorflow::DT_UINT8:
        return raw_ ? Get<uint8_t>(c, i) : Pick(t_.int_val(), i, 0);
      case tensorflow::DT_INT64:
        return raw_ ? Get<int64_t>(c, i) : Pick(t_.int64_val(), i, int64_t{0});
      case tensorflow::DT_UINT32:
        return raw_ ? Get<uint32_t>(c, i) : Pick(t_.uint32_val(), i, 0u);
      case tensorflow::DT_UINT64:
        return static_cast<int64_t>(raw_ ? Get<uint64_t>(c, i)
                                         : Pick(t_.uint64_val(), i, uint64_t{0}));
      case tensorflow::DT_BOOL:
        return raw_ ? static_cast<uint8_t>(c[i]) : Pick(t_.bool_val(), i, false);
      default:
        return 0;
    }
  }

  // Component i (2 per element) of a complex tensor.
  double Component(uint64_t i) const {
    if (t_.dtype() == tensorflow::DT_COMPLEX64) {
      return raw_ ? Get<float>(t_.tensor_content(), i) : PickPair(t_.scomplex_val(), i);
    }
    return raw_ ? Get<double>(t_.tensor_content(), i) : PickPair(t_.dcomplex_val(), i);
  }

 private:
  bool IsComplex() const {
    return t_.dtype() == tensorflow::DT_COMPLEX64 || t_.dtype() == tensorflow::DT_COMPLEX128;
  }
  uint64_t TypedCount() const {
    switch (t_.dtype()) {
      case tensorflow::DT_FLOAT:
        return t_.float_val_size();
      case tensorflow::DT_DOUBLE:
        return t_.double_val_size();
      case tensorflow::DT_HALF:
      case tensorflow::DT_BFLOAT16:
        return t_.half_val_size();
      case tensorflow::DT_INT64:
        return t_.int64_val_size();
      case tensorflow::DT_UINT32:
        return t_.uint32_val_size();
      case tensorflow::DT_UINT64:
        return t_.uint64_val_size();
      case tensorflow::DT_BOOL:
        return t_.bool_val_size();
      case tensorflow::DT_COMPLEX64:
        return t_.scomplex_val_size();
      case tensorflow::DT_COMPLEX128:
        return t_.dcomplex_val_size();
      case tensorflow::DT_STRING:
        return t_.string_val_size();
      default:
        return t_.int_val_size();
    }
  }
  template <typename F, typename T>
  static T Pick(const F& field, uint64_t i, T zero) {
    if (field.size() == 0) return zero;
    return i < static_cast<uint64_t>(field.size()) ? field.Get(static_cast<int>(i))
                                                   : field.Get(field.size() - 1);
  }
  // Complex values repeat as whole pairs.
  template <typename F>
  static double PickPair(const F& field, uint64_t i) {
    if (field.size() < 2) return 0;
    uint64_t pairs = field.size() / 2;
    uint64_t element = i / 2;
    if (element >= pairs) element = pairs - 1;
    return field.Get(static_cast<int>(element * 2 + i % 2));
  }

  const tensorflow::TensorProto& t_;
  bool raw_;
  uint64_t count_ = 0;
};

}  // namespace

bool ManifestDtypeFor(DataType dtype, WeightDtype* out) {
  switch (dtype) {
    case tensorflow::DT_FLOAT:
    case tensorflow::DT_DOUBLE:
    case tensorflow::DT_HALF:
    case tensorflow::DT_BFLOAT16:
      *out = WeightDtype::kFloat32;
      return true;
    case tensorflow::DT_INT32:
    case tensorflow::DT_INT64:
    case tensorflow::DT_INT16:
    case tensorflow::DT_UINT16:
    case tensorflow::DT_INT8:
    case tensorflow::DT_UINT8:
    case tensorflow::DT_UINT32:
    case tensorflow::DT_UINT64:
      *out = WeightDtype::kInt32;
      return true;
    case tensorflow::DT_BOOL:
      *out = WeightDtype::kBool;
      return true;
    case tensorflow::DT_STRING:
      *out = WeightDtype::kString;
      return true;
    case tensorflow::DT_COMPLEX64:
    case tensorflow::DT_COMPLEX128:
      *out = WeightDtype::kComplex64;
      return true;
    default:
      return false;
  }
}

WeightData TensorToWeight(const tensorflow::TensorProto& tensor, const std::string& node) {
  WeightData out;
  if (!ManifestDtypeFor(tensor.dtype(), &out.dtype)) {
    Fail(ErrorCode::kUnsupported, node,
         "TensorFlow.js has no weight dtype for " + tensorflow::DataType_Name(tensor.dtype()));
  }
  int64_t n = tf::ElementCount(tensor.tensor_shape());
  if (n < 0) Fail(ErrorCode::kParseError, node, "its shape is not fully defined");
  out.elements = static_cast<uint64_t>(n);
  if (out.dtype == WeightDtype::kString) {
    if (static_cast<uint64_t>(tensor.string_val_size()) > out.elements) {
      Fail(ErrorCode::kParseError, node, "holds more strings than its shape has elements");
    }
    if (out.elements > 0 && tensor.string_val_size() == 0) {
      out.strings.assign(out.elements, std::string());
    } else {
      out.strings.assign(tensor.string_val().begin(), tensor.string_val().end());
      // Repeating the last string: bounded like any other expansion.
      uint64_t extra = (out.elements - out.strings.size()) *
                       (out.strings.empty() ? 0 : out.strings.back().size() + 4);
      if (extra > kMaxProtoBytes) Fail(ErrorCode::kTooLarge, node, "expands to over 2 GiB");
      while (out.strings.size() < out.elements) out.strings.push_back(out.strings.back());
    }
    return out;
  }
  uint64_t width = WeightDtypeBytes(out.dtype);
  if (out.elements > kMaxProtoBytes / width) {
    Fail(ErrorCode::kTooLarge, node, "holds over 2 GiB of values");
  }
  Elements e(tensor, out.elements, node);
  // The common case needs no conversion: hand the bytes over as they are.
  if (std::optional<WeightData> as_is =
          ContentAsWeight(tensor.dtype(), tensor.tensor_shape(), tensor.tensor_content())) {
    return *as_is;
  }
  out.converted.assign(out.elements * width, '\0');
  for (uint64_t i = 0; i < out.elements; ++i) {
    switch (out.dtype) {
      case WeightDtype::kFloat32:
        Put<float>(&out.converted, i, static_cast<float>(e.Float(i)));
        break;
      case WeightDtype::kInt32:
        // NumPy's astype(int32): the low 32 bits.
        Put<int32_t>(&out.converted, i, static_cast<int32_t>(static_cast<uint32_t>(e.Int(i))));
        break;
      case WeightDtype::kBool:
        out.converted[i] = e.Int(i) != 0 ? 1 : 0;
        break;
      default:
        Put<float>(&out.converted, 2 * i, static_cast<float>(e.Component(2 * i)));
        Put<float>(&out.converted, 2 * i + 1, static_cast<float>(e.Component(2 * i + 1)));
        break;
    }
  }
  return out;
}

std::optional<WeightData> ContentAsWeight(DataType dtype, const tensorflow::TensorShapeProto& shape,
                                          std::string_view content) {
  WeightData out;
  if (content.empty() || !ManifestDtypeFor(dtype, &out.dtype)) return std::nullopt;
  const DataType stored = out.dtype == WeightDtype::kFloat32     ? tensorflow::DT_FLOAT
                          : out.dtype == WeightDtype::kInt32     ? tensorflow::DT_INT32
                          : out.dtype == WeightDtype::kBool      ? tensorflow::DT_BOOL
                          : out.dtype == WeightDtype::kComplex64 ? tensorflow::DT_COMPLEX64
                                                                 : tensorflow::DT_INVALID;
  if (dtype != stored) return std::nullopt;
  const int64_t n = tf::ElementCount(shape);
  const uint64_t width = WeightDtypeBytes(out.dtype);
  if (n < 0 || static_cast<uint64_t>(n) > kMaxProtoBytes / width ||
      content.size() != static_cast<uint64_t>(n) * width) {
    return std::nullopt;
  }
  out.elements = static_cast<uint64_t>(n);
  out.content = content;
  return out;
}

uint64_t StoredSize(const WeightData& data) {
  if (data.dtype != WeightDtype::kString) return data.bytes().size();
  uint64_t total = 0;
  for (const std::string& s : data.strings) total += 4 + s.size();
  return total;
}

}  // namespace graphport::tfjs

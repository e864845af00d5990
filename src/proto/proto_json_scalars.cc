#include "proto/proto_json_scalars.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <type_traits>

namespace graphport::proto {
namespace {

using nlohmann::json;

enum class Decimal { kOk, kMalformed, kTooBig };

// An integer in decimal: optional sign, then digits only. The magnitude is kept apart from the
// sign so that both ends of int64 and all of uint64 fit without overflow.
Decimal ParseDecimal(std::string_view text, bool* negative, uint64_t* magnitude) {
  size_t i = 0;
  *negative = false;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    *negative = text[0] == '-';
    i = 1;
  }
  if (i == text.size()) return Decimal::kMalformed;
  uint64_t m = 0;
  bool too_big = false;
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (c < '0' || c > '9') return Decimal::kMalformed;
    uint64_t digit = static_cast<uint64_t>(c - '0');
    if (m > (std::numeric_limits<uint64_t>::max() - digit) / 10) too_big = true;
    m = m * 10 + digit;
  }
  *magnitude = m;
  return too_big ? Decimal::kTooBig : Decimal::kOk;
}

std::string OutOfRange(const std::string& shown, const char* type) {
  return shown + " is out of range for " + type;
}

// `type` names the protobuf type with its article ("an int32"); the bare name follows it.
const char* BareName(const char* type) { return std::strchr(type, ' ') + 1; }

template <typename T>
std::string FromMagnitude(bool negative, uint64_t magnitude, const std::string& shown, T* out,
                          const char* type) {
  constexpr uint64_t kMax = static_cast<uint64_t>(std::numeric_limits<T>::max());
  if (!negative) {
    if (magnitude > kMax) return OutOfRange(shown, BareName(type));
    *out = static_cast<T>(magnitude);
    return {};
  }
  // libprotobuf takes "-0" for signed types only; so do we.
  if (!std::is_signed_v<T> || magnitude > kMax + 1) return OutOfRange(shown, BareName(type));
  if (magnitude == 0) {
    *out = 0;
    return {};
  }
  // -(m - 1) - 1 reaches the type's minimum without overflowing on the way.
  *out = static_cast<T>(-static_cast<int64_t>(magnitude - 1) - 1);
  return {};
}

std::string Expected(const char* type, const char* forms, const json& value) {
  return std::string("expected ") + type + " (" + forms + "), got " + JsonForMessage(value);
}

template <typename T>
std::string KeyToInteger(std::string_view key, T* out, const char* type) {
  bool negative = false;
  uint64_t magnitude = 0;
  std::string shown = "\"" + std::string(key) + "\"";
  switch (ParseDecimal(key, &negative, &magnitude)) {
    case Decimal::kOk:
      return FromMagnitude(negative, magnitude, shown, out, type);
    case Decimal::kTooBig:
      return OutOfRange(shown, BareName(type));
    case Decimal::kMalformed:
      break;
  }
  return std::string("expected ") + type + " in decimal, got " + shown;
}

template <typename T>
std::string JsonToInteger(const json& value, T* out, const char* type) {
  switch (value.type()) {
    case json::value_t::number_unsigned:
      return FromMagnitude(false, value.get<uint64_t>(), value.dump(), out, type);
    case json::value_t::number_integer: {
      int64_t v = value.get<int64_t>();
      uint64_t magnitude = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
      return FromMagnitude(v < 0, magnitude, value.dump(), out, type);
    }
    case json::value_t::number_float: {
      // A whole number written with a fraction or an exponent (JSON has no integer type, so
      // 1e2 and 3.0 are fine); anything with a fractional part would be truncated.
      double d = value.get<double>();
      if (!std::isfinite(d) || std::trunc(d) != d) break;
      // The range is [-2^digits, 2^digits) for signed types and [0, 2^digits) for unsigned,
      // bounds a double holds exactly.
      double limit = std::ldexp(1.0, std::numeric_limits<T>::digits);
      double low = std::is_signed_v<T> ? -limit : 0.0;
      if (d < low || d >= limit) return OutOfRange(value.dump(), BareName(type));
      *out = static_cast<T>(d);
      return {};
    }
    case json::value_t::string: {
      const std::string& text = value.get_ref<const std::string&>();
      bool negative = false;
      uint64_t magnitude = 0;
      switch (ParseDecimal(text, &negative, &magnitude)) {
        case Decimal::kOk:
          return FromMagnitude(negative, magnitude, JsonForMessage(value), out, type);
        case Decimal::kTooBig:
          return OutOfRange(JsonForMessage(value), BareName(type));
        case Decimal::kMalformed:
          break;
      }
      break;
    }
    default:
      break;
  }
  return Expected(type, "a whole number or a decimal string", value);
}

// A decimal number in a string ("1.5", "-2e-3"). strtod alone would also take hex, "inf",
// "nan" and leading spaces, which the JSON mapping does not allow.
bool StringToDouble(const std::string& text, double* out) {
  if (text.empty() || text.find_first_not_of("0123456789+-.eE") != std::string::npos) {
    return false;
  }
  char* end = nullptr;
  *out = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size();
}

// A JSON number or one of the strings the mapping allows, as a double; `type` ("a double",
// "a float") is what the error messages call it.
std::string JsonToFloating(const json& value, double* out, const char* type) {
  constexpr char kForms[] = "a number, \"NaN\", \"Infinity\" or \"-Infinity\"";
  double d = 0;
  if (value.is_number()) {
    // A parser may have turned an overlong literal (1e400) into infinity.
    d = value.get<double>();
    if (!std::isfinite(d)) return OutOfRange(JsonForMessage(value), BareName(type));
  } else if (value.is_string()) {
    const std::string& text = value.get_ref<const std::string&>();
    if (text == "NaN") {
      d = std::numeric_limits<double>::quiet_NaN();
    } else if (text == "Infinity") {
      d = std::numeric_limits<double>::infinity();
    } else if (text == "-Infinity") {
      d = -std::numeric_limits<double>::infinity();
    } else if (!StringToDouble(text, &d)) {
      return Expected(type, kForms, value);
    } else if (!std::isfinite(d)) {
      return OutOfRange(JsonForMessage(value), BareName(type));
    }
  } else {
    return Expected(type, kForms, value);
  }
  *out = d;
  return {};
}

}  // namespace

std::string JsonToScalar(const json& value, int32_t* out) {
  return JsonToInteger(value, out, "an int32");
}
std::string JsonToScalar(const json& value, int64_t* out) {
  return JsonToInteger(value, out, "an int64");
}
std::string JsonToScalar(const json& value, uint32_t* out) {
  return JsonToInteger(value, out, "a uint32");
}
std::string JsonToScalar(const json& value, uint64_t* out) {
  return JsonToInteger(value, out, "a uint64");
}

std::string KeyToScalar(std::string_view key, int32_t* out) {
  return KeyToInteger(key, out, "an int32");
}
std::string KeyToScalar(std::string_view key, int64_t* out) {
  return KeyToInteger(key, out, "an int64");
}
std::string KeyToScalar(std::string_view key, uint32_t* out) {
  return KeyToInteger(key, out, "a uint32");
}
std::string KeyToScalar(std::string_view key, uint64_t* out) {
  return KeyToInteger(key, out, "a uint64");
}

std::string JsonToScalar(const json& value, double* out) {
  return JsonToFloating(value, out, "a double");
}

std::string JsonToScalar(const json& value, float* out) {
  double d = 0;
  std::string error = JsonToFloating(value, &d, "a float");
  if (!error.empty()) return error;
  constexpr double kMax = std::numeric_limits<float>::max();
  if (std::isfinite(d) && std::fabs(d) > kMax) {
    // The shortest decimal that names FLT_MAX (3.4028235e38, as protobuf prints it) is a bit
    // above it; anything that still rounds to FLT_MAX rather than to infinity is FLT_MAX.
    // Halfway is 2^128 - 2^103, and a tie rounds to infinity (FLT_MAX's mantissa is odd).
    const double kHalfway = std::ldexp(1.0, 128) - std::ldexp(1.0, 103);
    if (std::fabs(d) >= kHalfway) return OutOfRange(JsonForMessage(value), "float");
    *out = d < 0 ? -std::numeric_limits<float>::max() : std::numeric_limits<float>::max();
    return {};
  }
  *out = static_cast<float>(d);
  return {};
}

std::string JsonToScalar(const json& value, bool* out) {
  if (value.is_boolean()) {
    *out = value.get<bool>();
    return {};
  }
  if (value.is_string()) return KeyToScalar(value.get_ref<const std::string&>(), out);
  return Expected("a bool", "true or false", value);
}

std::string KeyToScalar(std::string_view key, bool* out) {
  if (key == "true" || key == "false") {
    *out = key == "true";
    return {};
  }
  return "expected a bool (true or false), got \"" + std::string(key) + "\"";
}

std::string JsonForMessage(const json& value) {
  constexpr size_t kShown = 60;
  std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
  if (text.size() > kShown) text = text.substr(0, kShown) + "...";
  return text;
}

}  // namespace graphport::proto

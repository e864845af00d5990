#include "proto/text_numbers.h"

#include <clocale>
#include <cstdlib>
#include <limits>

namespace graphport::proto {

bool ParseTextInteger(const std::string& text, uint64_t max, uint64_t* out) {
  const char* p = text.c_str();
  uint64_t base = 10;
  if (p[0] == '0') {
    if (p[1] == 'x' || p[1] == 'X') {
      base = 16;
      p += 2;
    } else {
      base = 8;
    }
  }
  const uint64_t overflow_at = std::numeric_limits<uint64_t>::max() / base + 1;
  uint64_t value = 0;
  for (; *p != '\0'; ++p) {
    const char c = *p;
    const uint64_t digit =
        c <= '9' ? static_cast<uint64_t>(c - '0') : static_cast<uint64_t>((c | 0x20) - 'a' + 10);
    if (digit >= base || value >= overflow_at) return false;
    value = value * base + digit;
    if (value < digit) return false;  // wrapped around
  }
  if (value > max) return false;
  *out = value;
  return true;
}

double ParseTextFloat(const std::string& text) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (*end != '.') return value;
  const char* radix = std::localeconv()->decimal_point;
  std::string localized(text.c_str(), static_cast<size_t>(end - text.c_str()));
  localized += radix != nullptr ? radix : ".";
  localized += end + 1;
  return std::strtod(localized.c_str(), nullptr);
}

float TextDoubleToFloat(double value) {
  constexpr double kMaxFloatRounded = 3.4028235677973366e+38;
  constexpr double kMax = std::numeric_limits<float>::max();
  if (value > kMax) {
    return value <= kMaxFloatRounded ? std::numeric_limits<float>::max()
                                     : std::numeric_limits<float>::infinity();
  }
  if (value < -kMax) {
    return value >= -kMaxFloatRounded ? -std::numeric_limits<float>::max()
                                      : -std::numeric_limits<float>::infinity();
  }
  return static_cast<float>(value);
}

bool IsHexOrOctalText(const std::string& text) {
  return text.size() > 1 && text[0] == '0' &&
         (text[1] == 'x' || text[1] == 'X' || (text[1] >= '0' && text[1] <= '7'));
}

}  // namespace graphport::proto

#include "tfjs/quantize.h"

#include <algorithm>
#include <cmath>

namespace graphport::tfjs {

AffineQuantized QuantizeAffine(const float* values, size_t count, uint32_t qmax) {
  AffineQuantized out;
  auto [lo, hi] = std::minmax_element(values, values + count);
  double min = *lo, max = *hi;
  out.codes.assign(count, 0);
  if (min == max) {
    out.scale = 1.0;
    out.min = min;
    return out;
  }
  double scale = (max - min) / qmax;
  double nudged_min = min, nudged_max = max;
  if (min <= 0 && 0 <= max) {
    double zero_point = std::nearbyint((0 - min) / scale);  // ties to even
    nudged_min = -zero_point * scale;
    nudged_max = qmax * scale + nudged_min;
  }
  for (size_t i = 0; i < count; ++i) {
    double x = std::clamp(static_cast<double>(values[i]), nudged_min, nudged_max);
    out.codes[i] = static_cast<uint16_t>(std::nearbyint((x - nudged_min) / scale));
  }
  out.scale = scale;
  out.min = nudged_min;
  return out;
}

namespace {

// Matches a class starting after '[' at pattern[p]; sets *end past ']'. A '[' without a
// closing ']' is a literal, as in Python.
bool MatchClass(const std::string& pattern, size_t p, char c, size_t* end, bool* matched) {
  size_t i = p;
  bool negate = i < pattern.size() && pattern[i] == '!';
  if (negate) ++i;
  size_t first = i;
  bool found = false;
  while (i < pattern.size() && (pattern[i] != ']' || i == first)) {
    if (i + 2 < pattern.size() && pattern[i + 1] == '-' && pattern[i + 2] != ']') {
      if (pattern[i] <= c && c <= pattern[i + 2]) found = true;
      i += 3;
    } else {
      if (pattern[i] == c) found = true;
      ++i;
    }
  }
  if (i >= pattern.size()) return false;
  *end = i + 1;
  *matched = found != negate;
  return true;
}

}  // namespace

bool FnMatch(const std::string& pattern, const std::string& name) {
  // Iterative glob matching with one backtrack point for the last '*'.
  size_t p = 0, n = 0, star = std::string::npos, star_n = 0;
  while (n < name.size()) {
    if (p < pattern.size()) {
      char c = pattern[p];
      if (c == '*') {
        star = p++;
        star_n = n;
        continue;
      }
      if (c == '?') {
        ++p;
        ++n;
        continue;
      }
      if (c == '[') {
        size_t end;
        bool matched;
        if (MatchClass(pattern, p + 1, name[n], &end, &matched)) {
          if (matched) {
            p = end;
            ++n;
            continue;
          }
        } else if (name[n] == '[') {
          ++p;
          ++n;
          continue;
        }
      } else if (c == name[n]) {
        ++p;
        ++n;
        continue;
      }
    }
    if (star == std::string::npos) return false;
    p = star + 1;
    n = ++star_n;
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

}  // namespace graphport::tfjs

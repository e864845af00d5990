// 64-bit integers in the JSON graphport hands to JavaScript: JSON.parse reads every number as
// a double, which holds integers exactly only up to Number.MAX_SAFE_INTEGER (2^53 - 1). So a
// 64-bit value beyond +-(2^53 - 1) is written as its decimal string, every other one as a
// number (the rule bindings/js/index.d.ts documents for MegEngine params and the metadata's
// optimize_options).
#ifndef GRAPHPORT_MGE_JSON_INT64_H_
#define GRAPHPORT_MGE_JSON_INT64_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace graphport::mge {

inline constexpr uint64_t kMaxSafeInteger = (uint64_t{1} << 53) - 1;

inline nlohmann::json JsonUint64(uint64_t v) {
  if (v > kMaxSafeInteger) return std::to_string(v);
  return v;
}

inline nlohmann::json JsonInt64(int64_t v) {
  const uint64_t magnitude = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  if (magnitude > kMaxSafeInteger) return std::to_string(v);
  return v;
}

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_JSON_INT64_H_

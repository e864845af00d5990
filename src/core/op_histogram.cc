#include "core/op_histogram.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace graphport {
namespace {

// How many ops a summary lists before it says how many more there are.
constexpr size_t kTopOps = 12;

}  // namespace

std::string OpHistogramText(const nlohmann::json& counts, const char* more) {
  std::vector<std::pair<uint64_t, std::string>> ops;
  for (const auto& [op, count] : counts.items()) ops.emplace_back(count.get<uint64_t>(), op);
  std::stable_sort(ops.begin(), ops.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  std::string out;
  for (size_t i = 0; i < ops.size() && i < kTopOps; ++i) {
    const std::string& op = ops[i].second;
    // Names up to 27 characters line their counts up in one column.
    out += "  " + op + std::string(op.size() < 28 ? 28 - op.size() : 1, ' ') +
           std::to_string(ops[i].first) + "\n";
  }
  if (ops.size() > kTopOps) {
    out += "  ... " + std::to_string(ops.size() - kTopOps) + " more" + more + "\n";
  }
  return out;
}

}  // namespace graphport

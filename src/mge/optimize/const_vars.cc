#include "mge/optimize/const_vars.h"

#include <algorithm>
#include <string_view>

namespace graphport::mge::opt {
bool IsParamSource(std::string_view key) {
  return key == "SharedDeviceTensor" || key == "MultipleDeviceTensorHolder";
}

bool IsConstSource(std::string_view key) { return key == "ImmutableTensor" || IsParamSource(key); }

bool IsImpure(std::string_view key) {
  return key.find("RNG") != std::string_view::npos || key.find("Rng") != std::string_view::npos ||
         key == "Dropout";
}

bool ConstVars::operator()(VarRef v) const {
  if (v.node >= g_.size()) return false;
  while (is_const_.size() <= v.node) {
    const uint32_t node = static_cast<uint32_t>(is_const_.size());
    const OptNode& n = g_.node(node);
    const std::string_view key = g_.Key(node);
    bool c = IsConstSource(key);
    // The inputs first: the name search for impure classes is for the few all-const ones.
    if (!c && !n.inputs.empty() && n.cls() != nullptr) {
      c = std::all_of(
              n.inputs.begin(), n.inputs.end(),
              [&](const VarRef& r) { return r.node < is_const_.size() && is_const_[r.node]; }) &&
          !IsImpure(key);
    }
    is_const_.push_back(c);
  }
  return is_const_[v.node];
}

bool ConstVars::Computed(VarRef v) const { return (*this)(v) && !g_.node(v.node).inputs.empty(); }

}  // namespace graphport::mge::opt

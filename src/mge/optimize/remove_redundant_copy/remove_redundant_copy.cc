#include "mge/optimize/remove_redundant_copy/remove_redundant_copy.h"

#include <cctype>

#include "mge/optimize/rewriter.h"

namespace graphport::mge::opt {
namespace {

enum class Device { kCpu, kCuda, kAtlas, kOther };

struct CompNode {
  Device device = Device::kOther;
  std::string number;  // the device number, which names a GPU's memory
};

CompNode Parse(const std::optional<std::string>& locator) {
  CompNode cn;
  if (!locator) return cn;
  const std::string& s = *locator;
  auto starts = [&](const char* p) { return s.rfind(p, 0) == 0; };
  size_t prefix = 0;
  if (starts("cpu") || starts("xpu") || starts("multithread")) {
    cn.device = Device::kCpu;
    prefix = starts("multithread") ? 11 : 3;
  } else if (starts("gpu") || starts("cuda")) {
    cn.device = Device::kCuda;
    prefix = starts("gpu") ? 3 : 4;
  } else if (starts("atlas")) {
    cn.device = Device::kAtlas;
    prefix = 5;
  }
  for (size_t i = prefix; i < s.size() && std::isalnum(static_cast<unsigned char>(s[i])); ++i) {
    cn.number += s[i];
  }
  return cn;
}

// MegEngine's should_remove: the same memory, or a CPU and a CUDA / Atlas device.
bool DirectCopy(const CompNode& a, const CompNode& b) {
  const bool same_memory =
      (a.device == Device::kCpu && b.device == Device::kCpu) ||
      (a.device != Device::kOther && a.device == b.device && a.number == b.number);
  auto accel = [](const CompNode& c) {
    return c.device == Device::kCuda || c.device == Device::kAtlas;
  };
  return same_memory || (a.device == Device::kCpu && accel(b)) ||
         (b.device == Device::kCpu && accel(a));
}

}  // namespace

PassReport RemoveRedundantCopy(OptGraph* g) {
  if (!g->Holds("Copy")) return {"RemoveRedundantCopy", false, ""};  // nothing to rewrite
  Rewriter rw(g);
  uint32_t removed = 0;
  rw.ForEachOperator([&](uint32_t node) {
    if (g->Key(node) == "Copy" && g->node(node).inputs.size() == 1) {
      const VarRef inner = rw.Get(g->node(node).inputs[0]);
      if (g->Key(inner.node) == "Copy" && g->node(inner.node).inputs.size() == 1) {
        const VarRef x = g->node(inner.node).inputs[0];
        const std::optional<std::string> from = g->LocatorOf(x);
        const std::optional<std::string> to = g->LocatorOf({node, 0});
        if (DirectCopy(Parse(from), Parse(to))) {
          const VarRef folded =
              from == to ? x : VarRef{rw.maker().Copy(node, {x}, /*keep_var_names=*/false), 0};
          rw.Replace({node, 0}, folded);
          ++removed;
          return;
        }
      }
    }
    rw.AutoReplaceOutputs(node);
  });
  rw.Apply();
  PassReport report{"RemoveRedundantCopy", removed != 0, ""};
  if (removed) report.summary = std::to_string(removed) + " Copy of a Copy removed";
  return report;
}

}  // namespace graphport::mge::opt

#include "mge/optimize/fuse_preprocess/fuse_preprocess.h"

#include "core/error.h"
#include "mge/dtype.h"
#include "mge/optimize/schema_numbers.h"
#include "mge/schema/dtype_generated.h"

namespace graphport::mge::opt {
namespace {

[[noreturn]] void Refuse(const OptGraph& g, uint32_t node, const std::string& what) {
  ErrorLocation where;
  where.option = "enableFusePreprocess";
  where.opr = g.node(node).op().name.value_or("#" + std::to_string(node));
  throw Error(ErrorCode::kUnsupported,
              "enable_fuse_preprocess (enableFusePreprocess): the graph has " + what +
                  ", which FuseNCHW4Int8Preprocess / FuseWarpPerspectiveDimshuffle may fuse; "
                  "graphport does not implement those fusions",
              where);
}

}  // namespace

PassReport FusePreprocess(OptGraph* g) {
  for (uint32_t node : g->TopoOrder()) {
    const std::string_view key = g->Key(node);
    if (key == "WarpPerspective") Refuse(*g, node, "a WarpPerspective");
    if (key == "TypeCvt") {
      const Operator& op = g->node(node).op();
      const auto* dtype =
          op.params.empty() || op.params[0].table == nullptr
              ? nullptr
              : reinterpret_cast<const mgb::serialization::fbs::DType*>(op.params[0].table);
      if (dtype != nullptr && IsQuantized(static_cast<int>(dtype->type()))) {
        Refuse(*g, node, "a TypeCvt to a quantized dtype");
      }
    }
  }
  return {"FusePreprocess", false, "no int8 preprocessing or WarpPerspective to fuse"};
}

}  // namespace graphport::mge::opt

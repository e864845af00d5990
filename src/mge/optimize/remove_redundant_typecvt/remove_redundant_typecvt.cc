#include "mge/optimize/remove_redundant_typecvt/remove_redundant_typecvt.h"

#include "mge/optimize/rewriter.h"
#include "mge/optimize/schema_numbers.h"
#include "mge/schema/dtype_generated.h"

namespace graphport::mge::opt {
namespace {

namespace fbs = mgb::serialization::fbs;

enum class Category { kFloat, kInt, kQuantized, kOther };

Category CategoryOf(fbs::DTypeEnum t) {
  switch (t) {
    case fbs::DTypeEnum_Float32:
    case fbs::DTypeEnum_Float16:
    case fbs::DTypeEnum_BFloat16:
      return Category::kFloat;
    case fbs::DTypeEnum_Uint8:
    case fbs::DTypeEnum_Int8:
    case fbs::DTypeEnum_Int16:
    case fbs::DTypeEnum_Int32:
    case fbs::DTypeEnum_Uint16:
      return Category::kInt;
    case fbs::DTypeEnum_Quantized8Asymm:
    case fbs::DTypeEnum_QuantizedS32:
    case fbs::DTypeEnum_QuantizedS8:
    case fbs::DTypeEnum_Quantized4Asymm:
    case fbs::DTypeEnum_QuantizedS4:
    case fbs::DTypeEnum_QuantizedS16:
    case fbs::DTypeEnum_QuantizedS1:
      return Category::kQuantized;
    default:
      return Category::kOther;
  }
}

// Bytes per element of the dtypes the rules compare (0 for others).
size_t SizeOf(fbs::DTypeEnum t) {
  switch (t) {
    case fbs::DTypeEnum_Float32:
    case fbs::DTypeEnum_Int32:
    case fbs::DTypeEnum_QuantizedS32:
      return 4;
    case fbs::DTypeEnum_Float16:
    case fbs::DTypeEnum_BFloat16:
    case fbs::DTypeEnum_Int16:
    case fbs::DTypeEnum_Uint16:
    case fbs::DTypeEnum_QuantizedS16:
      return 2;
    case fbs::DTypeEnum_Uint8:
    case fbs::DTypeEnum_Int8:
    case fbs::DTypeEnum_Quantized8Asymm:
    case fbs::DTypeEnum_QuantizedS8:
      return 1;
    default:
      return 0;
  }
}

// MegEngine's should_remove(outer, inner): converting to `inner` first loses nothing that
// converting to `outer` keeps.
bool InnerIsRedundant(fbs::DTypeEnum outer, fbs::DTypeEnum inner) {
  const Category co = CategoryOf(outer), ci = CategoryOf(inner);
  if (co == ci && (ci == Category::kInt || ci == Category::kFloat) &&
      SizeOf(inner) >= SizeOf(outer)) {
    return true;
  }
  return inner == fbs::DTypeEnum_Float32 &&
         (co == Category::kQuantized || (co == Category::kInt && SizeOf(outer) * 8 <= 24));
}

const fbs::DType* TargetOf(const Operator& op) {
  if (op.params.empty() || op.params[0].type != kDTypeParam) return nullptr;
  return reinterpret_cast<const fbs::DType*>(op.params[0].table);
}

}  // namespace

PassReport RemoveRedundantTypeCvt(OptGraph* g) {
  if (!g->Holds("TypeCvt")) return {"RemoveRedundantTypeCvt", false, ""};  // nothing to rewrite
  Rewriter rw(g);
  uint32_t removed = 0;
  rw.ForEachOperator([&](uint32_t node) {
    if (g->Key(node) == "TypeCvt" && g->node(node).inputs.size() == 1) {
      const VarRef inner = rw.Get(g->node(node).inputs[0]);
      if (g->Key(inner.node) == "TypeCvt" && g->node(inner.node).inputs.size() == 1) {
        const fbs::DType* outer_type = TargetOf(g->node(node).op());
        const fbs::DType* inner_type = TargetOf(g->node(inner.node).op());
        if (outer_type != nullptr && inner_type != nullptr &&
            InnerIsRedundant(outer_type->type(), inner_type->type())) {
          const VarRef x = g->node(inner.node).inputs[0];
          // TypeCvt::make gives x back when it already has the target dtype.
          const bool same = outer_type->param_type() == fbs::DTypeParam_NONE &&
                            g->var(x).dtype == static_cast<int>(outer_type->type());
          const VarRef folded = same ? x : VarRef{rw.maker().Copy(node, {x}, false), 0};
          rw.Replace({node, 0}, folded);
          ++removed;
        }
        return;
      }
    }
    rw.AutoReplaceOutputs(node);
  });
  rw.Apply();
  PassReport report{"RemoveRedundantTypeCvt", removed != 0, ""};
  if (removed) report.summary = std::to_string(removed) + " TypeCvt folded into the next";
  return report;
}

}  // namespace graphport::mge::opt

#include "mge/read_common.h"

#include <algorithm>
#include <functional>

#include "mge/dtype.h"
#include "mge/read_error.h"
#include "mge/schema/graph_v1_generated.h"

namespace graphport::mge {

namespace fbs = mgb::serialization::fbs;

std::optional<DType> ReadDType(const fbs::DType* d) {
  if (d == nullptr) return std::nullopt;
  DType out;
  out.type = static_cast<int8_t>(d->type());
  if (auto* q = d->param_as_LinearQuantizationParam()) {
    out.has_param = true;
    out.scale = q->scale();
    out.zero_point = q->zero_point();
  }
  return out;
}

void OrderDumpItems(Operator* op, const std::vector<const void*>& param_tables,
                    const std::vector<const void*>& tensor_tables,
                    const std::vector<const void*>& blob_tables) {
  struct Placed {
    const void* at;
    DumpItem item;
  };
  std::vector<Placed> placed;
  for (size_t i = 0; i < param_tables.size(); ++i) {
    placed.push_back({param_tables[i], {DumpItem::kParam, i}});
  }
  for (size_t i = 0; i < tensor_tables.size(); ++i) {
    placed.push_back({tensor_tables[i], {DumpItem::kTensor, i}});
  }
  for (size_t i = 0; i < blob_tables.size(); ++i) {
    placed.push_back({blob_tables[i], {DumpItem::kBlob, i}});
  }
  // Absent param tables (union type without a table) sort as created first.
  std::stable_sort(placed.begin(), placed.end(), [](const Placed& a, const Placed& b) {
    return std::greater<const void*>()(a.at, b.at);
  });
  op->items.clear();
  for (const auto& p : placed) op->items.push_back(p.item);
}

void CheckInputsDefined(const Operator& op, size_t index, size_t vars_defined,
                        const std::string& file, int64_t offset) {
  if (!op.inputs) return;
  for (uint32_t id : *op.inputs) {
    if (id >= vars_defined) {
      ThrowAt(ErrorCode::kParseError, file, offset,
              "uses var " + std::to_string(id) + ", which is not defined yet (" +
                  std::to_string(vars_defined) + " vars so far)",
              OprLabel(index, op.DisplayType()));
    }
  }
}

void CheckValueSize(const Tensor& t, size_t tensor_index, const Operator& op, size_t opr_index,
                    const std::string& file, int64_t offset) {
  if (!t.has_value || !t.shape) return;
  // A missing dtype is an invalid dtype in MegEngine: there is no layout to check against.
  if (!t.dtype) return;
  uint64_t expected = 0;
  int type = t.dtype->type;
  if (!ValueBytes(type, *t.shape, &expected)) {
    ThrowAt(ErrorCode::kParseError, file, offset,
            "tensor " + std::to_string(tensor_index) + " has dtype " + DTypeName(type) +
                " and a shape whose size cannot be computed",
            OprLabel(opr_index, op.DisplayType()));
  }
  if (expected != t.value.size()) {
    std::string shape;
    for (uint32_t d : *t.shape) shape += (shape.empty() ? "" : ",") + std::to_string(d);
    ThrowAt(ErrorCode::kParseError, file, offset,
            "tensor " + std::to_string(tensor_index) + " (" + DTypeName(type) + " [" + shape +
                "]) needs " + std::to_string(expected) + " value bytes, but the file gives " +
                std::to_string(t.value.size()),
            OprLabel(opr_index, op.DisplayType()));
  }
}

void CheckUnknownParams(const Operator& op, size_t index, const uint8_t* data, size_t size,
                        const std::string& file, int64_t fb_at) {
  for (const Param& p : op.params) {
    if (p.type <= mgb::serialization::fbs::OperatorParam_MAX || p.table == nullptr) continue;
    flatbuffers::Verifier verifier(data, size);
    if (!verifier.VerifyTableStart(p.table)) {
      ThrowAt(ErrorCode::kParseError, file, fb_at + (p.table - data),
              "param union member " + std::to_string(p.type) +
                  " (newer than graphport's schema) has a table outside the flatbuffer",
              OprLabel(index, op.DisplayType()));
    }
  }
}

}  // namespace graphport::mge

#include "mge/mge_model.h"

#include <cstdio>

namespace graphport::mge {

std::string Operator::DisplayType() const {
  if (type && !type->empty()) return *type;
  if (cls != nullptr) return cls->v1_token.empty() ? cls->v2_token : cls->v1_token;
  char buf[32];
  std::snprintf(buf, sizeof buf, "type_id 0x%016llx", static_cast<unsigned long long>(type_id));
  return buf;
}

std::string Graph::FormatName() const {
  return format == DumpFormat::kFbsV1 ? "mge-fbs" : "mge-fbs-v2";
}

std::optional<std::string> Graph::VarName(uint32_t id) const {
  if (id >= vars.size()) return std::nullopt;
  const Var& var = vars[id];
  if (format == DumpFormat::kFbsV2) return var.middle.name;
  const Operator& op = oprs[var.opr];
  if (op.output_names && var.index < op.output_names->size()) {
    return (*op.output_names)[var.index];
  }
  return std::nullopt;
}

}  // namespace graphport::mge

#include "mge/mge_model.h"

#include <cstdio>

namespace graphport::mge {

Tensor::Tensor() = default;
Tensor::Tensor(const Tensor&) = default;
Tensor::Tensor(Tensor&&) noexcept = default;
Tensor& Tensor::operator=(const Tensor&) = default;
Tensor& Tensor::operator=(Tensor&&) noexcept = default;
Tensor::~Tensor() = default;

Operator::Operator() = default;
Operator::Operator(const Operator&) = default;
Operator::Operator(Operator&&) noexcept = default;
Operator& Operator::operator=(const Operator&) = default;
Operator& Operator::operator=(Operator&&) noexcept = default;
Operator::~Operator() = default;

MiddleTensor::MiddleTensor() = default;
MiddleTensor::MiddleTensor(const MiddleTensor&) = default;
MiddleTensor::MiddleTensor(MiddleTensor&&) noexcept = default;
MiddleTensor& MiddleTensor::operator=(const MiddleTensor&) = default;
MiddleTensor& MiddleTensor::operator=(MiddleTensor&&) noexcept = default;
MiddleTensor::~MiddleTensor() = default;

Var::Var() = default;
Var::Var(const Var&) = default;
Var::Var(Var&&) noexcept = default;
Var& Var::operator=(const Var&) = default;
Var& Var::operator=(Var&&) noexcept = default;
Var::~Var() = default;

Graph::Graph() = default;
Graph::Graph(const Graph&) = default;
Graph::Graph(Graph&&) noexcept = default;
Graph& Graph::operator=(const Graph&) = default;
Graph& Graph::operator=(Graph&&) noexcept = default;
Graph::~Graph() = default;

MgeFile::MgeFile() = default;
MgeFile::MgeFile(const MgeFile&) = default;
MgeFile::MgeFile(MgeFile&&) noexcept = default;
MgeFile& MgeFile::operator=(const MgeFile&) = default;
MgeFile& MgeFile::operator=(MgeFile&&) noexcept = default;
MgeFile::~MgeFile() = default;

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
  // An optimized graph names every var in its middle tensors, whatever it was read from.
  if (format == DumpFormat::kFbsV2 || var.middle.name) return var.middle.name;
  const Operator& op = oprs[var.opr];
  if (op.output_names && var.index < op.output_names->size()) {
    return (*op.output_names)[var.index];
  }
  return std::nullopt;
}

}  // namespace graphport::mge

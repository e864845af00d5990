#include "mge/write_common.h"

#include <flatbuffers/flatbuffers.h>

#include <map>
#include <set>

#include "core/error.h"
#include "mge/dump/compat_rewrite.h"
#include "mge/read_error.h"
#include "mge/schema/operator_param_v1_generated.h"

namespace graphport::mge {

namespace fbs = mgb::serialization::fbs;
namespace param = mgb::serialization::fbs::param;
namespace {

[[noreturn]] void Unsupported(const Graph& graph, size_t opr, const std::string& what) {
  std::string label = WriterOprLabel(graph, opr);
  ErrorLocation where;
  where.opr = label;
  throw Error(ErrorCode::kUnsupported, "operator " + label + ": " + what, where);
}

bool IsHolder(const Operator& op) {
  return op.cls != nullptr && op.cls->key == "MultipleDeviceTensorHolder";
}

bool IsFormatHolder(const Operator& op) {
  return op.cls != nullptr && (op.cls->key == "MultipleDeviceTensorWithFormatHolder" ||
                               op.cls->key == "SharedDeviceTensorWithFormat");
}

}  // namespace

uint64_t WrittenDump::size() const {
  uint64_t n = header.size() + flatbuffer.size();
  for (std::string_view v : values) n += v.size();
  return n;
}

void WrittenDump::WriteTo(ByteSink* sink) const {
  sink->Write(reinterpret_cast<const uint8_t*>(header.data()), header.size());
  for (std::string_view v : values) {
    sink->Write(reinterpret_cast<const uint8_t*>(v.data()), v.size());
  }
  sink->Write(flatbuffer.data(), flatbuffer.size());
}

std::string WriterOprLabel(const Graph& graph, size_t opr) {
  const Operator& op = graph.oprs[opr];
  std::string label = OprLabel(opr, op.DisplayType());
  if (op.name) label += " '" + *op.name + "'";
  return label;
}

OprIdentity V1Identity(const Graph& graph, size_t opr, V1Ids ids) {
  const Operator& op = graph.oprs[opr];
  const V1Ids loaded_ids = graph.magic == V1Magic::kMgbc ? V1Ids::kPersist : V1Ids::kUnversioned;
  if (op.cls == nullptr) {
    if (graph.format == DumpFormat::kFbsV1 && loaded_ids == ids) return {op.type_id, 0, ""};
    Unsupported(graph, opr,
                "not in MegEngine's operator registry as graphport knows it, so its FBS v1 "
                "type id in the other id scheme is unknown");
  }
  OprIdentity id;
  if (!V1TypeIdOf(*op.cls, ids, &id.type_id)) {
    Unsupported(graph, opr, "has no FBS v1 registration in MegEngine (FBS_V2 only)");
  }
  return id;
}

OprIdentity V2Identity(const Graph& graph, size_t opr) {
  const Operator& op = graph.oprs[opr];
  if (graph.format == DumpFormat::kFbsV2) {
    return {op.type_id, op.opr_version, op.type.value_or("")};
  }
  if (op.cls == nullptr) {
    Unsupported(graph, opr,
                "not in MegEngine's operator registry as graphport knows it, so its FBS_V2 "
                "(type_id, opr_version) is unknown");
  }
  V2Registration reg;
  if (!V2RegistrationOf(*op.cls, &reg)) {
    Unsupported(graph, opr, "has no FBS_V2 registration in MegEngine");
  }
  if (IsFormatHolder(op) && reg.opr_version == 2) {
    Unsupported(graph, opr,
                "converting a tensor-with-format holder between FBS v1 and FBS_V2 is not "
                "implemented yet");
  }
  return {reg.type_id, reg.opr_version, reg.type};
}

void CheckExpressibleInV1(const Graph& graph, size_t opr) {
  if (graph.format == DumpFormat::kFbsV1) return;
  const Operator& op = graph.oprs[opr];
  if (op.cls == nullptr) return;
  // The compatibility rewrite replaces these before the writer runs (Softmax, LayerNorm,
  // Dropout, GroupNorm and InstanceNorm stay only for outputs other than 0, which FBS v1
  // holds as MegEngine's v1 dumper writes them).
  static const std::set<std::string> kRewritten = {"Where", "GroupNormBackward",
                                                   "InstanceNormBackward"};
  const std::string suffix =
      ": FBS v1 cannot hold it without MegEngine's compatibility rewrite, which graphport "
      "does not implement yet (dump it as FBS_V2)";
  if (op.cls->key == "Elemwise") {
    const auto* p = op.ParamAs<param::Elemwise>(fbs::OperatorParam_param_Elemwise);
    if (p != nullptr && compat::ElemwiseNeedsRewrite(p->mode())) {
      Unsupported(graph, opr,
                  std::string("Elemwise mode ") + param::EnumNameElemwiseMode(p->mode()) + suffix);
    }
  } else if (op.cls->key == "ElemwiseMultiType") {
    const auto* p =
        op.ParamAs<param::ElemwiseMultiType>(fbs::OperatorParam_param_ElemwiseMultiType);
    if (p != nullptr && compat::MultiTypeNeedsRewrite(p->mode())) {
      Unsupported(graph, opr,
                  std::string("ElemwiseMultiType mode ") +
                      param::EnumNameElemwiseMultiTypeMode(p->mode()) + suffix);
    }
  } else if (kRewritten.count(op.cls->key)) {
    Unsupported(graph, opr, op.cls->key + suffix);
  }
}

ItemsToWrite ItemsFor(const Graph& graph, size_t opr, DumpFormat target, uint32_t opr_version) {
  const Operator& op = graph.oprs[opr];
  ItemsToWrite out;
  out.items = op.items;
  if (!IsHolder(op)) return out;
  const bool loaded_has_blob =
      graph.format == DumpFormat::kFbsV1 || graph.oprs[opr].opr_version == 1;
  const bool target_has_blob = target == DumpFormat::kFbsV1 || opr_version == 1;
  if (loaded_has_blob && !target_has_blob) {
    // Drop the count blob (the first blob).
    for (auto it = out.items.begin(); it != out.items.end(); ++it) {
      if (it->kind == DumpItem::kBlob && it->index == 0) {
        out.items.erase(it);
        break;
      }
    }
  } else if (!loaded_has_blob && target_has_blob) {
    out.add_count_blob = true;
  }
  return out;
}

AdditionalParams CreateAdditionalParams(flatbuffers::FlatBufferBuilder* fbb,
                                        const BuiltParams& params) {
  if (params.size() < 2) return {};
  std::vector<uint8_t> types;
  std::vector<flatbuffers::Offset<void>> tables;
  for (size_t k = 1; k < params.size(); ++k) {
    types.push_back(params[k].first);
    tables.push_back(params[k].second);
  }
  // The dumper creates the types' vector first.
  auto type_vec = fbb->CreateVector(types);
  return {type_vec, fbb->CreateVector(tables)};
}

}  // namespace graphport::mge

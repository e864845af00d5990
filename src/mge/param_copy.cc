#include "mge/param_copy.h"

#include <flatbuffers/reflection.h>

#include <algorithm>
#include <functional>
#include <map>
#include <vector>

#include "core/error.h"
#include "mge/dtype.h"
#include "mge/schema/dtype_generated.h"
#include "mge/schema/param_history.h"
#include "mge/schema/schema_reflection.h"

namespace graphport::mge {
namespace {

namespace fbs = mgb::serialization::fbs;

// Bytes a field takes for the Create helper's ordering: offsets and structs count as 4.
size_t SortSize(reflection::BaseType t) {
  switch (t) {
    case reflection::String:
    case reflection::Vector:
    case reflection::Obj:
    case reflection::Union:
      return 4;
    default:
      return flatbuffers::GetTypeSize(t);
  }
}

[[noreturn]] void Unsupported(const std::string& opr, const std::string& what) {
  ErrorLocation where;
  where.opr = opr;
  throw Error(ErrorCode::kUnsupported, "operator " + opr + ": " + what, where);
}

void AddScalar(flatbuffers::FlatBufferBuilder* fbb, const reflection::Field& f, const uint8_t* at) {
  auto slot = static_cast<flatbuffers::voffset_t>(f.offset());
  switch (f.type()->base_type()) {
    case reflection::Bool:
    case reflection::UType:
    case reflection::UByte:
      fbb->AddElement<uint8_t>(slot, flatbuffers::ReadScalar<uint8_t>(at),
                               static_cast<uint8_t>(f.default_integer()));
      break;
    case reflection::Byte:
      fbb->AddElement<int8_t>(slot, flatbuffers::ReadScalar<int8_t>(at),
                              static_cast<int8_t>(f.default_integer()));
      break;
    case reflection::Short:
      fbb->AddElement<int16_t>(slot, flatbuffers::ReadScalar<int16_t>(at),
                               static_cast<int16_t>(f.default_integer()));
      break;
    case reflection::UShort:
      fbb->AddElement<uint16_t>(slot, flatbuffers::ReadScalar<uint16_t>(at),
                                static_cast<uint16_t>(f.default_integer()));
      break;
    case reflection::Int:
      fbb->AddElement<int32_t>(slot, flatbuffers::ReadScalar<int32_t>(at),
                               static_cast<int32_t>(f.default_integer()));
      break;
    case reflection::UInt:
      fbb->AddElement<uint32_t>(slot, flatbuffers::ReadScalar<uint32_t>(at),
                                static_cast<uint32_t>(f.default_integer()));
      break;
    case reflection::Long:
      fbb->AddElement<int64_t>(slot, flatbuffers::ReadScalar<int64_t>(at), f.default_integer());
      break;
    case reflection::ULong:
      fbb->AddElement<uint64_t>(slot, flatbuffers::ReadScalar<uint64_t>(at),
                                UnsignedFieldDefault(f));
      break;
    case reflection::Float:
      fbb->AddElement<float>(slot, flatbuffers::ReadScalar<float>(at),
                             static_cast<float>(f.default_real()));
      break;
    case reflection::Double:
      fbb->AddElement<double>(slot, flatbuffers::ReadScalar<double>(at), f.default_real());
      break;
    default:
      break;
  }
}

// A union member the schemas do not know, copied field by field from its vtable. MegEngine
// generates every param table from megdnn's param definitions (dnn/scripts/opr_param_defs.py),
// which hold only scalar and enum fields, so an unknown member is taken to hold only scalars:
// each field's bytes are copied as they are, in the order the Create helper added them
// (largest first, so fields follow one another without padding; the first-added one may
// carry alignment padding before it). Anything that does not fit that layout is refused.
flatbuffers::Offset<void> CopyUnknownParam(flatbuffers::FlatBufferBuilder* fbb, const Param& param,
                                           const std::string& opr) {
  const std::string member = "param union member " + std::to_string(param.type);
  const uint8_t* table = param.table;
  const uint8_t* vtable = table - flatbuffers::ReadScalar<flatbuffers::soffset_t>(table);
  const auto vt_size = flatbuffers::ReadScalar<flatbuffers::voffset_t>(vtable);
  const auto table_size = flatbuffers::ReadScalar<flatbuffers::voffset_t>(vtable + 2);
  struct Field {
    flatbuffers::voffset_t slot, offset, size;
  };
  std::vector<Field> fields;
  for (flatbuffers::voffset_t slot = 4; slot + 2 <= vt_size; slot += 2) {
    auto offset = flatbuffers::ReadScalar<flatbuffers::voffset_t>(vtable + slot);
    if (offset != 0) fields.push_back({static_cast<flatbuffers::voffset_t>(slot), offset, 0});
  }
  // Highest offset first: the order the fields were added.
  std::sort(fields.begin(), fields.end(),
            [](const Field& a, const Field& b) { return a.offset > b.offset; });
  flatbuffers::voffset_t end = table_size;
  for (size_t i = 0; i < fields.size(); ++i) {
    Field& f = fields[i];
    if (f.offset < 4 || f.offset >= end) {
      Unsupported(opr, member + " is not in graphport's schema and its fields overlap");
    }
    const auto gap = static_cast<flatbuffers::voffset_t>(end - f.offset);
    f.size = gap >= 8 ? 8 : gap >= 4 ? 4 : gap >= 2 ? 2 : 1;
    const bool first_added = i == 0;
    if ((!first_added && gap != f.size) || (i > 0 && f.size > fields[i - 1].size)) {
      Unsupported(opr, member +
                           " is not in graphport's schema and its fields are not laid out "
                           "as scalars, so it cannot be copied");
    }
    end = f.offset;
  }
  auto start = fbb->StartTable();
  for (const Field& f : fields) {
    fbb->Align(f.size);
    fbb->PushBytes(table + f.offset, f.size);
    fbb->TrackField(f.slot, fbb->GetSize());
  }
  return flatbuffers::Offset<void>(fbb->EndTable(start));
}

}  // namespace

flatbuffers::Offset<void> BuildDType(flatbuffers::FlatBufferBuilder* fbb, const DType& dtype) {
  flatbuffers::Offset<fbs::LinearQuantizationParam> param;
  if (dtype.has_param) {
    param = fbs::CreateLinearQuantizationParam(*fbb, dtype.scale,
                                               HasZeroPoint(dtype.type) ? dtype.zero_point : 0);
  }
  auto start = fbb->StartTable();
  fbb->AddElement<int8_t>(fbs::DType::VT_TYPE, dtype.type, 0);
  if (dtype.has_param) {
    fbb->AddElement<uint8_t>(fbs::DType::VT_PARAM_TYPE, fbs::DTypeParam_LinearQuantizationParam, 0);
    fbb->AddOffset(fbs::DType::VT_PARAM, param.Union());
  }
  return flatbuffers::Offset<void>(fbb->EndTable(start));
}

flatbuffers::Offset<void> CopyParam(flatbuffers::FlatBufferBuilder* fbb, const Param& param,
                                    const std::string& opr, uint32_t writer_version) {
  const reflection::Schema& schema = GraphV1Schema();
  const reflection::Object* obj = OperatorParamTable(schema, param.type);
  if (param.table == nullptr) {
    Unsupported(opr, "param union member " + std::to_string(param.type) + " has no table");
  }
  if (obj == nullptr) return CopyUnknownParam(fbb, param, opr);
  auto* table = reinterpret_cast<const flatbuffers::Table*>(param.table);
  if (obj->name()->str() == "mgb.serialization.fbs.DType") {
    DType d;
    d.type = table->GetField<int8_t>(fbs::DType::VT_TYPE, 0);
    if (table->GetField<uint8_t>(fbs::DType::VT_PARAM_TYPE, 0) ==
        fbs::DTypeParam_LinearQuantizationParam) {
      if (auto* q = table->GetPointer<const fbs::LinearQuantizationParam*>(fbs::DType::VT_PARAM)) {
        d.has_param = true;
        d.scale = q->scale();
        d.zero_point = q->zero_point();
      }
    }
    return BuildDType(fbb, d);
  }
  // The fields as the writer laid them out (an older release's table for some members).
  ParamLayout layout = ParamLayoutAsWritten(schema, param.type, writer_version);
  if (layout.table != nullptr) obj = layout.table;
  std::vector<const reflection::Field*> fields(obj->fields()->begin(), obj->fields()->end());
  // Vectors first, in the order the dumper created them (higher address = created earlier).
  std::vector<std::pair<const uint8_t*, const reflection::Field*>> vectors;
  for (const reflection::Field* f : fields) {
    reflection::BaseType t = f->type()->base_type();
    if (t == reflection::String || t == reflection::Union ||
        (t == reflection::Obj && !schema.objects()
                                      ->Get(static_cast<flatbuffers::uoffset_t>(f->type()->index()))
                                      ->is_struct())) {
      if (table->GetAddressOf(f->offset()) != nullptr) {
        Unsupported(opr, "param " + obj->name()->str() + " field " + f->name()->str() +
                             " is not a scalar, struct or vector");
      }
    }
    if (t == reflection::Vector) {
      if (const uint8_t* at = table->GetAddressOf(f->offset())) {
        vectors.push_back({at + flatbuffers::ReadScalar<flatbuffers::uoffset_t>(at), f});
      }
    }
  }
  std::sort(vectors.begin(), vectors.end(), [](const auto& a, const auto& b) {
    return std::greater<const uint8_t*>()(a.first, b.first);
  });
  std::map<const reflection::Field*, flatbuffers::uoffset_t> built;
  for (const auto& [vec_at, f] : vectors) {
    const reflection::Type& t = *f->type();
    uint32_t len = flatbuffers::ReadScalar<uint32_t>(vec_at);
    const uint8_t* items = vec_at + sizeof(uint32_t);
    size_t elem = 0, align = 0;
    if (t.element() == reflection::Obj) {
      const reflection::Object* s =
          schema.objects()->Get(static_cast<flatbuffers::uoffset_t>(t.index()));
      if (!s->is_struct()) {
        Unsupported(opr, "param " + obj->name()->str() + " has a vector of tables");
      }
      elem = s->bytesize();
      align = s->minalign();
    } else if (t.element() == reflection::String) {
      Unsupported(opr, "param " + obj->name()->str() + " has a vector of strings");
    } else {
      elem = align = flatbuffers::GetTypeSize(t.element());
    }
    fbb->StartVector(len * elem / align, align);
    fbb->PushBytes(items, len * elem);
    built[f] = fbb->EndVector(len);
  }
  // The Create helper's order: 8-, 4-, 2-, 1-byte fields, each size in reverse declaration order.
  std::sort(fields.begin(), fields.end(),
            [](const reflection::Field* a, const reflection::Field* b) {
              size_t sa = SortSize(a->type()->base_type()), sb = SortSize(b->type()->base_type());
              if (sa != sb) return sa > sb;
              return a->id() > b->id();
            });
  auto start = fbb->StartTable();
  for (const reflection::Field* f : fields) {
    const uint8_t* at = table->GetAddressOf(f->offset());
    if (at == nullptr) continue;
    auto slot = static_cast<flatbuffers::voffset_t>(f->offset());
    reflection::BaseType t = f->type()->base_type();
    if (t == reflection::Vector) {
      fbb->AddOffset(slot, flatbuffers::Offset<void>(built[f]));
    } else if (t == reflection::Obj) {  // a struct, inline
      const reflection::Object* s =
          schema.objects()->Get(static_cast<flatbuffers::uoffset_t>(f->type()->index()));
      fbb->Align(s->minalign());
      fbb->PushBytes(at, s->bytesize());
      fbb->TrackField(slot, fbb->GetSize());
    } else {
      AddScalar(fbb, *f, at);
    }
  }
  return flatbuffers::Offset<void>(fbb->EndTable(start));
}

}  // namespace graphport::mge

#include "mge/param_json.h"

#include <flatbuffers/reflection.h>

#include <cmath>

#include "core/base64.h"
#include "mge/dtype.h"
#include "mge/json_int64.h"
#include "mge/read_common.h"
#include "mge/schema/param_history.h"
#include "mge/schema/schema_reflection.h"

namespace graphport::mge {
namespace {

std::string ShortName(const flatbuffers::String* name) {
  std::string full = name->str();
  return full.substr(full.rfind('.') + 1);
}

nlohmann::json EnumValue(const reflection::Enum* e, int64_t v) {
  for (const reflection::EnumVal* ev : *e->values()) {
    if (ev->value() == v) return ev->name()->str();
  }
  bool bit_flags = e->attributes() != nullptr && e->attributes()->LookupByKey("bit_flags");
  if (bit_flags && v > 0) {
    std::string names;
    int64_t rest = v;
    for (const reflection::EnumVal* ev : *e->values()) {
      if (ev->value() != 0 && (rest & ev->value()) == ev->value()) {
        names += (names.empty() ? "" : "|") + ev->name()->str();
        rest &= ~ev->value();
      }
    }
    if (rest == 0) return names;
  }
  return v;
}

nlohmann::json Scalar(reflection::BaseType type, const uint8_t* p) {
  switch (type) {
    case reflection::Bool:
      return flatbuffers::ReadScalar<uint8_t>(p) != 0;
    case reflection::Byte:
      return flatbuffers::ReadScalar<int8_t>(p);
    case reflection::UType:
    case reflection::UByte:
      return flatbuffers::ReadScalar<uint8_t>(p);
    case reflection::Short:
      return flatbuffers::ReadScalar<int16_t>(p);
    case reflection::UShort:
      return flatbuffers::ReadScalar<uint16_t>(p);
    case reflection::Int:
      return flatbuffers::ReadScalar<int32_t>(p);
    case reflection::UInt:
      return flatbuffers::ReadScalar<uint32_t>(p);
    case reflection::Long:
      return JsonInt64(flatbuffers::ReadScalar<int64_t>(p));
    case reflection::ULong:
      return JsonUint64(flatbuffers::ReadScalar<uint64_t>(p));
    case reflection::Float: {
      double f = flatbuffers::ReadScalar<float>(p);
      if (std::isfinite(f)) return f;
      return std::isnan(f) ? "nan" : (f > 0 ? "inf" : "-inf");
    }
    case reflection::Double: {
      double f = flatbuffers::ReadScalar<double>(p);
      if (std::isfinite(f)) return f;
      return std::isnan(f) ? "nan" : (f > 0 ? "inf" : "-inf");
    }
    default:
      return nullptr;
  }
}

bool IsInteger(reflection::BaseType t) { return t >= reflection::UType && t <= reflection::ULong; }

const reflection::Enum* EnumOf(const reflection::Schema& schema, const reflection::Type& type) {
  return schema.enums()->Get(static_cast<flatbuffers::uoffset_t>(type.index()));
}

// `names` is the enum to name the value with (nullptr: the type's own, if it has one).
nlohmann::json TypedScalar(const reflection::Schema& schema, const reflection::Type& type,
                           reflection::BaseType base, const uint8_t* p,
                           const reflection::Enum* names = nullptr) {
  nlohmann::json v = Scalar(base, p);
  if (type.index() >= 0 && IsInteger(base) && v.is_number_integer()) {
    return EnumValue(names != nullptr ? names : EnumOf(schema, type), v.get<int64_t>());
  }
  return v;
}

nlohmann::json Struct(const reflection::Schema& schema, const reflection::Object& obj,
                      const uint8_t* p) {
  nlohmann::json out = nlohmann::json::object();
  for (const reflection::Field* f : *obj.fields()) {
    const reflection::Type& t = *f->type();
    const uint8_t* at = p + f->offset();
    if (t.base_type() == reflection::Array) {
      nlohmann::json items = nlohmann::json::array();
      size_t elem = flatbuffers::GetTypeSize(t.element());
      for (uint16_t i = 0; i < t.fixed_length(); ++i) {
        items.push_back(TypedScalar(schema, t, t.element(), at + i * elem));
      }
      out[f->name()->str()] = items;
    } else if (t.base_type() == reflection::Obj) {
      out[f->name()->str()] = Struct(
          schema, *schema.objects()->Get(static_cast<flatbuffers::uoffset_t>(t.index())), at);
    } else {
      out[f->name()->str()] = TypedScalar(schema, t, t.base_type(), at);
    }
  }
  return out;
}

nlohmann::json TableFields(const reflection::Schema& schema, const ParamLayout& layout,
                           const flatbuffers::Table& table) {
  const reflection::Object& obj = *layout.table;
  nlohmann::json fields = nlohmann::json::object();
  // In declaration (slot) order, as the schema lists them; bfbs sorts by name.
  std::vector<const reflection::Field*> ordered(obj.fields()->size(), nullptr);
  for (const reflection::Field* f : *obj.fields()) {
    if (f->id() < ordered.size()) ordered[f->id()] = f;
  }
  for (const reflection::Field* f : ordered) {
    if (f == nullptr) continue;
    const reflection::Type& t = *f->type();
    const std::string name = f->name()->str();
    const uint8_t* at = table.GetAddressOf(f->offset());
    switch (t.base_type()) {
      case reflection::Vector: {
        auto* vec = table.GetPointer<const flatbuffers::VectorOfAny*>(f->offset());
        nlohmann::json items = nlohmann::json::array();
        if (vec != nullptr) {
          if (t.element() == reflection::Obj) {
            const reflection::Object* s =
                schema.objects()->Get(static_cast<flatbuffers::uoffset_t>(t.index()));
            for (flatbuffers::uoffset_t i = 0; i < vec->size(); ++i) {
              items.push_back(Struct(schema, *s, vec->Data() + i * s->bytesize()));
            }
          } else {
            size_t elem = flatbuffers::GetTypeSize(t.element());
            for (flatbuffers::uoffset_t i = 0; i < vec->size(); ++i) {
              items.push_back(TypedScalar(schema, t, t.element(), vec->Data() + i * elem));
            }
          }
        }
        fields[name] = items;
        break;
      }
      case reflection::String: {
        auto* s = table.GetPointer<const flatbuffers::String*>(f->offset());
        fields[name] = s == nullptr ? nlohmann::json() : nlohmann::json(s->str());
        break;
      }
      case reflection::Obj: {
        const reflection::Object* s =
            schema.objects()->Get(static_cast<flatbuffers::uoffset_t>(t.index()));
        if (s->is_struct()) {
          fields[name] = at == nullptr ? nlohmann::json() : Struct(schema, *s, at);
        } else {
          fields[name] = nullptr;  // no param table nests a table
        }
        break;
      }
      default:
        const reflection::Enum* names =
            t.index() >= 0 ? &EnumAsWritten(schema, layout, *f) : nullptr;
        if (at != nullptr) {
          fields[name] = TypedScalar(schema, t, t.base_type(), at, names);
        } else if (t.base_type() == reflection::Float || t.base_type() == reflection::Double) {
          fields[name] = f->default_real();
        } else if (t.base_type() == reflection::ULong) {
          fields[name] = JsonUint64(UnsignedFieldDefault(*f));
        } else if (names != nullptr) {
          fields[name] = EnumValue(names, f->default_integer());
        } else if (t.base_type() == reflection::Bool) {
          fields[name] = f->default_integer() != 0;
        } else {
          fields[name] = JsonInt64(f->default_integer());
        }
    }
  }
  return fields;
}

}  // namespace

nlohmann::json DTypeJson(const std::optional<DType>& d) {
  if (!d) return nullptr;
  nlohmann::json out = {{"dtype", DTypeName(d->type)}};
  if (d->has_param) {
    out["scale"] = d->scale;
    if (HasZeroPoint(d->type)) out["zero_point"] = d->zero_point;
  }
  return out;
}

std::string ParamTypeName(uint8_t type) {
  const reflection::Object* obj = OperatorParamTable(GraphV1Schema(), type);
  return obj == nullptr ? "" : ShortName(obj->name());
}

nlohmann::json ParamToJson(const Param& param, uint32_t writer_version) {
  const reflection::Schema& schema = GraphV1Schema();
  const reflection::Object* obj = OperatorParamTable(schema, param.type);
  ParamLayout layout = ParamLayoutAsWritten(schema, param.type, writer_version);
  nlohmann::json out = {{"union", param.type}};
  if (obj == nullptr) {
    out["type"] = nullptr;
    return out;
  }
  out["type"] = ShortName(obj->name());
  if (param.table == nullptr) return out;
  auto* table = reinterpret_cast<const flatbuffers::Table*>(param.table);
  if (obj->name()->str() == "mgb.serialization.fbs.DType") {
    out["fields"] =
        DTypeJson(ReadDType(reinterpret_cast<const mgb::serialization::fbs::DType*>(table)));
  } else {
    if (layout.table == nullptr) layout.table = obj;
    if (layout.table != obj) out["layout"] = ShortName(layout.table->name());
    if (layout.ambiguous) out["ambiguous"] = true;
    out["fields"] = TableFields(schema, layout, *table);
  }
  return out;
}

}  // namespace graphport::mge

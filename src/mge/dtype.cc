#include "mge/dtype.h"

#include "mge/schema/dtype_generated.h"

namespace graphport::mge {
namespace {

struct DTypeInfo {
  const char* name;
  int bits;
};

// Indexed by DTypeEnum value (append-only in MegEngine).
constexpr DTypeInfo kDTypes[] = {
    {"Float32", 32},      {"Uint8", 8},         {"Int8", 8},
    {"Int16", 16},        {"Int32", 32},        {"IntB1", 1},
    {"IntB2", 2},         {"IntB4", 4},         {"Byte", 8},
    {"Float16", 16},      {"UintB4", 4},        {"Quantized8Asymm", 8},
    {"QuantizedS32", 32}, {"QuantizedS8", 8},   {"Quantized4Asymm", 4},
    {"QuantizedS4", 4},   {"QuantizedS16", 16}, {"BFloat16", 16},
    {"Bool", 8},          {"Uint16", 16},       {"QuantizedS1", 1},
    {"Complex64", 64},
};
constexpr int kDTypeCount = sizeof(kDTypes) / sizeof(kDTypes[0]);

}  // namespace

std::string DTypeName(int type) {
  if (type >= 0 && type < kDTypeCount) return kDTypes[type].name;
  return "DTypeEnum(" + std::to_string(type) + ")";
}

bool IsQuantized(int type) {
  namespace fbs = mgb::serialization::fbs;
  return (type >= fbs::DTypeEnum_Quantized8Asymm && type <= fbs::DTypeEnum_QuantizedS16) ||
         type == fbs::DTypeEnum_QuantizedS1;
}

bool HasZeroPoint(int type) {
  namespace fbs = mgb::serialization::fbs;
  return type == fbs::DTypeEnum_Quantized8Asymm || type == fbs::DTypeEnum_Quantized4Asymm;
}

bool ValueBytes(int type, const std::vector<uint32_t>& shape, uint64_t* bytes) {
  if (type < 0 || type >= kDTypeCount) return false;
  uint64_t elements = 1;
  for (uint32_t d : shape) {
    if (d != 0 && elements > UINT64_MAX / 64 / d) return false;
    elements *= d;
  }
  *bytes = (elements * kDTypes[type].bits + 7) / 8;
  return true;
}

}  // namespace graphport::mge

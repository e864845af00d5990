// MegEngine's DTypeEnum (dtype.fbs): names, and the bytes a contiguous value of a shape takes.
#ifndef GRAPHPORT_MGE_DTYPE_H_
#define GRAPHPORT_MGE_DTYPE_H_

#include <cstdint>
#include <string>
#include <vector>

namespace graphport::mge {

// "Float32", "Quantized8Asymm", ...; "DTypeEnum(<n>)" for a value we do not know.
std::string DTypeName(int type);
bool IsQuantized(int type);
bool HasZeroPoint(int type);  // Quantized8Asymm, Quantized4Asymm

// Bytes of a contiguous value (low-bit types packed, rounded up to a byte). False for an
// unknown type or when the size overflows 64 bits.
bool ValueBytes(int type, const std::vector<uint32_t>& shape, uint64_t* bytes);

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_DTYPE_H_

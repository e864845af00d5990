// CRC-32C (Castagnoli), the checksum of TensorFlow's checkpoint files: the index's block
// trailers and every tensor's bytes. Stored checksums are masked, so that a checksum computed
// over bytes that themselves hold checksums stays well distributed.
#ifndef GRAPHPORT_TF_CHECKPOINT_CRC32C_H_
#define GRAPHPORT_TF_CHECKPOINT_CRC32C_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace graphport::tf::checkpoint {

// The crc of `size` bytes that follow bytes whose crc was `crc` (0 for none).
uint32_t Crc32cExtend(uint32_t crc, const uint8_t* data, size_t size);
inline uint32_t Crc32cExtend(uint32_t crc, std::string_view bytes) {
  return Crc32cExtend(crc, reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
}
inline uint32_t Crc32c(std::string_view bytes) { return Crc32cExtend(0, bytes); }

// The checksum as the files store it, and back.
inline uint32_t MaskCrc(uint32_t crc) { return ((crc >> 15) | (crc << 17)) + 0xA282EAD8u; }
inline uint32_t UnmaskCrc(uint32_t masked) {
  uint32_t rotated = masked - 0xA282EAD8u;
  return (rotated >> 17) | (rotated << 15);
}

}  // namespace graphport::tf::checkpoint

#endif  // GRAPHPORT_TF_CHECKPOINT_CRC32C_H_

// The byte layout around MegEngine's flatbuffers: FBS v1 headers (MGBS/MGBC) with their value
// blob, FBS_V2's size prefix, dumps appended one after another, and the mgbtest0 container.
// This only finds where each dump and its parts lie; read_v1/read_v2 read the flatbuffers.
#ifndef GRAPHPORT_MGE_CONTAINER_H_
#define GRAPHPORT_MGE_CONTAINER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "mge/mge_model.h"

namespace graphport::mge {

struct DumpSpan {
  DumpFormat format = DumpFormat::kFbsV1;
  V1Magic magic = V1Magic::kMgbc;
  uint64_t feature_bits = 0;
  uint64_t start = 0;        // first byte of the dump
  uint64_t values = 0;       // FBS v1: first byte of the value blob
  uint64_t values_size = 0;  // FBS v1: offset_to_fbs
  uint64_t flatbuffer = 0;   // the u32 size prefix
  uint64_t end = 0;          // one past the last byte
};

struct ContainerLayout {
  bool test_container = false;
  uint32_t declared_tests = 0;
  std::vector<DumpSpan> dumps;
};

inline constexpr std::string_view kTestContainerMagic = "mgbtest0";
inline constexpr size_t kMgbsHeaderBytes = 16;
inline constexpr size_t kMgbcHeaderBytes = 24;

// Throws Error(kParseError) naming `file` and the offset when a declared size runs past the
// end of the bytes or bytes follow that are no dump.
ContainerLayout SplitDumps(std::string_view bytes, const std::string& file);

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_CONTAINER_H_

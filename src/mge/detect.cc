#include "mge/detect.h"

#include <cstdio>

namespace graphport::mge {
namespace {

bool StartsWith(std::string_view bytes, std::string_view head) {
  return bytes.substr(0, head.size()) == head;
}

}  // namespace

uint32_t LoadU32(std::string_view bytes, size_t at) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(bytes[at + i]);
  return v;
}

uint64_t LoadU64(std::string_view bytes, size_t at) {
  return (uint64_t{LoadU32(bytes, at + 4)} << 32) | LoadU32(bytes, at);
}

std::string HexBytes(std::string_view bytes, size_t n) {
  std::string out;
  for (size_t i = 0; i < n && i < bytes.size(); ++i) {
    char buf[4];
    std::snprintf(buf, sizeof buf, "%s%02x", i ? " " : "", static_cast<uint8_t>(bytes[i]));
    out += buf;
  }
  return out.empty() ? "(none)" : out;
}

Classification ClassifyMgeBytes(std::string_view p) {
  if (p.size() >= 8) {
    uint64_t magic = LoadU64(p, 0);
    if (magic == kMagicMgbc) return {FileKind::kFbsV1Mgbc, "FBS v1 header MGBC at offset 0"};
    if (magic == kMagicMgbs) return {FileKind::kFbsV1Mgbs, "FBS v1 header MGBS at offset 0"};
  }
  if (p.size() >= kFbsV2MinBytes && p.substr(8, 4) == "mgv2") {
    return {FileKind::kFbsV2, "FlatBuffers identifier mgv2 at offset 8 (FBS_V2)"};
  }
  if (StartsWith(p, "mgbtest0")) {
    return {FileKind::kTestContainer, "mgbtest0 test-case container at offset 0"};
  }
  if (StartsWith(p, "mgb0001") || StartsWith(p, "mgb0000a")) {
    return {FileKind::kLegacyMgb, "legacy MegBrain magic " + std::string(p.substr(0, 7))};
  }
  if (StartsWith(p, "version https://git-lfs.github.com/spec/")) {
    return {FileKind::kLfsPointer, "git-LFS pointer text at offset 0"};
  }
  // megengine.save pickles: PROTO opcode 0x80 and a protocol number 2..5.
  if (p.size() >= 3 && static_cast<uint8_t>(p[0]) == 0x80 && p[1] >= 2 && p[1] <= 5) {
    return {FileKind::kPickle, "Python pickle, protocol " + std::to_string(int{p[1]})};
  }
  std::string seen = "first 8 bytes are " + HexBytes(p, 8) + ", not MGBC/MGBS";
  if (p.size() >= 12) {
    seen += "; bytes 8..11 are " + HexBytes(p.substr(8), 4) + ", not the mgv2 identifier";
  } else {
    seen += "; too short for an mgv2 identifier at offset 8";
  }
  seen += "; no mgbtest0 prefix";
  return {FileKind::kUnknown, seen};
}

const char* FormatNameOf(FileKind kind) {
  switch (kind) {
    case FileKind::kFbsV1Mgbs:
    case FileKind::kFbsV1Mgbc:
      return "mge-fbs";
    case FileKind::kFbsV2:
      return "mge-fbs-v2";
    case FileKind::kTestContainer:
      return "mge-test";
    default:
      return "";
  }
}

}  // namespace graphport::mge

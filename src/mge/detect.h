// What a MegEngine-looking file is, from its first bytes, as MegEngine's loaders decide it
// (serializer.cpp: MGBC/MGBS magic, then the mgv2 identifier; load_and_run: mgbtest0), plus
// the other files that travel under a .mge name and must be refused with a clear message.
#ifndef GRAPHPORT_MGE_DETECT_H_
#define GRAPHPORT_MGE_DETECT_H_

#include <string>
#include <string_view>

namespace graphport::mge {

enum class FileKind {
  kUnknown,
  kFbsV1Mgbs,      // FBS v1, "MGBS" header (MegEngine <= 1.6, or compat "8.14")
  kFbsV1Mgbc,      // FBS v1, "MGBC" header
  kFbsV2,          // FBS_V2: size-prefixed flatbuffer with identifier "mgv2"
  kTestContainer,  // "mgbtest0" + test-case count + dumps (trace.dump with input_data)
  kPickle,         // megengine.save: a pickled state dict
  kLegacyMgb,      // "mgb0001" / "mgb0000a": the pre-FlatBuffers raw format
  kLfsPointer,     // a git-LFS pointer file instead of the model
};

struct Classification {
  FileKind kind = FileKind::kUnknown;
  // What was seen (kind known) or looked at (unknown), with offsets: for detection reasons.
  std::string reason;
};

// `prefix` is the start of the file (or all of it).
Classification ClassifyMgeBytes(std::string_view prefix);

// The graphport format name of a kind that holds a graph: "mge-fbs", "mge-fbs-v2", "mge-test";
// "" otherwise.
const char* FormatNameOf(FileKind kind);

// Little-endian reads from a byte string the caller has bounds-checked.
uint32_t LoadU32(std::string_view bytes, size_t at);
uint64_t LoadU64(std::string_view bytes, size_t at);

// "4d 47 42 53 00 00 00 00": the first `n` bytes, for messages.
std::string HexBytes(std::string_view bytes, size_t n);

inline constexpr uint64_t kMagicMgbc = 0x4342474D;  // "MGBC" + 4 zero bytes, as a u64
inline constexpr uint64_t kMagicMgbs = 0x5342474D;  // "MGBS" + 4 zero bytes
inline constexpr size_t kFbsV2MinBytes = 25;        // MegEngine reads 25 bytes to check "mgv2"

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_DETECT_H_

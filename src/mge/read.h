// Reads a whole MegEngine input: the container, then every dump in it.
#ifndef GRAPHPORT_MGE_READ_H_
#define GRAPHPORT_MGE_READ_H_

#include <memory>
#include <string>

#include "mge/mge_model.h"

namespace graphport::mge {

// The largest input read: FBS v1 values have no limit of their own, but the whole file is
// held in memory (a wasm32 heap is 4 GiB at most).
inline constexpr uint64_t kMaxMgeInputBytes = (uint64_t{1} << 32) - (uint64_t{1} << 28);

// Takes the input's bytes; `display` names it in errors. Throws Error(kParseError) for
// malformed bytes, Error(kUnsupported) for what this version cannot read.
std::unique_ptr<MgeFile> ReadMgeFile(std::string bytes, const std::string& display);

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_READ_H_

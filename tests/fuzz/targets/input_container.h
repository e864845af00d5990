// The fuzz input of a target that reads several files (a SavedModel folder, a TensorFlow.js
// model.json with its shards): one byte string holding named files, so libFuzzer can mutate
// the names, the sizes and the bytes of a whole input set at once. Each file is
//   [name length: 1 byte][name][size: 4 bytes, little-endian][bytes]
// and a size past the end takes what is left, so a mutation that breaks a size still gives
// files rather than nothing.
#ifndef GRAPHPORT_TESTS_FUZZ_TARGETS_INPUT_CONTAINER_H_
#define GRAPHPORT_TESTS_FUZZ_TARGETS_INPUT_CONTAINER_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace graphport::fuzz {

using PackedFile = std::pair<std::string, std::string_view>;

// The files of `bytes`, in order; the views point into `bytes`. A file with an empty name, or
// a name seen before, is dropped (an input set holds each name once).
std::vector<PackedFile> UnpackInputs(std::string_view bytes);

// The container of `files` (names of at most 255 bytes; sizes under 4 GiB).
std::string PackInputs(const std::vector<PackedFile>& files);

}  // namespace graphport::fuzz

#endif  // GRAPHPORT_TESTS_FUZZ_TARGETS_INPUT_CONTAINER_H_

// The libFuzzer entry point of every target of this folder: GRAPHPORT_FUZZ_BODY names the
// function of targets/fuzz_targets.h it drives (CMakeLists.txt sets it per target). A property
// that does not hold is a trap, so libFuzzer keeps the input.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "fuzz/targets/fuzz_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  std::string failure = graphport::fuzz::GRAPHPORT_FUZZ_BODY(bytes);
  if (!failure.empty()) {
    std::fprintf(stderr, "%s\n", failure.c_str());
    __builtin_trap();
  }
  return 0;
}

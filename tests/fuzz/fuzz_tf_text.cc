// libFuzzer target: the TensorFlow text readers (protobuf text format), each kind, then the
// same checks as every target (tests/harness/exercise.h).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string_view>

#include "harness/exercise.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  for (const char* format : {"graph-def-text", "meta-graph-text", "saved-model-text"}) {
    graphport::harness::Outcome outcome =
        graphport::harness::Exercise(bytes, true, format, /*reload_auto=*/false);
    if (!outcome.failure.empty()) {
      std::fprintf(stderr, "format %s: %s\n", format, outcome.failure.c_str());
      __builtin_trap();
    }
  }
  return 0;
}

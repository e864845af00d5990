// libFuzzer target: the TensorFlow binary readers. Each input is read as format "auto" and as
// each kind's binary form; whatever loads is inspected, exported every way and read back
// (tests/harness/exercise.h). A property that does not hold is a crash, so libFuzzer keeps
// the input.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string_view>

#include "harness/exercise.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  for (const char* format :
       {"auto", "graph-def-binary", "meta-graph-binary", "saved-model-binary"}) {
    graphport::harness::Outcome outcome = graphport::harness::Exercise(bytes, true, format);
    if (!outcome.failure.empty()) {
      std::fprintf(stderr, "format %s: %s\n", format, outcome.failure.c_str());
      __builtin_trap();
    }
  }
  return 0;
}

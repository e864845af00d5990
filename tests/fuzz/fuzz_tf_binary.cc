// libFuzzer target: the TensorFlow binary readers. Each input is read as format "auto" and as
// each kind's binary form; whatever loads is inspected, exported every way and read back
// (tests/harness/exercise.h), with
// each output loaded back as the kind it was written as (the sweep checks detection). A property
// that does not hold is a crash, so libFuzzer keeps the input.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string_view>

#include "harness/exercise.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  // Detection and every export once; each kind's reader forced on the same bytes, loaded and
  // inspected (the exports of what a forced reader makes are fuzz_tf_export's job).
  for (const char* format :
       {"auto", "graph-def-binary", "meta-graph-binary", "saved-model-binary"}) {
    bool first = format[0] == 'a';
    graphport::harness::Outcome outcome =
        graphport::harness::Exercise(bytes, /*check_exports=*/first, format, /*reload_auto=*/false);
    if (!outcome.failure.empty()) {
      std::fprintf(stderr, "format %s: %s\n", format, outcome.failure.c_str());
      __builtin_trap();
    }
  }
  return 0;
}

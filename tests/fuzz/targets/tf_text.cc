// The TensorFlow text readers (protobuf text format), each kind, then the same checks as every
// target (tests/harness/exercise.h).
#include <string>
#include <string_view>

#include "fuzz/targets/fuzz_targets.h"
#include "harness/exercise.h"

namespace graphport::fuzz {

std::string TfText(std::string_view bytes) {
  for (const char* format : {"graph-def-text", "meta-graph-text", "saved-model-text"}) {
    harness::Outcome outcome = harness::Exercise(bytes, true, format, /*reload_auto=*/false);
    if (!outcome.failure.empty()) return std::string("format ") + format + ": " + outcome.failure;
  }
  return "";
}

}  // namespace graphport::fuzz

// The TensorFlow binary readers. Each input is read as format "auto" and as each kind's binary
// form; whatever loads is inspected, exported every way and read back (tests/harness/exercise.h),
// each output loaded back as the kind it was written as (the sweep checks detection).
#include <string>
#include <string_view>

#include "fuzz/targets/fuzz_targets.h"
#include "harness/exercise.h"

namespace graphport::fuzz {

std::string TfBinary(std::string_view bytes) {
  // Detection and every export once; each kind's reader forced on the same bytes, loaded and
  // inspected (the exports of what a forced reader makes are fuzz_tf_export's job).
  for (const char* format :
       {"auto", "graph-def-binary", "meta-graph-binary", "saved-model-binary"}) {
    bool first = format[0] == 'a';
    harness::Outcome outcome =
        harness::Exercise(bytes, /*check_exports=*/first, format, /*reload_auto=*/false);
    if (!outcome.failure.empty()) return std::string("format ") + format + ": " + outcome.failure;
  }
  return "";
}

}  // namespace graphport::fuzz

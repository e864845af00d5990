// Tells which TensorFlow serialization a run of bytes is, and why.
#ifndef GRAPHPORT_TF_DETECT_H_
#define GRAPHPORT_TF_DETECT_H_

#include <string>
#include <string_view>

#include "tf/tf_format.h"

namespace graphport::tf {

struct TfDetection {
  bool found = false;
  TfFormat format;
  // Why this format was chosen, or (when !found) why each candidate was ruled out, with
  // byte offsets: shown to the user either way.
  std::string reason;
};

// Text protobuf holds no control bytes besides tab, newline and carriage return; binary
// protobuf nearly always does (small tags and lengths).
bool LooksLikeText(std::string_view prefix);

// `prefix` is the start of the input (or all of it, when `complete`). Binary input is walked
// over its first kBinaryDetectionScanBytes.
TfDetection DetectTf(std::string_view prefix, bool complete);

// With the kind fixed by the caller, only text versus binary is detected.
TfFormat DetectEncoding(TfKind kind, std::string_view prefix);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_DETECT_H_

// The output set of a check (graphport check, model.check()): the caller wants what an export
// would check, not its files. A family that honours it runs everything the export runs up to
// its writer, opens nothing, and returns the info record with what its checks found in
// info.check; one that does not writes into it, and it keeps nothing.
#ifndef GRAPHPORT_CORE_CHECK_OUTPUT_SET_H_
#define GRAPHPORT_CORE_CHECK_OUTPUT_SET_H_

#include <string>

#include "core/byte_stream.h"
#include "core/output_set.h"

namespace graphport {

class CheckOutputSet : public OutputSet {
 public:
  ByteSink* Open(const std::string& /*name*/) override { return &sink_; }
  void Close() override {}

 private:
  CountingSink sink_;
};

// True when `out` asks for the checks only.
inline bool ChecksOnly(const OutputSet& out) {
  return dynamic_cast<const CheckOutputSet*>(&out) != nullptr;
}

}  // namespace graphport

#endif  // GRAPHPORT_CORE_CHECK_OUTPUT_SET_H_

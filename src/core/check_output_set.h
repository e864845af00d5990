// The output set of a check (graphport check, model.check()): the caller wants what an export
// would find, not its files. A family that honours it runs everything the export runs, its
// writer included, into this set, which keeps nothing (so what the writer refuses is still an
// error); it leaves out only the writer of an export its checks refuse, and returns the info
// record with what they found in info.check.
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

// True when `out` is a check's: a pre-flight that refuses reports instead of throwing.
inline bool ChecksOnly(const OutputSet& out) {
  return dynamic_cast<const CheckOutputSet*>(&out) != nullptr;
}

}  // namespace graphport

#endif  // GRAPHPORT_CORE_CHECK_OUTPUT_SET_H_

// The operator registrations MegEngine's serializer knows, as data.
#ifndef GRAPHPORT_MGE_OPR_TOKENS_H_
#define GRAPHPORT_MGE_OPR_TOKENS_H_

#include <cstddef>

namespace graphport::mge {

struct OprToken {
  const char* token;  // the class token of the registration macro: "ConvolutionV2"
  bool v1;            // registered for FBS v1 (and FBS_V2 at opr_version 1)
  bool v2_at_2;       // registered for FBS_V2 at opr_version 2
};

extern const OprToken kOprTokens[];
extern const size_t kOprTokenCount;

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_OPR_TOKENS_H_

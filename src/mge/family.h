// The MegEngine family: detects, reads, inspects and re-dumps MegEngine model files (FBS v1,
// FBS_V2, mgbtest0) with the options of Network.dump.
#ifndef GRAPHPORT_MGE_FAMILY_H_
#define GRAPHPORT_MGE_FAMILY_H_

#include "core/family.h"

namespace graphport::mge {

const Family& MegengineFamily();

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_FAMILY_H_

// The MegEngine family: files written by MegEngine's Network.dump / trace.dump.
#ifndef GRAPHPORT_MGE_FAMILY_H_
#define GRAPHPORT_MGE_FAMILY_H_

#include "core/family.h"

namespace graphport::mge {

const Family& MegengineFamily();

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_FAMILY_H_

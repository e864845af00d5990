// The TensorFlow.js family: graph models (model.json with weight shards), read into the
// TensorFlow family's form.
#ifndef GRAPHPORT_TFJS_FAMILY_H_
#define GRAPHPORT_TFJS_FAMILY_H_

#include "core/family.h"

namespace graphport::tfjs {

const Family& TfjsFamily();

}  // namespace graphport::tfjs

#endif  // GRAPHPORT_TFJS_FAMILY_H_

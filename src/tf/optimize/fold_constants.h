// Grappler's constant folding as far as tfjs-converter's output shows it (research:
// savedmodel_freeze.md §4.3, `constfold`): a node whose data inputs are all Consts, of an op
// tf/optimize/constant_ops evaluates, is rewritten in place as the Const of its value: same
// name (the name the converter's weight then carries), same device, its control inputs and
// those of the Consts it read kept. Repeated until nothing folds, so chains fold onto their
// last node. Nodes named in `roots` (the graph's inputs and outputs) are never folded, and a
// value larger than its inputs and than 100 KiB is not made (Grappler's cap: folding must
// not grow the model). The Consts a fold leaves unread go with the next pruning.
#ifndef GRAPHPORT_TF_OPTIMIZE_FOLD_CONSTANTS_H_
#define GRAPHPORT_TF_OPTIMIZE_FOLD_CONSTANTS_H_

#include <map>
#include <string>
#include <vector>

#include "tensorflow/graph.pb.h"

namespace graphport::tf {

struct ConstantFolding {
  std::map<std::string, int> folded;  // by op
  int too_large = 0;                  // left unfolded by the size cap
};

ConstantFolding FoldConstants(tensorflow::GraphDef* graph, const std::vector<std::string>& roots);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_OPTIMIZE_FOLD_CONSTANTS_H_

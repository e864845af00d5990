// The output args of TensorFlow's ops with more than one output arg or a list output, from
// TensorFlow's registry (op_outputs_table.inc, made by scripts/gen-op-outputs.mjs): what a
// freeze needs to read "node:arg:i" in a function body when the model's stripped_op_list
// lacks the op. Every other op of the registry has one single output.
#ifndef GRAPHPORT_TF_FREEZE_OP_OUTPUTS_H_
#define GRAPHPORT_TF_FREEZE_OP_OUTPUTS_H_

#include <string>
#include <vector>

namespace graphport::tf {

struct OutputArgLayout {
  std::string name;
  std::string number_attr;     // a list whose length this int attr gives
  std::string type_list_attr;  // a list of the types this list(type) attr gives
};

// False when the registry gives `op` a single output (or does not know it).
bool BuiltinOutputArgs(const std::string& op, std::vector<OutputArgLayout>* args);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_FREEZE_OP_OUTPUTS_H_

// What an export's freeze options (freeze, signature) ask of a TensorFlow model: whether to
// freeze, and the frozen model the export then writes instead of the loaded one.
#ifndef GRAPHPORT_TF_FREEZE_FREEZE_EXPORT_H_
#define GRAPHPORT_TF_FREEZE_FREEZE_EXPORT_H_

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "core/input_set.h"
#include "core/option_schema.h"
#include "tf/tf_model.h"

namespace graphport::tf {

// The ops of `model` that TensorFlow's runtime alone can run, which a freeze removes:
// variables, variable reads, function calls and text file table initializers, with their
// counts.
std::map<std::string, uint64_t> OpsNeedingFreeze(const TfModel& model);

struct FrozenModel {
  std::unique_ptr<TfModel> model;  // null: the export writes the loaded model
  nlohmann::json report;           // info.frozen
  // A check's (checks_only) freeze: false that an export refuses: the error it throws, as
  // {code, option, message}; null otherwise. The loaded graph is then checked as it is, so
  // the report names every op the runtime lacks, with its nodes.
  nlohmann::json refusal;
};

// Freezes when `values` ask for it: freeze: true, or freeze unset with to: 'tfjs' on a model
// that needs it. The checkpoint is `<folder>/variables/variables` in `inputs`. Throws
// Error(kInvalidOption) for freeze: false with to: 'tfjs' on a model that needs it (a check,
// `checks_only`, gets it in `refusal` instead), and for a freeze of a GraphDef (it has no
// signature); what Freeze throws otherwise.
FrozenModel FreezeForExport(const TfModel& model, InputSet* inputs, const std::string& folder,
                            const OptionValues& values, bool checks_only = false);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_FREEZE_FREEZE_EXPORT_H_

// Where a freeze reads variable values: a SavedModel's checkpoint (variables/), behind an
// interface so the freeze does not depend on how the bytes are stored.
#ifndef GRAPHPORT_TF_FREEZE_VARIABLE_STORE_H_
#define GRAPHPORT_TF_FREEZE_VARIABLE_STORE_H_

#include <string>

#include "tensorflow/tensor.pb.h"
#include "tensorflow/trackable_object_graph.pb.h"

namespace graphport::tf {

class VariableStore {
 public:
  virtual ~VariableStore() = default;
  // True when a value is saved under checkpoint key `key`.
  virtual bool Has(const std::string& key) = 0;
  // Fills `out` (dtype, shape, content) with the value saved under `key`; throws Error
  // (kNotFound when absent, kParseError when its bytes are damaged).
  virtual void Read(const std::string& key, tensorflow::TensorProto* out) = 0;
  // The TF2 checkpoint's object graph; false for a TF1 checkpoint, which has none.
  virtual bool ReadObjectGraph(tensorflow::TrackableObjectGraph* out) = 0;
  // How messages name the checkpoint ("saved_model/variables/variables").
  virtual std::string label() const = 0;
};

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_FREEZE_VARIABLE_STORE_H_

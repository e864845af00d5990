// The VariableStore of a SavedModel folder: its checkpoint (variables/variables.index and the
// data shards), read through tf/checkpoint.
#ifndef GRAPHPORT_TF_FREEZE_CHECKPOINT_STORE_H_
#define GRAPHPORT_TF_FREEZE_CHECKPOINT_STORE_H_

#include <memory>
#include <string>

#include "core/input_set.h"
#include "tf/checkpoint/checkpoint.h"
#include "tf/freeze/variable_store.h"

namespace graphport::tf {

class CheckpointStore : public VariableStore {
 public:
  // Null when `inputs` has no `<prefix>.index`; throws what Checkpoint::Open throws.
  static std::unique_ptr<CheckpointStore> Open(InputSet* inputs, const std::string& prefix);

  bool Has(const std::string& key) override { return checkpoint_->Find(key) != nullptr; }
  void Read(const std::string& key, tensorflow::TensorProto* out) override;
  bool ReadObjectGraph(tensorflow::TrackableObjectGraph* out) override {
    return checkpoint_->ReadObjectGraph(out);
  }
  std::string label() const override { return label_; }

 private:
  CheckpointStore(std::unique_ptr<checkpoint::Checkpoint> checkpoint, std::string label)
      : checkpoint_(std::move(checkpoint)), label_(std::move(label)) {}
  std::unique_ptr<checkpoint::Checkpoint> checkpoint_;
  std::string label_;
};

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_FREEZE_CHECKPOINT_STORE_H_

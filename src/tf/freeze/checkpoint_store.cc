#include "tf/freeze/checkpoint_store.h"

#include "core/error.h"

namespace graphport::tf {

std::unique_ptr<CheckpointStore> CheckpointStore::Open(InputSet* inputs,
                                                       const std::string& prefix) {
  if (!inputs->Has(prefix + ".index")) return nullptr;
  return std::unique_ptr<CheckpointStore>(new CheckpointStore(
      checkpoint::Checkpoint::Open(inputs, prefix), inputs->DisplayName(prefix)));
}

void CheckpointStore::Read(const std::string& key, tensorflow::TensorProto* out) {
  const checkpoint::VariableEntry* entry = checkpoint_->Find(key);
  if (entry == nullptr) {
    throw Error(ErrorCode::kNotFound, "checkpoint " + label_ + " holds no key '" + key + "'");
  }
  checkpoint_->ReadTensor(*entry, out);
}

}  // namespace graphport::tf

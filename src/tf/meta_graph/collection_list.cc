#include "tf/meta_graph/collection_list.h"

#include <set>

#include "core/error.h"
#include "core/message_text.h"

namespace graphport::tf {

// Inputs made unbound are listed once each, data inputs only: TensorFlow lists every use and
// so breaks its own importer when one outside tensor feeds two nodes (issue #10250), and its
// collection filter drops the control form ("^$unbound_inputs_x").
std::vector<std::string> UnboundCollectionValues(const std::vector<std::string>& unbound) {
  std::vector<std::string> values;
  std::set<std::string> seen;
  for (const auto& name : unbound) {
    if (name.empty() || name[0] == '^') continue;
    if (seen.insert(name).second) values.push_back(name);
  }
  return values;
}

std::vector<std::string> ExportedCollectionKeys(
    const tensorflow::MetaGraphDef* loaded,
    const std::optional<std::vector<std::string>>& collection_list) {
  std::set<std::string> available;
  if (loaded != nullptr) {
    for (const auto& [key, value] : loaded->collection_def()) available.insert(key);
  }
  if (!collection_list) return std::vector<std::string>(available.begin(), available.end());
  std::vector<std::string> missing;
  for (const auto& key : *collection_list) {
    if (!available.count(key) && key != kUnboundInputsKey) missing.push_back(key);
  }
  if (!missing.empty()) {
    for (auto& k : missing) k = "'" + k + "'";
    std::string list = JoinForMessage(missing, ", ");
    std::string have =
        JoinForMessage(std::vector<std::string>(available.begin(), available.end()), ", ");
    throw Error(ErrorCode::kNotFound,
                "collectionList names " + list + ", not in the model" +
                    (have.empty() ? " (it has no collections)" : " (it has: " + have + ")"));
  }
  return *collection_list;
}

}  // namespace graphport::tf

// The collection_list option, and the unbound_inputs collection that a node rewrite rebuilds.
#ifndef GRAPHPORT_TF_META_GRAPH_COLLECTION_LIST_H_
#define GRAPHPORT_TF_META_GRAPH_COLLECTION_LIST_H_

#include <optional>
#include <string>
#include <vector>

#include "tensorflow/meta_graph.pb.h"

namespace graphport::tf {

inline constexpr char kUnboundInputsKey[] = "unbound_inputs";

// The keys to export: `collection_list` when given (NOT_FOUND naming the keys the model lacks;
// unbound_inputs may always be asked for), else every key of the loaded MetaGraphDef, sorted.
std::vector<std::string> ExportedCollectionKeys(
    const tensorflow::MetaGraphDef* loaded,
    const std::optional<std::vector<std::string>>& collection_list);

// The unbound_inputs collection's values for the inputs a rewrite made unbound.
std::vector<std::string> UnboundCollectionValues(const std::vector<std::string>& unbound);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_META_GRAPH_COLLECTION_LIST_H_

// The tables of an initializer graph that TensorFlow fills from a text file
// (InitializeTableFromTextFile, InitializeTableFromTextFileV2) are filled from the file read
// now: TF.js cannot run those ops and has no file system to read the file from. Each such node
// becomes a LookupTableImport (V2 for V2) of Consts "<node>/keys" and "<node>/values" holding
// what TensorFlow would have read (text_file_table.h). Shared by the TF2 path
// (table_initializer.h) and the TF1 path (tf1_table_initializer.h).
#ifndef GRAPHPORT_TF_FREEZE_TEXT_FILE_INITIALIZERS_H_
#define GRAPHPORT_TF_FREEZE_TEXT_FILE_INITIALIZERS_H_

#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "tensorflow/graph.pb.h"
#include "tf/meta_graph/op_registry.h"

namespace graphport::tf {

// Reads the asset file `filename` (as the MetaGraphDef's asset_file_def names it) into
// *bytes; false when the SavedModel's assets/ folder was not given or lacks it. *label names
// the file in messages.
using AssetReader =
    std::function<bool(const std::string& filename, std::string* bytes, std::string* label)>;

struct TextFileTablesContext {
  // The graph's nodes that hold an asset's path (a Const, or the Placeholder TF1's loader
  // feeds), by node name: the asset's filename.
  std::map<std::string, std::string> asset_nodes;
  const OpRegistry* registry = nullptr;  // for attrs left at their defaults
  AssetReader read_asset;
  // Names the table a text file initializer fills, for messages: "table initializer 'n'"
  // and what the caller adds (the resource, the init op).
  std::function<std::string(const std::string& node)> describe;
};

// Rewrites every text file initializer of `graph` whose file name is an asset (through
// Identities). Returns info.frozen.tables.fromTextFiles: one {node, asset, keyIndex,
// valueIndex, lines, entries, madeOp} per node rewritten. Throws Error(kUnsupported) naming
// the node when it fills no hash table of its version (TF.js has only hash tables), when its
// file is no asset or the asset was not given, and what ReadTextFileTable throws.
nlohmann::json FillTextFileTables(tensorflow::GraphDef* graph,
                                  const TextFileTablesContext& context);

// True for the ops that fill a table: InitializeTable(V2), InitializeTableFromTextFile(V2),
// LookupTableImport(V2).
bool IsTableInitOp(const std::string& op);

// True for the ops that make a lookup table (HashTable(V2), MutableHashTable..., the
// MutableDenseHashTable ones).
bool IsTableOp(const std::string& op);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_FREEZE_TEXT_FILE_INITIALIZERS_H_

// What the graph optimizations share: node lookups by name, consumer counts, the nodes that
// must keep their names (the graph's inputs and outputs), and edits that keep node order.
#ifndef GRAPHPORT_TF_OPTIMIZE_GRAPH_EDIT_H_
#define GRAPHPORT_TF_OPTIMIZE_GRAPH_EDIT_H_

#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "tensorflow/graph.pb.h"
#include "tf/input_name.h"

namespace graphport::tf {

bool IsControlInput(const std::string& input);

// The node names of graph tensors ("node", "node:i").
std::set<std::string> NodeNamesOf(const std::vector<std::string>& tensors);

// How many of the node's inputs are data inputs (not "^control" ones).
int DataInputCount(const tensorflow::NodeDef& node);

// The node named `name`, or null, by a walk over the graph: for a few lookups (GraphDefIndex for
// many).
const tensorflow::NodeDef* FindNode(const tensorflow::GraphDef& graph, const std::string& name);

// The node `input` reaches once Identities are passed (at most 64), with the output it reads
// in `*index`; null when a node is missing or the chain is longer.
const tensorflow::NodeDef* PastIdentities(
    const std::unordered_map<std::string, const tensorflow::NodeDef*>& nodes,
    const std::string& input, int* index);

// An index of a graph as it is when built; rebuild it after an edit that adds or removes nodes.
class GraphDefIndex {
 public:
  explicit GraphDefIndex(const tensorflow::GraphDef& graph);
  // The node named `name`, or null.
  tensorflow::NodeDef* Find(tensorflow::GraphDef* graph, const std::string& name) const;
  const tensorflow::NodeDef* Find(const tensorflow::GraphDef& graph, const std::string& name) const;
  // The node's position in the graph, or -1.
  int IndexOf(const std::string& name) const;
  int DataConsumers(const std::string& name) const;
  int ControlConsumers(const std::string& name) const;
  int Consumers(const std::string& name) const {
    return DataConsumers(name) + ControlConsumers(name);
  }
  // True when some input reads an output of `name` other than 0 ("name:1").
  bool ReadPastOutput0(const std::string& name) const { return read_past_output0_.count(name); }

 private:
  std::unordered_map<std::string, int> by_name_;
  std::unordered_map<std::string, int> data_consumers_;
  std::unordered_map<std::string, int> control_consumers_;
  std::set<std::string> read_past_output0_;
};

// True when `input` is a data input reading output 0 of node `name` ("name" or "name:0").
bool ReadsOutput0(const std::string& input, const std::string& name);

// The node's op when it is a Const (no inputs but control ones), for a check of the producer
// of an input; null when `input` names no node or a node of another op.
const tensorflow::NodeDef* ConstInput(const tensorflow::GraphDef& graph, const GraphDefIndex& index,
                                      const std::string& input);

// Removes the named nodes, keeping the order of the others. Returns how many went.
int EraseNodes(tensorflow::GraphDef* graph, const std::set<std::string>& names);

// Points every input that reads a node of `renamed` (data "a", "a:0" only for output 0,
// and control "^a") at the node it maps to. Returns the number of inputs changed.
int RedirectConsumers(tensorflow::GraphDef* graph,
                      const std::map<std::string, std::string>& renamed);

// Rewrites graph tensors in `tensors` ("a", "a:0") whose node was renamed.
void RenameTensors(const std::map<std::string, std::string>& renamed,
                   std::vector<std::string>* tensors);

// What a fusion pass does to a graph, gathered while it walks the nodes (its GraphDefIndex stays
// valid) and applied once at the end.
struct Fusions {
  std::set<std::string> gone;                  // nodes folded into others
  std::map<std::string, std::string> renamed;  // a gone node -> the node its readers read now
  int count = 0;                               // fusions made

  // `node` is folded into `into`: its control inputs move there and its readers read `into`.
  void Absorb(const tensorflow::NodeDef& node, tensorflow::NodeDef* into);
  // Erases the gone nodes, points their readers and the graph's `outputs` at the nodes that
  // took their place; returns `count`.
  int Apply(tensorflow::GraphDef* graph, std::vector<std::string>* outputs) const;
};

// Adds `input` among `node`'s data inputs, before its control inputs.
void AddDataInput(tensorflow::NodeDef* node, const std::string& input);

// Adds control input "^name" unless `node` already has it.
void AddControlInput(tensorflow::NodeDef* node, const std::string& name);

// The attr `key` of `node`, or null.
const tensorflow::AttrValue* FindAttr(const tensorflow::NodeDef& node, const std::string& key);

// The string attr `key` of `node` ("" when absent).
std::string StringAttr(const tensorflow::NodeDef& node, const std::string& key);

// Adds the attrs a convolution (Conv2D, DepthwiseConv2dNative and their fused forms) has by
// its OpDef's defaults when `node` lacks them: data_format NHWC, dilations [1,1,1,1],
// explicit_paddings [] and, with `cudnn`, use_cudnn_on_gpu true. SavedModels strip default
// attrs; the converter's import through TensorFlow puts them back, and its output has them.
void AddConvolutionDefaults(tensorflow::NodeDef* node, bool cudnn);

// True when a 4-D op's data_format is NHWC (also when it is absent: the op default).
bool IsNhwc(const tensorflow::NodeDef& node);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_OPTIMIZE_GRAPH_EDIT_H_

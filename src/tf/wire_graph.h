// A binary GraphDef kept as its own bytes: the nodes are an index into the input (offset,
// length, name, op), the function library is a span of it (or, written otherwise, its
// canonical bytes) with each function's name, and only the rest of the graph (versions, debug
// info) is parsed.
// Loading a node-heavy graph then costs a walk over its bytes instead of a message per node,
// and the model holds the file once. Writers copy a node's bytes when no option changes it
// and the bytes are what libprotobuf would write (proto::CheckWire's "canonical"; a node
// written otherwise gets that form over its bytes at load when it fits); any other node is
// parsed into a scratch NodeDef when it is written.
#ifndef GRAPHPORT_TF_WIRE_GRAPH_H_
#define GRAPHPORT_TF_WIRE_GRAPH_H_

#include <google/protobuf/arena.h>
#include <google/protobuf/io/coded_stream.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/block_vector.h"
#include "tensorflow/graph.pb.h"

namespace graphport::tf {

// One node of the index: 28 bytes, a seventh of a typical node's own bytes (a held graph is
// under 4 GiB, so offsets fit 32 bits; the op is a number into the graph's op list).
struct WireNode {
  uint32_t offset = 0;  // of the node's payload in bytes()
  uint32_t length = 0;
  uint32_t name_offset = 0, name_length = 0;  // the node's name in bytes()
  uint32_t device_bytes = 0;   // the bytes of its `device` records (tag and length included)
  uint32_t op = 0;             // into WireGraph::ops()
  bool canonical = true;       // copying the bytes equals re-serialising the parsed node
  bool unbound_input = false;  // an input names "$unbound_inputs_..." (a scoped export's)
  // Where in the payload its first `device` record starts, so that clearDevices copies what
  // comes before and after it without walking the records again; kFarDevice when that is
  // past what fits here (in the padding the struct has anyway).
  uint16_t device_offset = kFarDevice;
  static constexpr uint16_t kFarDevice = 0xFFFF;
};

// What an export does with each node of a WireGraph, decided before a byte is written: copy
// its bytes (canonical ones as they are, the others re-serialised), leave it out, edit its
// bytes (exportScope renames), or write a rewritten form made from its parse (what an edit
// cannot do: stripDefaultAttrs compares attr values, the scope rewrites colocation attrs).
struct NodePlan {
  enum Action : uint8_t { kCopy, kSkip, kRewrite, kEdit };
  bool drop_devices = false;     // copied nodes lose their `device`
  bool copy_library = false;     // the library kept as bytes follows the nodes as it is
  std::vector<uint8_t> actions;  // an Action per node; empty: every node is copied
  std::vector<uint32_t> sizes;   // per node: the payload size of a kRewrite or kEdit node
  // Makes a kRewrite node's exported form from its parse (`out` is fresh, on the same arena);
  // the same form as a kEdit node's, which text output prints from it.
  std::function<void(const tensorflow::NodeDef& in, tensorflow::NodeDef* out)> rewrite;
  // Writes a kEdit node's exported payload from its bytes.
  std::function<void(std::string_view bytes, google::protobuf::io::CodedOutputStream* out)> edit;

  Action For(size_t i) const { return actions.empty() ? kCopy : static_cast<Action>(actions[i]); }
};

// A function of a library kept as bytes: what inspect() and an export's plan read of it.
struct WireFunction {
  std::string_view name;  // signature.name
  uint32_t node_count = 0;
};

class WireGraph {
 public:
  // Indexes `bytes` as a GraphDef; the header is parsed on `arena`. Returns null when the
  // bytes need libprotobuf's own parse: not (surely) valid, or over `max_memory_bytes` once
  // parsed (0: no limit). The caller then parses them, which gives the exact error.
  // On success the bytes move into the result; otherwise `*bytes` is left as it was.
  static std::unique_ptr<WireGraph> Index(std::string* bytes, uint64_t max_memory_bytes,
                                          google::protobuf::Arena* arena);
  // The same for a GraphDef inside a larger message (a MetaGraphDef's graph_def): its payload
  // is bytes[begin, begin + length). `parse_header` is given all the bytes and the GraphDef's
  // records but its nodes, and returns where it parsed them (the enclosing message's
  // graph_def, parsed with the rest of it), or null when they do not parse. The node offsets
  // are into all of `bytes`.
  using HeaderParse =
      std::function<tensorflow::GraphDef*(std::string_view bytes, const std::string& header_bytes)>;
  static std::unique_ptr<WireGraph> IndexNested(std::string* bytes, uint64_t begin, uint64_t length,
                                                uint64_t max_memory_bytes,
                                                const HeaderParse& parse_header);

  const std::string& bytes() const { return bytes_; }
  const BlockVector<WireNode>& nodes() const { return nodes_; }
  std::string_view name(size_t i) const {
    return std::string_view(bytes_).substr(nodes_[i].name_offset, nodes_[i].name_length);
  }
  std::string_view op(size_t i) const { return ops_[nodes_[i].op]; }
  // Each op the nodes use, once, in the order they first appear.
  const std::vector<std::string_view>& ops() const { return ops_; }
  // Every field of the GraphDef but its nodes and, when library_kept(), its library.
  const tensorflow::GraphDef& header() const { return *header_; }
  // Whether the library is kept as bytes (one record, without fields the schema lacks) rather
  // than parsed in the header.
  bool library_kept() const { return library_kept_; }
  // Its bytes as libprotobuf writes them: the input's own, or (input written otherwise) the
  // library's deterministic serialisation, made once at load.
  std::string_view LibraryBytes() const {
    return std::string_view(canonical_library_.empty() ? bytes_ : canonical_library_)
        .substr(library_offset_, library_length_);
  }
  // The library's functions, in order, whether kept as bytes or parsed in the header.
  const std::vector<WireFunction>& functions() const { return functions_; }
  // The library as a message: the header's, or a parse of the kept bytes on `arena` (for an
  // export that reads or changes its functions; the model keeps only the bytes).
  tensorflow::FunctionDefLibrary* ParseLibrary(google::protobuf::Arena* arena) const;
  const tensorflow::FunctionDefLibrary& Library(google::protobuf::Arena* arena) const {
    return library_kept_ ? *ParseLibrary(arena) : header_->library();
  }
  bool all_canonical() const { return all_canonical_; }
  // Each op the nodes use, sorted, with how many nodes use it.
  const std::vector<std::pair<std::string_view, uint64_t>>& op_counts() const { return op_counts_; }
  std::string_view NodeBytes(size_t i) const {
    return std::string_view(bytes_).substr(nodes_[i].offset, nodes_[i].length);
  }

  // Nodes written otherwise than libprotobuf writes them (attrs in hash order, as TensorFlow's
  // C++ writer leaves them) get its form written over their bytes where it takes as many
  // (no field the schema lacks, nothing left out), so that every export copies them instead of
  // parsing them again. Done once, by the first export: a model only inspected never pays for
  // it. The nodes stay the same messages.
  void RewriteCanonically();
  // Parses node `i` into `node` (which the caller clears or makes fresh).
  void ParseNode(size_t i, tensorflow::NodeDef* node) const;
  // Parses every node (and a kept library) into the header, which is then the whole graph, as
  // a parse of the graph's bytes gives it; after that the index and bytes are no longer needed.
  tensorflow::GraphDef* ParseIntoHeader();

  // The nodes as GraphDef field records (tag, length, payload), as `plan` says, and then the
  // kept library's record when the plan copies it: the size, and the writing.
  uint64_t RecordsSize(const NodePlan& plan) const;
  void WriteRecords(const NodePlan& plan, google::protobuf::io::CodedOutputStream* out) const;
  // A copied node's exported form when its bytes cannot be copied (not canonical), on
  // `arena`: the parse, without its device when the plan drops devices.
  tensorflow::NodeDef* Reparsed(size_t i, const NodePlan& plan,
                                google::protobuf::Arena* arena) const;
  // A kRewrite node's exported form, on `arena`.
  tensorflow::NodeDef* Rewritten(size_t i, const NodePlan& plan,
                                 google::protobuf::Arena* arena) const;

 private:
  WireGraph() = default;
  // Indexes the nodes of the GraphDef at bytes[begin, begin + length), appending its other
  // records to `header_bytes`; false when a node is not (surely) valid or over the budget.
  bool IndexBytes(const std::string& bytes, uint64_t begin, uint64_t length,
                  uint64_t max_memory_bytes, std::string* header_bytes);
  // Writes the node's deterministic serialisation over its bytes when it has the same length
  // and no field the schema lacks; false (bytes unchanged) when it cannot.
  static bool RewriteNode(uint8_t* payload, size_t length, google::protobuf::Arena* scratch);
  struct OpLookup;  // the op numbers given so far (wire_graph.cc)
  uint32_t OpNumber(std::string_view op, OpLookup* lookup);
  // OpNumber when the cache does not know the op: sets `*cached`, its slot.
  uint32_t NewOpNumber(std::string_view op, uint32_t* cached, OpLookup* lookup);
  // Keeps the library record's payload as bytes: its own when canonical, else its
  // deterministic serialisation; leaves it to the header (parsed) when it holds fields the
  // schema lacks. False when it is not valid.
  bool KeepLibrary(const uint8_t* base, const uint8_t* value, uint64_t length,
                   uint64_t* parsed_bytes);
  void ListHeaderFunctions();
  // The payload of a copied node `i` as it is written: its bytes, or its re-serialisation.
  uint64_t CopiedSize(size_t i, const NodePlan& plan) const;

  std::string bytes_;
  BlockVector<WireNode> nodes_;  // in blocks: indexed in one pass, never reallocated
  tensorflow::GraphDef* header_ = nullptr;
  bool all_canonical_ = true;
  bool library_kept_ = false;
  uint32_t library_offset_ = 0, library_length_ = 0;  // in bytes_, or in canonical_library_
  std::string canonical_library_;
  std::vector<WireFunction> functions_;
  std::vector<uint32_t> written_otherwise_;  // nodes not canonical, until RewriteCanonically()
  // What RecordsSize gives for a plan that copies every node, with devices and without (when
  // all are canonical): summed while indexing, so such an export does not go over the nodes
  // twice.
  uint64_t copied_records_bytes_ = 0, copied_records_bytes_without_devices_ = 0;
  std::vector<std::string_view> ops_;
  std::vector<std::pair<std::string_view, uint64_t>> op_counts_;
};

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_WIRE_GRAPH_H_

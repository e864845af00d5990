#include "tf/wire_graph.h"

#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <algorithm>
#include <unordered_map>

#include "core/byte_stream.h"
#include "core/copy_bytes.h"
#include "core/error.h"
#include "core/same_bytes.h"
#include "proto/deterministic_bytes.h"
#include "proto/proto_io.h"
#include "proto/short_copy.h"
#include "proto/unknown_fields.h"
#include "proto/wire_check.h"
#include "proto/wire_reader.h"
#include "tensorflow/schemas.h"
#include "tf/field_numbers.h"

namespace graphport::tf {
namespace {

using google::protobuf::Arena;
using google::protobuf::io::CodedOutputStream;
using proto::ReadRecord;
using proto::Record;

constexpr uint8_t kNodeTag = (fields::kGraphNode << 3) | 2,
                  kLibraryTag = (fields::kGraphLibrary << 3) | 2;
constexpr std::string_view kUnboundPrefix = "$unbound_inputs_";

// A GraphDef.node record of a `payload`-byte node: its tag, length and payload.
uint64_t RecordBytes(uint64_t payload) {
  return 1 + CodedOutputStream::VarintSize64(payload) + payload;
}

// "$unbound_inputs_x", or the control input "^$unbound_inputs_x". Inputs seldom start with
// '$': that one byte settles nearly all of them.
bool IsUnboundInput(std::string_view input) {
  if (!input.empty() && input[0] == '^') input.remove_prefix(1);
  return !input.empty() && input[0] == '$' &&
         input.substr(0, kUnboundPrefix.size()) == kUnboundPrefix;
}

// Notes one of a node's top-level records in its index entry: its name and whether an input
// is unbound; its device records' bytes and where the first one starts. Returns the op when
// it is one.
inline void NoteNodeRecord(int number, const uint8_t* start, const uint8_t* value,
                           const uint8_t* end, const uint8_t* payload, const uint8_t* base,
                           WireNode* node, std::string_view* op) {
  const std::string_view text(reinterpret_cast<const char*>(value), end - value);
  switch (number) {
    case fields::kNodeName:
      // A repeated singular field: the last one wins, as in a parse.
      node->name_offset = static_cast<uint32_t>(value - base);
      node->name_length = static_cast<uint32_t>(end - value);
      break;
    case fields::kNodeOp:
      *op = text;
      break;
    case fields::kNodeInput:
      if (IsUnboundInput(text)) node->unbound_input = true;
      break;
    case fields::kNodeDevice:
      if (node->device_bytes == 0 && start - payload < WireNode::kFarDevice) {
        node->device_offset = static_cast<uint16_t>(start - payload);
      }
      node->device_bytes += static_cast<uint32_t>(end - start);
      break;
    default:
      break;
  }
}

// The fields NoteNodeRecord reads, as WireChecker::Watch takes them.
constexpr uint32_t kNotedFields = 1u << fields::kNodeName | 1u << fields::kNodeOp |
                                  1u << fields::kNodeInput | 1u << fields::kNodeDevice;

// NoteNodeRecord for each of the records the check listed: the walk that checked the node
// found them, so its records are not read a second time.
std::string_view NoteNode(const std::vector<proto::WatchedRecord>& records, const uint8_t* payload,
                          const uint8_t* base, WireNode* node) {
  std::string_view op;
  for (const proto::WatchedRecord& r : records) {
    NoteNodeRecord(r.number, r.start, r.value, r.value + r.length, payload, base, node, &op);
  }
  return op;
}

// The same from the node's bytes, for a node rewritten after the check.
std::string_view ScanNode(const uint8_t* payload, const uint8_t* end, const uint8_t* base,
                          WireNode* node) {
  std::string_view op;
  Record r;
  for (const uint8_t* p = payload; p < end && ReadRecord(p, end, &r); p = r.end) {
    if (r.wire_type == 2) {
      NoteNodeRecord(r.number, r.start, r.value, r.end, payload, base, node, &op);
    }
  }
  return op;
}

// Writes the whole record (tag, length, payload) of a short canonical node, without its
// device records when `drop_devices`, into room asked of the stream once: a node's runs
// written one by one asked for room three or four times, a call each in WebAssembly. False,
// with nothing written, when the record is long or the stream's buffer is near its end.
bool CopyShortRecord(const WireNode& node, const uint8_t* payload, bool drop_devices,
                     CodedOutputStream* out) {
  if (drop_devices && node.device_offset == WireNode::kFarDevice) return false;
  const uint32_t cut = drop_devices ? node.device_bytes : 0;
  const uint32_t length = node.length - cut;
  const size_t record = 1 + CodedOutputStream::VarintSize32(length) + length;
  if (record > kShortCopyMax) return false;
  uint8_t* dst = out->GetDirectBufferForNBytesAndAdvance(static_cast<int>(record));
  if (dst == nullptr) return false;
  *dst++ = kNodeTag;
  dst = CodedOutputStream::WriteVarint32ToArray(length, dst);
  const size_t before = drop_devices ? node.device_offset : node.length;
  CopyBytes(dst, payload, before);
  CopyBytes(dst + before, payload + before + cut, node.length - before - cut);
  return true;
}

}  // namespace

// Op numbers by op name, with a direct-mapped cache in front: a graph has few ops, and
// comparing a node's op with the one its length and ends point to costs less than hashing it.
struct WireGraph::OpLookup {
  std::unordered_map<std::string_view, uint32_t> numbers;
  uint32_t cache[256] = {};  // an op number + 1; 0 when the slot is empty

  static size_t Slot(std::string_view op) {
    const size_t ends = op.empty() ? 0
                                   : static_cast<unsigned char>(op.front()) * 31u +
                                         static_cast<unsigned char>(op.back());
    return (op.size() * 131u + ends) & 255u;
  }
};

// The cache's hit inline, the map's work out of line: with the map inside, the index's loop,
// which asks once per node, loaded the nodes graph 3.3 ms slower in WebAssembly (of 29).
[[gnu::always_inline]] inline uint32_t WireGraph::OpNumber(std::string_view op, OpLookup* lookup) {
  uint32_t& cached = lookup->cache[OpLookup::Slot(op)];
  if (cached != 0 && SameBytes(ops_[cached - 1], op)) return cached - 1;
  return NewOpNumber(op, &cached, lookup);
}

std::unique_ptr<WireGraph> WireGraph::Index(std::string* bytes, uint64_t max_memory_bytes,
                                            Arena* arena) {
  return IndexNested(
      bytes, 0, bytes->size(), max_memory_bytes,
      [arena](std::string_view, const std::string& header_bytes) -> tensorflow::GraphDef* {
        auto* header = Arena::CreateMessage<tensorflow::GraphDef>(arena);
        try {
          MemorySource source(header_bytes);
          proto::ParseBinary(&source, header, "header");
        } catch (const Error&) {
          return nullptr;  // the caller's full parse reports it
        }
        return header;
      });
}

std::unique_ptr<WireGraph> WireGraph::IndexNested(std::string* bytes, uint64_t begin,
                                                  uint64_t length, uint64_t max_memory_bytes,
                                                  const HeaderParse& parse_header) {
  if (bytes->size() > UINT32_MAX || begin + length > bytes->size()) return nullptr;
  // Moved in first: the index views the bytes where they will stay (a short string's move
  // copies it).
  std::unique_ptr<WireGraph> graph(new WireGraph());
  graph->bytes_ = std::move(*bytes);
  std::string header_bytes;
  if (graph->IndexBytes(graph->bytes_, begin, length, max_memory_bytes, &header_bytes)) {
    graph->header_ = parse_header(graph->bytes_, header_bytes);
    if (graph->header_ != nullptr) {
      if (!graph->library_kept_) graph->ListHeaderFunctions();
      return graph;
    }
  }
  *bytes = std::move(graph->bytes_);
  return nullptr;
}

bool WireGraph::IndexBytes(const std::string& bytes, uint64_t begin, uint64_t length,
                           uint64_t max_memory_bytes, std::string* header_bytes) {
  const auto* base = reinterpret_cast<const uint8_t*>(bytes.data());
  const uint8_t* p = base + begin;
  const uint8_t* end = p + length;
  uint64_t parsed_bytes = 0;  // what a full parse would take, for the budget
  proto::WireChecker checker(proto::SchemaOf<tensorflow::NodeDef>());
  std::vector<proto::WatchedRecord> noted;
  checker.Watch(kNotedFields, &noted);
  checker.MemoTails(
      fields::kNodeDevice);  // names and inputs differ from node to node; the rest repeats
  Record r;
  std::vector<Record> libraries;  // GraphDef.library records, decided on at the end
  OpLookup op_lookup;
  while (p < end) {
    if (!ReadRecord(p, end, &r)) return false;
    p = r.end;
    if (r.number == fields::kGraphLibrary && r.wire_type == 2) {
      libraries.push_back(r);
      continue;
    }
    if (r.number != fields::kGraphNode || r.wire_type != 2) {
      header_bytes->append(reinterpret_cast<const char*>(r.start), r.end - r.start);
      continue;
    }
    proto::WireCheck check = checker.Check(r.view());
    if (!check.valid) return false;
    if (!check.canonical) written_otherwise_.push_back(static_cast<uint32_t>(nodes_.size()));
    parsed_bytes += check.parsed_bytes;
    WireNode node;
    node.op = OpNumber(NoteNode(noted, r.value, base, &node), &op_lookup);
    node.offset = static_cast<uint32_t>(r.value - base);
    node.length = static_cast<uint32_t>(r.length);
    node.canonical = check.canonical;
    all_canonical_ = all_canonical_ && check.canonical;
    copied_records_bytes_ += RecordBytes(node.length);
    copied_records_bytes_without_devices_ += RecordBytes(node.length - node.device_bytes);
    nodes_.push_back(node);
  }
  // One record: a parse would not merge it with another, so its bytes are the library. Any
  // other number of them is left to the header's parse (the order of records of different
  // fields does not change what it gives).
  if (libraries.size() == 1 &&
      !KeepLibrary(base, libraries[0].value, libraries[0].length, &parsed_bytes)) {
    return false;
  }
  if (!library_kept_) {
    for (const Record& library : libraries) {
      header_bytes->append(reinterpret_cast<const char*>(library.start),
                           library.end - library.start);
    }
  }
  std::vector<uint64_t> counts(ops_.size());
  for (size_t i = 0; i < nodes_.size(); ++i) ++counts[nodes_[i].op];
  for (size_t i = 0; i < ops_.size(); ++i) op_counts_.emplace_back(ops_[i], counts[i]);
  std::sort(op_counts_.begin(), op_counts_.end());
  return max_memory_bytes == 0 || parsed_bytes + header_bytes->size() <= max_memory_bytes;
}

void WireGraph::RewriteCanonically() {
  if (written_otherwise_.empty()) return;
  auto* base = reinterpret_cast<uint8_t*>(bytes_.data());
  Arena scratch;
  for (uint32_t i : written_otherwise_) {
    WireNode& node = nodes_[i];
    uint8_t* payload = base + node.offset;
    if (!RewriteNode(payload, node.length, &scratch)) continue;
    // Its records moved: its name, device and op are found again. The op list's view of the
    // op may have been into this node; it is moved to where the op is now.
    const std::string_view old_op = ops_[node.op];
    WireNode rewritten;
    rewritten.offset = node.offset;
    rewritten.length = node.length;
    rewritten.op = node.op;
    const std::string_view op = ScanNode(payload, payload + node.length, base, &rewritten);
    const auto* old_start = reinterpret_cast<const uint8_t*>(old_op.data());
    if (old_start >= payload && old_start < payload + node.length) {
      ops_[node.op] = op;
      for (auto& [counted, count] : op_counts_) {
        if (counted.data() == old_op.data()) counted = op;
      }
    }
    copied_records_bytes_without_devices_ += RecordBytes(node.length - rewritten.device_bytes);
    copied_records_bytes_without_devices_ -= RecordBytes(node.length - node.device_bytes);
    node = rewritten;
  }
  written_otherwise_.clear();
  written_otherwise_.shrink_to_fit();
  all_canonical_ = true;
  for (size_t i = 0; i < nodes_.size(); ++i) all_canonical_ = all_canonical_ && nodes_[i].canonical;
}

bool WireGraph::RewriteNode(uint8_t* payload, size_t length, Arena* scratch) {
  auto* node = Arena::CreateMessage<tensorflow::NodeDef>(scratch);
  bool rewritten = false;
  if (node->ParseFromArray(payload, static_cast<int>(length)) && node->ByteSizeLong() == length &&
      proto::ListUnknownFields(std::string_view(reinterpret_cast<const char*>(payload), length),
                               proto::SchemaOf<tensorflow::NodeDef>())
              .count == 0) {
    // The parse holds its own copies of the strings, so its bytes can go over the ones it
    // was parsed from.
    google::protobuf::io::ArrayOutputStream array(payload, static_cast<int>(length));
    CodedOutputStream out(&array);
    out.SetSerializationDeterministic(true);
    node->SerializeWithCachedSizes(&out);
    rewritten = !out.HadError() && out.ByteCount() == static_cast<int64_t>(length);
  }
  scratch->Reset();
  return rewritten;
}

bool WireGraph::KeepLibrary(const uint8_t* base, const uint8_t* value, uint64_t length,
                            uint64_t* parsed_bytes) {
  proto::WireCheck check =
      proto::CheckWire(std::string_view(reinterpret_cast<const char*>(value), length),
                       proto::SchemaOf<tensorflow::FunctionDefLibrary>());
  if (!check.valid) return false;
  *parsed_bytes += check.parsed_bytes;
  if (check.canonical) {
    library_offset_ = static_cast<uint32_t>(value - base);
    library_length_ = static_cast<uint32_t>(length);
  } else {
    // Written otherwise (TensorFlow's Python writer puts a FunctionDef's arg_attr first, its
    // C++ writer leaves maps in hash order): kept as libprotobuf writes it, which is what an
    // export of the parsed library would write. A library with fields the schema lacks stays
    // parsed, so that text output reports them as for any other message.
    Arena scratch;
    auto* parsed = Arena::CreateMessage<tensorflow::FunctionDefLibrary>(&scratch);
    if (!parsed->ParseFromArray(value, static_cast<int>(length))) return false;
    if (proto::ListUnknownFields(std::string_view(reinterpret_cast<const char*>(value), length),
                                 proto::SchemaOf<tensorflow::FunctionDefLibrary>())
            .count > 0) {
      return true;
    }
    canonical_library_ = proto::DeterministicBytes(*parsed);
    library_offset_ = 0;
    library_length_ = static_cast<uint32_t>(canonical_library_.size());
  }
  library_kept_ = true;
  std::string_view kept = LibraryBytes();
  value = reinterpret_cast<const uint8_t*>(kept.data());
  const uint8_t* end = value + kept.size();
  Record f;
  for (const uint8_t* p = value; p < end && ReadRecord(p, end, &f); p = f.end) {
    if (f.number != fields::kLibraryFunction || f.wire_type != 2) continue;
    WireFunction function;
    Record r;
    for (const uint8_t* q = f.value; q < f.end && ReadRecord(q, f.end, &r); q = r.end) {
      if (r.wire_type != 2) continue;
      if (r.number == fields::kFunctionSignature) {
        proto::FindLengthDelimited(r.view(), fields::kOpDefName, &function.name);
      } else if (r.number == fields::kFunctionNodeDef) {
        ++function.node_count;
      }
    }
    functions_.push_back(function);
  }
  return true;
}

void WireGraph::ListHeaderFunctions() {
  for (const auto& f : header_->library().function()) {
    functions_.push_back({f.signature().name(), static_cast<uint32_t>(f.node_def_size())});
  }
}

tensorflow::FunctionDefLibrary* WireGraph::ParseLibrary(Arena* arena) const {
  auto* library = Arena::CreateMessage<tensorflow::FunctionDefLibrary>(arena);
  std::string_view bytes = LibraryBytes();
  if (!library->ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    // CheckWire accepted these bytes, so libprotobuf should too.
    throw Error(ErrorCode::kParseError, "the graph's library does not parse");
  }
  return library;
}

tensorflow::GraphDef* WireGraph::ParseIntoHeader() {
  for (size_t i = 0; i < nodes_.size(); ++i) ParseNode(i, header_->add_node());
  if (library_kept_) {
    std::string_view bytes = LibraryBytes();
    if (!header_->mutable_library()->ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
      throw Error(ErrorCode::kParseError, "the graph's library does not parse");
    }
    library_kept_ = false;
  }
  return header_;
}

uint32_t WireGraph::NewOpNumber(std::string_view op, uint32_t* cached, OpLookup* lookup) {
  // Found before emplaced: an emplace allocates its node even when the key is there.
  auto found = lookup->numbers.find(op);
  uint32_t number;
  if (found != lookup->numbers.end()) {
    number = found->second;
  } else {
    number = static_cast<uint32_t>(ops_.size());
    lookup->numbers.emplace(op, number);
    ops_.push_back(op);
  }
  *cached = number + 1;
  return number;
}

void WireGraph::ParseNode(size_t i, tensorflow::NodeDef* node) const {
  std::string_view bytes = NodeBytes(i);
  if (!node->ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    // CheckWire accepted these bytes, so libprotobuf should too.
    throw Error(ErrorCode::kParseError,
                "node '" + std::string(name(i)) + "': its bytes do not parse as a NodeDef");
  }
}

tensorflow::NodeDef* WireGraph::Reparsed(size_t i, const NodePlan& plan, Arena* arena) const {
  auto* node = Arena::CreateMessage<tensorflow::NodeDef>(arena);
  ParseNode(i, node);
  if (plan.drop_devices) node->clear_device();
  return node;
}

tensorflow::NodeDef* WireGraph::Rewritten(size_t i, const NodePlan& plan, Arena* arena) const {
  auto* parsed = Arena::CreateMessage<tensorflow::NodeDef>(arena);
  ParseNode(i, parsed);
  auto* node = Arena::CreateMessage<tensorflow::NodeDef>(arena);
  plan.rewrite(*parsed, node);
  return node;
}

uint64_t WireGraph::CopiedSize(size_t i, const NodePlan& plan) const {
  const WireNode& node = nodes_[i];
  if (node.canonical) return node.length - (plan.drop_devices ? node.device_bytes : 0);
  Arena scratch;
  return Reparsed(i, plan, &scratch)->ByteSizeLong();
}

uint64_t WireGraph::RecordsSize(const NodePlan& plan) const {
  const uint64_t library = plan.copy_library ? RecordBytes(library_length_) : 0;
  if (plan.actions.empty() && all_canonical_) {
    return library +
           (plan.drop_devices ? copied_records_bytes_without_devices_ : copied_records_bytes_);
  }
  uint64_t total = library;
  for (size_t i = 0; i < nodes_.size(); ++i) {
    uint64_t payload;
    switch (plan.For(i)) {
      case NodePlan::kSkip:
        continue;
      case NodePlan::kRewrite:
      case NodePlan::kEdit:
        payload = plan.sizes[i];
        break;
      default:
        payload = CopiedSize(i, plan);
        break;
    }
    total += RecordBytes(payload);
  }
  return total;
}

void WireGraph::WriteRecords(const NodePlan& plan, CodedOutputStream* out) const {
  Arena scratch;
  for (size_t i = 0; i < nodes_.size(); ++i) {
    const WireNode& node = nodes_[i];
    const NodePlan::Action action = plan.For(i);
    if (action == NodePlan::kSkip) continue;
    if (action == NodePlan::kCopy && node.canonical &&
        CopyShortRecord(node, reinterpret_cast<const uint8_t*>(NodeBytes(i).data()),
                        plan.drop_devices && node.device_bytes != 0, out)) {
      continue;
    }
    out->WriteTag(kNodeTag);
    if (action == NodePlan::kEdit) {
      out->WriteVarint64(plan.sizes[i]);
      plan.edit(NodeBytes(i), out);
      continue;
    }
    if (action == NodePlan::kRewrite || !node.canonical) {
      tensorflow::NodeDef* written =
          action == NodePlan::kRewrite ? Rewritten(i, plan, &scratch) : Reparsed(i, plan, &scratch);
      out->WriteVarint64(written->ByteSizeLong());
      written->SerializeWithCachedSizes(out);
      scratch.Reset();
      continue;
    }
    std::string_view bytes = NodeBytes(i);
    if (!plan.drop_devices || node.device_bytes == 0) {
      out->WriteVarint64(node.length);
      proto::WriteShortRaw(out, reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
      continue;
    }
    // Canonical bytes without their device record are still canonical. A canonical node
    // has one, in field order: what comes before it and what comes after are copied whole.
    out->WriteVarint64(node.length - node.device_bytes);
    const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
    const uint8_t* end = p + bytes.size();
    const uint8_t* before = p;
    if (node.device_offset != WireNode::kFarDevice) {
      p += node.device_offset;
      proto::WriteShortRaw(out, before, node.device_offset);
      p += node.device_bytes;
    } else {
      Record r;
      while (p < end && ReadRecord(p, end, &r) && r.number < fields::kNodeDevice) p = r.end;
      out->WriteRaw(before, static_cast<int>(p - before));
      if (p < end && r.number == fields::kNodeDevice) p = r.end;
    }
    proto::WriteShortRaw(out, p, static_cast<size_t>(end - p));
  }
  if (plan.copy_library) {
    std::string_view bytes = LibraryBytes();
    out->WriteTag(kLibraryTag);
    out->WriteVarint64(bytes.size());
    out->WriteRawMaybeAliased(bytes.data(), static_cast<int>(bytes.size()));
  }
}

}  // namespace graphport::tf

#include "tf/wire_write.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <cstring>
#include <string_view>

#include "core/error.h"
#include "core/limits.h"
#include "proto/deterministic_bytes.h"
#include "proto/proto_streams.h"
#include "proto/protobuf_log.h"
#include "proto/text_output.h"
#include "proto/wire_groups.h"
#include "proto/wire_reader.h"
#include "proto/wire_text.h"
#include "tensorflow/saved_model.pb.h"
#include "tensorflow/schemas.h"
#include "tf/field_numbers.h"

namespace graphport::tf {
namespace {

using google::protobuf::Arena;
using google::protobuf::io::CodedOutputStream;

// Where one step's record sits in the serialised message.
struct Located {
  size_t length_at;   // its length varint
  size_t payload_at;  // its payload
  uint64_t length;    // of the payload
};

std::vector<Located> Locate(const std::string& bytes, const GraphPath& path) {
  std::vector<Located> found;
  const auto* base = reinterpret_cast<const uint8_t*>(bytes.data());
  const uint8_t* p = base;
  const uint8_t* end = base + bytes.size();
  for (const GraphStep& step : path) {
    int seen = 0;
    proto::Record r;
    bool hit = false;
    while (p < end && proto::ReadRecord(p, end, &r)) {
      if (r.number == step.number && r.wire_type == 2 && seen++ == step.occurrence) {
        hit = true;
        break;
      }
      p = r.end;
    }
    if (!hit) {
      throw Error(ErrorCode::kInternal, "writing the graph's nodes: no " + step.name + " record");
    }
    uint64_t tag_size = CodedOutputStream::VarintSize32((step.number << 3) | 2);
    size_t length_at = static_cast<size_t>(r.start - base) + tag_size;
    found.push_back({length_at, static_cast<size_t>(r.value - base), r.length});
    p = r.value;
    end = r.value + r.length;
  }
  return found;
}

void Fail(const std::string& what, const proto::SinkOutputStream& stream) {
  throw Error(ErrorCode::kIo, "writing " + what + ": " +
                                  (stream.error().empty() ? "the sink failed" : stream.error()));
}

// The text lines of `text` that open the path's records, at their indent; the nodes go after
// the last one. TextFormat prints one field per line, so a line that is exactly
// "<indent>name {" opens that field.
size_t TextInsertionPoint(const std::string& text, const GraphPath& path) {
  size_t at = 0;
  for (size_t level = 0; level < path.size(); ++level) {
    std::string opening = std::string(2 * level, ' ') + path[level].name + " {\n";
    int seen = 0;
    size_t found = std::string::npos;
    for (size_t line = at; line < text.size();) {
      size_t next = text.find('\n', line);
      next = next == std::string::npos ? text.size() : next + 1;
      if (text.compare(line, opening.size(), opening) == 0 && seen++ == path[level].occurrence) {
        found = next;
        break;
      }
      line = next;
    }
    if (found == std::string::npos) {
      throw Error(ErrorCode::kInternal, "writing the graph's nodes: no " + path[level].name);
    }
    at = found;
  }
  return at;
}

}  // namespace

GraphPath PathToGraph(const proto::MessageSchema& type, int meta_graph_index) {
  if (&type == &proto::SchemaOf<tensorflow::SavedModel>()) {
    return {{fields::kSavedModelMetaGraphs, meta_graph_index, "meta_graphs"},
            {fields::kMetaGraphGraphDef, 0, "graph_def"}};
  }
  if (&type == &proto::SchemaOf<tensorflow::MetaGraphDef>()) {
    return {{fields::kMetaGraphGraphDef, 0, "graph_def"}};
  }
  return {};
}

void WriteBinaryWithNodes(const google::protobuf::MessageLite& message,
                          const proto::MessageSchema& type, const GraphPath& path,
                          const WireGraph& wire, const NodePlan& plan, ByteSink* sink) {
  const std::string what(type.name);
  std::string rest;
  {
    google::protobuf::io::StringOutputStream string_out(&rest);
    CodedOutputStream coded(&string_out);
    coded.SetSerializationDeterministic(true);
    message.SerializeToCodedStream(&coded);
  }
  std::vector<Located> located = Locate(rest, path);
  // Each enclosing record grows by what it holds more, and its length varint may grow too.
  uint64_t grown = wire.RecordsSize(plan);
  std::vector<uint64_t> new_lengths(located.size());
  for (size_t i = located.size(); i-- > 0;) {
    new_lengths[i] = located[i].length + grown;
    grown += CodedOutputStream::VarintSize64(new_lengths[i]) -
             CodedOutputStream::VarintSize64(located[i].length);
  }
  uint64_t total = rest.size() + grown;
  if (total > kMaxProtoBytes) {
    throw Error(ErrorCode::kTooLarge, what + " of " + std::to_string(total) +
                                          " bytes: a protobuf message must be under 2 GiB");
  }
  sink->SizeHint(total);
  proto::ProtobufLogCapture log;
  proto::SinkOutputStream stream(sink, kStreamChunkBytes);
  bool had_error;
  {
    CodedOutputStream out(&stream);
    out.SetSerializationDeterministic(true);
    out.EnableAliasing(true);  // a big node's bytes go to the sink as they are
    size_t cursor = 0;
    for (size_t i = 0; i < located.size(); ++i) {
      out.WriteRawMaybeAliased(rest.data() + cursor,
                               static_cast<int>(located[i].length_at - cursor));
      out.WriteVarint64(new_lengths[i]);
      cursor = located[i].payload_at;
    }
    wire.WriteRecords(plan, &out);
    out.WriteRawMaybeAliased(rest.data() + cursor, static_cast<int>(rest.size() - cursor));
    had_error = out.HadError();
  }
  if (!stream.Flush() || had_error) Fail(what, stream);
  if (!log.errors().empty()) {
    throw Error(ErrorCode::kParseError, "writing " + what + ": " + log.Summary());
  }
}

proto::UnknownFieldReport WriteTextWithNodes(const google::protobuf::MessageLite& message,
                                             const proto::MessageSchema& type,
                                             const GraphPath& path, const WireGraph& wire,
                                             const NodePlan& plan, ByteSink* sink) {
  const std::string what = "text " + std::string(type.name);
  // The message without its nodes is small: its text is made whole, then split where the
  // nodes go.
  const std::string rest_bytes = proto::DeterministicBytes(message);
  StringSink rest_sink;
  {
    proto::TextOutput rest_out(&rest_sink);
    if (!proto::WireTextPrinter(type).Print(rest_bytes, 0, &rest_out)) {
      proto::ThrowIfGroup(rest_bytes, type, "writing " + what);
      throw Error(ErrorCode::kInternal, "writing " + what + ": its own bytes do not parse");
    }
    rest_out.Flush();
  }
  const std::string rest = rest_sink.Take();
  size_t at = TextInsertionPoint(rest, path);
  proto::TextOutput out(sink, kStreamChunkBytes);
  out.Append(std::string_view(rest).substr(0, at));
  const int level = static_cast<int>(path.size()) + 1;
  const std::string indent(2 * path.size(), ' ');
  const std::string open = indent + "node {\n", close = indent + "}\n";
  // Canonical nodes are printed from their bytes, which gives TextFormat's text exactly
  // (proto/wire_text.h); any other node goes through a scratch NodeDef, printed from its
  // deterministic serialization.
  proto::WireTextPrinter node_text(proto::SchemaOf<tensorflow::NodeDef>());
  const int left_out = plan.drop_devices ? tensorflow::NodeDef::kDeviceFieldNumber : 0;
  Arena scratch;
  for (size_t i = 0; i < wire.nodes().size() && !out.failed(); ++i) {
    const WireNode& w = wire.nodes()[i];
    const NodePlan::Action action = plan.For(i);
    if (action == NodePlan::kSkip) continue;
    out.Append(open);
    if (action == NodePlan::kCopy && w.canonical) {
      if (!node_text.Print(wire.NodeBytes(i), level, &out, left_out)) {
        throw Error(ErrorCode::kParseError,
                    "writing " + what + ": node '" + std::string(wire.name(i)) + "' at offset " +
                        std::to_string(w.offset) + " does not parse as a NodeDef");
      }
    } else {
      // Rewritten (or edited: the same form) nodes, and copies that are not canonical.
      const tensorflow::NodeDef* node = action != NodePlan::kCopy
                                            ? wire.Rewritten(i, plan, &scratch)
                                            : wire.Reparsed(i, plan, &scratch);
      const std::string bytes = proto::DeterministicBytes(*node);
      if (!node_text.Print(bytes, level, &out)) {
        proto::ThrowIfGroup(bytes, proto::SchemaOf<tensorflow::NodeDef>(),
                            "writing " + what + ": node '" + std::string(wire.name(i)) + "'");
        throw Error(ErrorCode::kInternal, "writing " + what + ": node '" +
                                              std::string(wire.name(i)) +
                                              "' does not parse once rewritten");
      }
      scratch.Reset();
    }
    out.Append(close);
  }
  if (plan.copy_library && !out.failed()) {
    // A kept library is canonical (WireGraph::library_kept), so its bytes print as it would.
    proto::WireTextPrinter library_text(proto::SchemaOf<tensorflow::FunctionDefLibrary>());
    out.Append(indent + "library {\n");
    if (!library_text.Print(wire.LibraryBytes(), level, &out, 0)) {
      throw Error(ErrorCode::kParseError,
                  "writing " + what + ": the graph's library does not parse");
    }
    out.Append(close);
  }
  out.Append(std::string_view(rest).substr(at));
  out.Flush();
  if (out.failed()) {
    throw Error(ErrorCode::kIo,
                "writing " + what + ": " + (out.error().empty() ? "the sink failed" : out.error()));
  }
  return proto::ListUnknownFields(rest_bytes, type);
}

}  // namespace graphport::tf

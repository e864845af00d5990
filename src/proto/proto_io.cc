#include "proto/proto_io.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <memory>
#include <optional>

#include "core/error.h"
#include "core/limits.h"
#include "core/message_text.h"
#include "proto/deterministic_bytes.h"
#include "proto/proto_streams.h"
#include "proto/protobuf_log.h"
#include "proto/text_output.h"
#include "proto/text_parse.h"
#include "proto/whole_string_stream.h"
#include "proto/wire_groups.h"
#include "proto/wire_scan.h"
#include "proto/wire_text.h"
#include "proto/wire_utf8.h"

namespace graphport::proto {
namespace {

namespace io = google::protobuf::io;

// A streamed input is reread to locate a fault only up to this size; past it the error
// gives the range instead of costing the heap a second copy of a huge model.
constexpr size_t kMaxDiagnosticReread = size_t{256} << 20;

// `scanned` tells whether the bytes could be looked at again at all: a stream that cannot
// rewind cannot say where it went wrong, only that it did.
std::string LocateBinaryFault(ByteSource* source, const MessageSchema& type, bool* scanned,
                              int64_t* offset, std::string* node) {
  *scanned = false;
  std::string_view bytes;
  std::string reread;
  if (!source->Contiguous(&bytes)) {
    if (!source->Rewind()) return "";
    reread = ReadPrefix(source, kMaxDiagnosticReread + 1);
    if (reread.size() > kMaxDiagnosticReread) return "";
    bytes = reread;
  }
  *scanned = true;
  WireScan scan = ScanWire(bytes, type, /*complete=*/true);
  if (scan.group) {
    // A group, or an end-group tag with no group open: named by its field and node.
    if (std::optional<WireGroup> group = FindGroup(bytes, type)) {
      *offset = static_cast<int64_t>(group->offset);
      *node = GroupNode(*group);
      return DescribeGroup(*group);
    }
  }
  if (!scan.conflict && !scan.truncated) {
    // Sound structure: the fault may be a string libprotobuf-lite refuses without naming it.
    std::optional<BadUtf8String> bad = FindBadUtf8String(bytes, type);
    if (!bad.has_value()) return "";
    *offset = static_cast<int64_t>(bad->offset);
    return "string field '" + bad->field + "' (" + bad->path + ") is not valid UTF-8 at byte " +
           std::to_string(bad->offset) + "; a proto3 string must be UTF-8";
  }
  *offset = static_cast<int64_t>(scan.conflict_offset);
  return scan.conflict_reason + " at byte " + std::to_string(scan.conflict_offset);
}

ErrorLocation InFile(const std::string& what, int64_t offset = -1) {
  return ErrorLocation::InFile(what, offset);
}

// The text parser's input, refused from the chunk where the wire bytes it has written so far
// pass the budget: how a text parse is stopped without an exception crossing it.
class WireBudgetStream : public io::ZeroCopyInputStream {
 public:
  WireBudgetStream(io::ZeroCopyInputStream* input, const MemoryBudget* budget,
                   const std::string* wire)
      : input_(input), budget_(budget), wire_(wire) {}
  bool Next(const void** data, int* size) override {
    if (budget_ != nullptr && budget_->Exceeded(wire_->size())) {
      over_budget_ = true;
      return false;
    }
    return input_->Next(data, size);
  }
  void BackUp(int count) override { input_->BackUp(count); }
  bool Skip(int count) override { return input_->Skip(count); }
  int64_t ByteCount() const override { return input_->ByteCount(); }
  bool over_budget() const { return over_budget_; }

 private:
  io::ZeroCopyInputStream* input_;
  const MemoryBudget* budget_;
  const std::string* wire_;
  bool over_budget_ = false;
};

void CheckSize(ByteSource* source, const std::string& what) {
  uint64_t size = 0;
  if (source->SizeHint(&size) && size > kMaxProtoBytes) {
    throw Error(ErrorCode::kTooLarge, what + ": " + std::to_string(size) +
                                          " bytes; a protobuf message must be under 2 GiB");
  }
}

}  // namespace

std::string ShortTypeName(const google::protobuf::MessageLite& message) {
  std::string name = message.GetTypeName();
  const size_t dot = name.rfind('.');
  return dot == std::string::npos ? name : name.substr(dot + 1);
}

void ParseBinary(ByteSource* source, google::protobuf::MessageLite* message,
                 const MessageSchema& schema, const std::string& what, const MemoryBudget* budget) {
  CheckSize(source, what);
  const std::string type(schema.name);
  ProtobufLogCapture log;
  std::string_view bytes;
  bool ok;
  bool over_budget;
  int64_t consumed;
  std::string source_error;
  if (source->Contiguous(&bytes) && budget == nullptr) {
    // In memory already and nothing to watch: parse in place, in one piece.
    io::CodedInputStream input(reinterpret_cast<const uint8_t*>(bytes.data()),
                               static_cast<int>(bytes.size()));
    input.SetRecursionLimit(kMaxProtoNesting);
    ok = message->ParseFromCodedStream(&input) && input.ConsumedEntireMessage();
    consumed = input.CurrentPosition();
    over_budget = false;
  } else if (source->Contiguous(&bytes)) {
    // In memory: lent in chunks, no copies, so the budget is checked as the message grows.
    BudgetedArrayStream chunks(bytes, kStreamChunkBytes, budget);
    {
      io::CodedInputStream input(&chunks);
      input.SetRecursionLimit(kMaxProtoNesting);
      ok = message->ParseFromCodedStream(&input) && input.ConsumedEntireMessage();
    }
    consumed = chunks.ByteCount();
    over_budget = chunks.over_budget();
  } else {
    // Streamed: long strings and bytes arrive in one chunk each, so they are allocated at their
    // size (whole_string_stream.h).
    uint64_t size = 0;
    if (!source->SizeHint(&size)) size = 0;
    WholeStringStream chunks(source, schema, size, budget, kStreamChunkBytes);
    {
      io::CodedInputStream input(&chunks);
      input.SetRecursionLimit(kMaxProtoNesting);
      ok = message->ParseFromCodedStream(&input) && input.ConsumedEntireMessage();
    }
    consumed = chunks.ByteCount();
    source_error = chunks.error();
    over_budget = chunks.over_budget();
  }
  if (!source_error.empty()) throw Error(ErrorCode::kIo, what + ": " + source_error);
  if (over_budget) {
    // Measured before Clear(): an arena keeps its blocks until it dies.
    std::string text = BudgetExceededMessage(*budget, static_cast<uint64_t>(consumed), what);
    message->Clear();
    throw Error(ErrorCode::kTooLarge, text, InFile(what));
  }
  if (ok && log.errors().empty()) {
    // What libprotobuf took may hold a group, which no TensorFlow schema has and which text
    // format cannot print (proto/wire_groups.h). Looked for in the bytes when they are at
    // hand: a stream past what is held (over 256 MiB) is checked where it would be printed.
    std::optional<WireGroup> group;
    if (source->Contiguous(&bytes)) group = FindGroup(bytes, schema);
    if (!group.has_value()) return;
    message->Clear();
    ErrorLocation where = InFile(what, static_cast<int64_t>(group->offset));
    where.node = GroupNode(*group);
    throw Error(ErrorCode::kParseError,
                what + ": not a valid binary " + type + ": " + DescribeGroup(*group), where);
  }
  message->Clear();
  bool scanned;
  int64_t offset = -1;
  std::string node;
  std::string where = LocateBinaryFault(source, schema, &scanned, &offset, &node);
  if (where.empty()) {
    // Only when the wire structure was checked and found sound is the cause one of these two;
    // libprotobuf's log then tells which. (On input that is cut off, its parser misreads the
    // last string and logs a UTF-8 error that is not the fault, so the log is not quoted
    // when the structure could not be checked.)
    std::string logged = scanned ? log.Summary() : "";
    where = "within the first " + std::to_string(consumed) + " bytes (" +
            (!logged.empty() ? logged
             : scanned       ? "nested too deep, or a string that is not UTF-8"
                       : "cut off, malformed, nested too deep, or a string that is not UTF-8") +
            ")";
  }
  ErrorLocation location = InFile(what, offset);
  location.node = node;
  throw Error(ErrorCode::kParseError, what + ": not a valid binary " + type + ": " + where,
              location);
}

void ParseText(ByteSource* source, google::protobuf::MessageLite* message,
               const MessageSchema& type, const std::string& what, const MemoryBudget* budget) {
  CheckSize(source, what);
  const std::string type_name(type.name);
  // The text becomes the message's wire bytes (proto/text_parse.h), which the lite parser
  // then reads. While the text is read, the budget holds the wire bytes written so far.
  std::string wire;
  TextParseError error;
  bool ok;
  std::string source_error;
  bool over_budget;
  uint64_t consumed;
  {
    std::string_view bytes;
    std::unique_ptr<SourceCopyingStream> copying;
    std::unique_ptr<io::ZeroCopyInputStream> chunks;
    if (source->Contiguous(&bytes)) {
      if (bytes.size() > kMaxProtoBytes) {
        throw Error(ErrorCode::kTooLarge, what + ": " + std::to_string(bytes.size()) +
                                              " bytes; a protobuf message must be under 2 GiB");
      }
      // In memory already: lent in chunks, not copied.
      chunks = std::make_unique<io::ArrayInputStream>(bytes.data(), static_cast<int>(bytes.size()),
                                                      static_cast<int>(kStreamChunkBytes));
    } else {
      copying = std::make_unique<SourceCopyingStream>(source);
      chunks = std::make_unique<io::CopyingInputStreamAdaptor>(copying.get(),
                                                               static_cast<int>(kStreamChunkBytes));
    }
    WireBudgetStream watched(chunks.get(), budget, &wire);
    ok = TextToWire(&watched, type, &wire, &error);
    if (copying != nullptr) source_error = copying->error();
    over_budget = watched.over_budget();
    consumed = static_cast<uint64_t>(watched.ByteCount());
  }
  if (!source_error.empty()) throw Error(ErrorCode::kIo, what + ": " + source_error);
  if (over_budget) {
    std::string text =
        BudgetExceededMessage(*budget, budget->Estimate(wire.size()), consumed, what);
    message->Clear();
    throw Error(ErrorCode::kTooLarge, text, InFile(what));
  }
  if (!ok) {
    message->Clear();
    ErrorLocation where = InFile(what);
    where.line = error.line;
    where.column = error.column;
    throw Error(error.too_large ? ErrorCode::kTooLarge : ErrorCode::kParseError,
                what + ": not a valid text " + type_name + ": line " + std::to_string(error.line) +
                    " column " + std::to_string(error.column) + ": " + CapForMessage(error.message),
                where);
  }
  // The lite parse, the wire bytes counted as held beside what it builds.
  ProtobufLogCapture log;
  MemoryBudget held;
  const MemoryBudget* wire_budget = nullptr;
  if (budget != nullptr) {
    held = *budget;
    held.max_bytes = budget->max_bytes > wire.size() ? budget->max_bytes - wire.size() : 0;
    wire_budget = &held;
  }
  bool parsed;
  uint64_t wire_consumed;
  {
    BudgetedArrayStream wire_chunks(wire, kStreamChunkBytes, wire_budget);
    {
      io::CodedInputStream input(&wire_chunks);
      input.SetRecursionLimit(kMaxProtoNesting);
      parsed = message->ParseFromCodedStream(&input) && input.ConsumedEntireMessage();
    }
    // Checked once more at the end: a wire that fits one chunk is never refused a chunk.
    wire_consumed = static_cast<uint64_t>(wire_chunks.ByteCount());
    over_budget = wire_chunks.over_budget() ||
                  (wire_budget != nullptr && wire_budget->Exceeded(wire_consumed));
  }
  if (over_budget) {
    std::string text = BudgetExceededMessage(*budget, budget->Estimate(wire.size() + wire_consumed),
                                             consumed, what);
    message->Clear();
    throw Error(ErrorCode::kTooLarge, text, InFile(what));
  }
  if (!parsed || !log.errors().empty()) {
    message->Clear();
    const std::string logged = log.Summary();
    throw Error(ErrorCode::kInternal,
                what + ": the text of a " + type_name +
                    " was read, but its wire bytes did not parse" +
                    (logged.empty() ? "" : " (" + logged + ")"),
                InFile(what));
  }
}

void WriteBinary(const google::protobuf::MessageLite& message, ByteSink* sink) {
  size_t size = message.ByteSizeLong();
  if (size > kMaxProtoBytes) {
    throw Error(ErrorCode::kTooLarge, ShortTypeName(message) + " of " + std::to_string(size) +
                                          " bytes: a protobuf message must be under 2 GiB");
  }
  sink->SizeHint(size);
  ProtobufLogCapture log;
  SinkOutputStream stream(sink, kStreamChunkBytes);
  bool had_error;
  {
    io::CodedOutputStream output(&stream);
    output.SetSerializationDeterministic(true);
    output.EnableAliasing(true);  // a tensor's content goes to the sink as it is
    // ByteSizeLong() above cached every nested size; serializing with the cache saves a pass.
    message.SerializeWithCachedSizes(&output);
    had_error = output.HadError();
  }
  if (!stream.Flush() || had_error) {
    throw Error(ErrorCode::kIo, "writing " + ShortTypeName(message) + ": " +
                                    (stream.error().empty() ? "the sink failed" : stream.error()));
  }
  // libprotobuf writes a proto3 string that is not UTF-8 and only logs it; the output would
  // then be refused on reload, so it is not handed back. (Loading refuses such strings, so
  // this guards messages built in memory.)
  if (!log.errors().empty()) {
    throw Error(ErrorCode::kParseError, "writing " + ShortTypeName(message) + ": " + log.Summary());
  }
}

UnknownFieldReport WriteText(const google::protobuf::MessageLite& message,
                             const MessageSchema& type, ByteSink* sink) {
  const std::string what = "writing text " + std::string(type.name);
  if (message.ByteSizeLong() > kMaxProtoBytes) {
    throw Error(ErrorCode::kTooLarge,
                what + ": a protobuf message must be under 2 GiB to be serialized first");
  }
  const std::string bytes = DeterministicBytes(message);
  TextOutput out(sink, kStreamChunkBytes);
  if (!WireTextPrinter(type).Print(bytes, 0, &out)) {
    // Text format has no way to write a group (proto/wire_groups.h).
    ThrowIfGroup(bytes, type, what);
    throw Error(ErrorCode::kInternal, what + ": its own serialization does not parse");
  }
  out.Flush();
  if (out.failed()) {
    throw Error(ErrorCode::kIo,
                what + ": " + (out.error().empty() ? "the sink failed" : out.error()));
  }
  return ListUnknownFields(bytes, type);
}

}  // namespace graphport::proto

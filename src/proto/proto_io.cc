#include "proto/proto_io.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/text_format.h>

#include <memory>

#include "core/error.h"
#include "core/limits.h"
#include "core/message_text.h"
#include "proto/deterministic_bytes.h"
#include "proto/message_walk.h"
#include "proto/proto_streams.h"
#include "proto/protobuf_log.h"
#include "proto/text_output.h"
#include "proto/whole_string_stream.h"
#include "proto/wire_scan.h"
#include "proto/wire_text.h"

namespace graphport::proto {
namespace {

namespace io = google::protobuf::io;

// A streamed input is reread to locate a fault only up to this size; past it the error
// gives the range instead of costing the heap a second copy of a huge model.
constexpr size_t kMaxDiagnosticReread = size_t{256} << 20;

// `scanned` tells whether the bytes could be looked at again at all: a stream that cannot
// rewind cannot say where it went wrong, only that it did.
std::string LocateBinaryFault(ByteSource* source, const MessageSchema& type, bool* scanned,
                              int64_t* offset) {
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
  if (!scan.conflict && !scan.truncated) return "";
  *offset = static_cast<int64_t>(scan.conflict_offset);
  return scan.conflict_reason + " at byte " + std::to_string(scan.conflict_offset);
}

ErrorLocation InFile(const std::string& what, int64_t offset = -1) {
  return ErrorLocation::InFile(what, offset);
}

class FirstErrorCollector : public io::ErrorCollector {
 public:
  void AddError(int line, int column, const std::string& message) override {
    if (!error_.empty()) return;
    // protobuf counts lines and columns from zero; editors count from one.
    line_ = line + 1;
    column_ = column + 1;
    // The message quotes the offending token, which can be a megabyte-long string.
    error_ = "line " + std::to_string(line_) + " column " + std::to_string(column_) + ": " +
             CapForMessage(message);
  }
  const std::string& error() const { return error_; }
  int line() const { return line_; }
  int column() const { return column_; }

 private:
  std::string error_;
  int line_ = 0;
  int column_ = 0;
};

// Where a field of a text input was, found by parsing it again with locations recorded (only
// on the way to an error: recording them for every field of a big graph costs its memory).
// False when the input cannot be reread, or the path passes through a map (whose entries
// reflection lists in another order than the text has them).
bool LocateTextField(ByteSource* source, const google::protobuf::Message& prototype,
                     const FieldPath& path, int* line, int* column) {
  for (const FieldStep& step : path) {
    if (step.field->is_map()) return false;
  }
  uint64_t size = 0;
  if (!source->Rewind() || !source->SizeHint(&size) || size > kMaxDiagnosticReread) return false;
  std::unique_ptr<google::protobuf::Message> again(prototype.New());
  google::protobuf::TextFormat::ParseInfoTree tree;
  google::protobuf::TextFormat::Parser parser;
  FirstErrorCollector ignored;
  parser.RecordErrorsTo(&ignored);
  parser.SetRecursionLimit(kMaxProtoNesting);
  parser.WriteLocationsTo(&tree);
  SourceCopyingStream copying(source);
  io::CopyingInputStreamAdaptor adaptor(&copying, static_cast<int>(kStreamChunkBytes));
  if (!parser.Parse(&adaptor, again.get())) return false;
  const google::protobuf::TextFormat::ParseInfoTree* node = &tree;
  for (size_t i = 0; i + 1 < path.size() && node != nullptr; ++i) {
    node = node->GetTreeForNested(path[i].field, path[i].index);
  }
  if (node == nullptr) return false;
  google::protobuf::TextFormat::ParseLocation where =
      node->GetLocation(path.back().field, path.back().index);
  if (where.line < 0) return false;
  *line = where.line + 1;
  *column = where.column + 1;
  return true;
}

// libprotobuf 3.21's text parser takes any bytes into a proto3 string; its binary parser
// refuses them, and so does TensorFlow's text loader. Checked after the parse, in one walk.
void CheckTextStrings(ByteSource* source, google::protobuf::Message* message,
                      const std::string& what) {
  FieldPath path;
  size_t bad_offset = 0;
  if (!FindNonUtf8String(*message, &path, &bad_offset)) return;
  const google::protobuf::FieldDescriptor* field = path.back().field;
  std::string message_text = "string field '" + field->full_name() + "' (" + FieldPathText(path) +
                             ") is not valid UTF-8 (at byte " + std::to_string(bad_offset) +
                             " of the string); a proto3 string must be UTF-8";
  ErrorLocation where;
  where.file = what;
  std::string type = message->GetDescriptor()->name();
  if (LocateTextField(source, *message, path, &where.line, &where.column)) {
    message_text = "line " + std::to_string(where.line) + " column " +
                   std::to_string(where.column) + ": " + message_text;
  }
  message->Clear();
  throw Error(ErrorCode::kParseError, what + ": not a valid text " + type + ": " + message_text,
              where);
}

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
  if (ok && log.errors().empty()) return;
  message->Clear();
  bool scanned;
  int64_t offset = -1;
  std::string where = LocateBinaryFault(source, schema, &scanned, &offset);
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
  throw Error(ErrorCode::kParseError, what + ": not a valid binary " + type + ": " + where,
              InFile(what, offset));
}

void ParseText(ByteSource* source, google::protobuf::Message* message, const std::string& what,
               const MemoryBudget* budget) {
  CheckSize(source, what);
  ProtobufLogCapture log;
  bool ok;
  std::string source_error;
  bool over_budget;
  uint64_t consumed;
  FirstErrorCollector errors;
  {
    SourceCopyingStream copying(source, budget);
    io::CopyingInputStreamAdaptor adaptor(&copying, static_cast<int>(kStreamChunkBytes));
    google::protobuf::TextFormat::Parser parser;
    parser.RecordErrorsTo(&errors);
    parser.SetRecursionLimit(kMaxProtoNesting);
    ok = parser.Parse(&adaptor, message);
    source_error = copying.error();
    over_budget = copying.over_budget();
    consumed = copying.consumed();
  }
  if (!source_error.empty()) throw Error(ErrorCode::kIo, what + ": " + source_error);
  if (over_budget) {
    std::string text = BudgetExceededMessage(*budget, consumed, what);
    message->Clear();
    throw Error(ErrorCode::kTooLarge, text, InFile(what));
  }
  if (ok && log.errors().empty()) {
    CheckTextStrings(source, message, what);
    return;
  }
  message->Clear();
  ErrorLocation where = InFile(what);
  where.line = errors.line();
  where.column = errors.column();
  std::string detail = errors.error();
  if (detail.empty()) detail = log.Summary();
  if (detail.empty()) detail = "parse failed";
  throw Error(ErrorCode::kParseError,
              what + ": not a valid text " + message->GetDescriptor()->name() + ": " + detail,
              where);
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

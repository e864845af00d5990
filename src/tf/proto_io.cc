#include "tf/proto_io.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/text_format.h>

#include "core/error.h"
#include "core/limits.h"
#include "tf/proto_streams.h"
#include "tf/wire_scan.h"

namespace graphport::tf {
namespace {

namespace io = google::protobuf::io;

// A streamed input is reread to locate a fault only up to this size; past it the error
// gives the range instead of costing the heap a second copy of a huge model.
constexpr size_t kMaxDiagnosticReread = size_t{256} << 20;

// `scanned` tells whether the bytes could be looked at again at all: a stream that cannot
// rewind cannot say where it went wrong, only that it did.
std::string LocateBinaryFault(ByteSource* source, const google::protobuf::Descriptor* type,
                              bool* scanned) {
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
  return scan.conflict_reason + " at byte " + std::to_string(scan.conflict_offset);
}

class FirstErrorCollector : public io::ErrorCollector {
 public:
  void AddError(int line, int column, const std::string& message) override {
    if (!error_.empty()) return;
    // protobuf counts lines and columns from zero; editors count from one.
    error_ = "line " + std::to_string(line + 1) + " column " + std::to_string(column + 1) + ": " +
             message;
  }
  const std::string& error() const { return error_; }

 private:
  std::string error_;
};

void CheckSize(ByteSource* source, const std::string& what) {
  uint64_t size = 0;
  if (source->SizeHint(&size) && size > kMaxProtoBytes) {
    throw Error(ErrorCode::kTooLarge, what + ": " + std::to_string(size) +
                                          " bytes; a protobuf message must be under 2 GiB");
  }
}

}  // namespace

void ParseBinary(ByteSource* source, google::protobuf::Message* message, const std::string& what) {
  CheckSize(source, what);
  const std::string type = message->GetDescriptor()->name();
  std::string_view bytes;
  bool ok;
  int64_t consumed;
  std::string source_error;
  if (source->Contiguous(&bytes)) {
    // In memory already: parse in place, no chunk copies.
    io::CodedInputStream input(reinterpret_cast<const uint8_t*>(bytes.data()),
                               static_cast<int>(bytes.size()));
    input.SetRecursionLimit(kMaxProtoNesting);
    ok = message->ParseFromCodedStream(&input) && input.ConsumedEntireMessage();
    consumed = input.CurrentPosition();
  } else {
    SourceCopyingStream copying(source);
    io::CopyingInputStreamAdaptor adaptor(&copying, static_cast<int>(kStreamChunkBytes));
    {
      io::CodedInputStream input(&adaptor);
      input.SetRecursionLimit(kMaxProtoNesting);
      ok = message->ParseFromCodedStream(&input) && input.ConsumedEntireMessage();
    }
    consumed = adaptor.ByteCount();
    source_error = copying.error();
  }
  if (!source_error.empty()) throw Error(ErrorCode::kIo, what + ": " + source_error);
  if (ok) return;
  message->Clear();
  bool scanned;
  std::string where = LocateBinaryFault(source, message->GetDescriptor(), &scanned);
  if (where.empty()) {
    // Only when the wire structure was checked and found sound is the cause one of these two.
    where = "within the first " + std::to_string(consumed) + " bytes (" +
            (scanned ? "nested too deep, or a string that is not UTF-8"
                     : "cut off, malformed, nested too deep, or a string that is not UTF-8") +
            ")";
  }
  throw Error(ErrorCode::kParseError, what + ": not a valid binary " + type + ": " + where);
}

void ParseText(ByteSource* source, google::protobuf::Message* message, const std::string& what) {
  CheckSize(source, what);
  SourceCopyingStream copying(source);
  io::CopyingInputStreamAdaptor adaptor(&copying, static_cast<int>(kStreamChunkBytes));
  FirstErrorCollector errors;
  google::protobuf::TextFormat::Parser parser;
  parser.RecordErrorsTo(&errors);
  parser.SetRecursionLimit(kMaxProtoNesting);
  bool ok = parser.Parse(&adaptor, message);
  if (!copying.error().empty()) throw Error(ErrorCode::kIo, what + ": " + copying.error());
  if (ok) return;
  message->Clear();
  throw Error(ErrorCode::kParseError,
              what + ": not a valid text " + message->GetDescriptor()->name() + ": " +
                  (errors.error().empty() ? "parse failed" : errors.error()));
}

void WriteBinary(const google::protobuf::Message& message, ByteSink* sink) {
  size_t size = message.ByteSizeLong();
  if (size > kMaxProtoBytes) {
    throw Error(ErrorCode::kTooLarge, std::string(message.GetDescriptor()->name()) + " of " +
                                          std::to_string(size) +
                                          " bytes: a protobuf message must be under 2 GiB");
  }
  sink->SizeHint(size);
  SinkCopyingStream copying(sink);
  io::CopyingOutputStreamAdaptor adaptor(&copying, static_cast<int>(kStreamChunkBytes));
  bool had_error;
  {
    io::CodedOutputStream output(&adaptor);
    output.SetSerializationDeterministic(true);
    // ByteSizeLong() above cached every nested size; serializing with the cache saves a pass.
    message.SerializeWithCachedSizes(&output);
    had_error = output.HadError();
  }
  if (!adaptor.Flush() || had_error) {
    throw Error(ErrorCode::kIo,
                "writing " + std::string(message.GetDescriptor()->name()) + ": " +
                    (copying.error().empty() ? "the sink failed" : copying.error()));
  }
}

void WriteText(const google::protobuf::Message& message, ByteSink* sink) {
  SinkCopyingStream copying(sink);
  io::CopyingOutputStreamAdaptor adaptor(&copying, static_cast<int>(kStreamChunkBytes));
  google::protobuf::TextFormat::Printer printer;
  bool ok = printer.Print(message, &adaptor);
  if (!adaptor.Flush() || !ok) {
    throw Error(ErrorCode::kIo,
                "writing text " + std::string(message.GetDescriptor()->name()) + ": " +
                    (copying.error().empty() ? "the sink failed" : copying.error()));
  }
}

}  // namespace graphport::tf

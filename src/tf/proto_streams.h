// Adapters between graphport's ByteSource/ByteSink and protobuf's zero-copy streams, so
// libprotobuf parses and serializes in chunks without the whole file held twice.
#ifndef GRAPHPORT_TF_PROTO_STREAMS_H_
#define GRAPHPORT_TF_PROTO_STREAMS_H_

#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include "core/byte_stream.h"

namespace graphport::tf {

class SourceCopyingStream : public google::protobuf::io::CopyingInputStream {
 public:
  explicit SourceCopyingStream(ByteSource* source) : source_(source) {}
  int Read(void* buffer, int size) override;
  // First failure of the source, kept because protobuf only sees "-1". Exceptions must not
  // cross libprotobuf's frames: in WebAssembly it is built without exception support.
  const std::string& error() const { return error_; }

 private:
  ByteSource* source_;
  std::string error_;
};

class SinkCopyingStream : public google::protobuf::io::CopyingOutputStream {
 public:
  explicit SinkCopyingStream(ByteSink* sink) : sink_(sink) {}
  bool Write(const void* buffer, int size) override;
  const std::string& error() const { return error_; }

 private:
  ByteSink* sink_;
  std::string error_;
};

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_PROTO_STREAMS_H_

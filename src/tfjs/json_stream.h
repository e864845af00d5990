// JSON text written to a sink as it is made, through a small buffer: model.json's parts are
// dumped one by one (a node at a time), so neither the whole JSON tree nor its whole text is
// ever held. A node-heavy graph's model.json is larger than the graph itself.
#ifndef GRAPHPORT_TFJS_JSON_STREAM_H_
#define GRAPHPORT_TFJS_JSON_STREAM_H_

#include <string>
#include <string_view>
#include <vector>

#include "core/byte_stream.h"
#include "core/ordered_json.h"
#include "proto/schema.h"

namespace graphport::tfjs {

// Throws Error(kUnsupported): a string of `what` is not UTF-8, which JSON cannot hold.
[[noreturn]] void NotUtf8(std::string_view what);

class JsonStream {
 public:
  explicit JsonStream(ByteSink* sink) : sink_(sink) {}

  void BeginObject() { Open('{'); }
  void EndObject() { Close('}'); }
  void BeginArray() { Open('['); }
  void EndArray() { Close(']'); }
  // An object member's key; its value follows.
  void Key(std::string_view key);
  // A whole value, as OrderedJson::Dump writes it. Throws Error(kUnsupported) when a string
  // in it is not UTF-8, naming `what` (the part of the model it belongs to).
  void Value(const OrderedJson& value, std::string_view what);
  // The same, false instead of the error (the caller names what it was).
  [[nodiscard]] bool TryValue(const OrderedJson& value);
  // A value already dumped as JSON text.
  void DumpedValue(std::string_view text);
  // A message's JSON (tfjs/proto_to_json.h) from its deterministic serialisation, printed
  // straight into the buffer; false when a string in it is not UTF-8.
  [[nodiscard]] bool TryMessageValue(std::string_view deterministic_bytes,
                                     const proto::MessageSchema& schema);
  // Hands what is buffered to the sink; call once the text is complete.
  void Flush();

 private:
  static constexpr size_t kChunkBytes = size_t{64} << 10;
  void Open(char c);
  void Close(char c);
  void BeforeValue();
  void FlushIfFull() {
    if (buffer_.size() >= kChunkBytes) Flush();
  }

  ByteSink* sink_;
  std::string buffer_;
  std::vector<bool> first_;  // per open object or array: nothing in it yet
  bool after_key_ = false;   // the next value is a member's value
};

}  // namespace graphport::tfjs

#endif  // GRAPHPORT_TFJS_JSON_STREAM_H_

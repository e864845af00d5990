#include "tfjs/json_stream.h"

#include "core/error.h"
#include "tfjs/proto_to_json.h"

namespace graphport::tfjs {

void NotUtf8(std::string_view what) {
  throw Error(ErrorCode::kUnsupported, "TF.js writer: a string of " + std::string(what) +
                                           " is not UTF-8, which JSON cannot hold");
}

void JsonStream::BeforeValue() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (first_.empty()) return;
  if (!first_.back()) buffer_.push_back(',');
  first_.back() = false;
}

void JsonStream::Open(char c) {
  BeforeValue();
  buffer_.push_back(c);
  first_.push_back(true);
}

void JsonStream::Close(char c) {
  first_.pop_back();
  buffer_.push_back(c);
  FlushIfFull();
}

void JsonStream::DumpedValue(std::string_view text) {
  BeforeValue();
  if (buffer_.size() + text.size() > kChunkBytes) Flush();
  if (text.size() >= kChunkBytes) {
    sink_->Write(reinterpret_cast<const uint8_t*>(text.data()), text.size());
    return;
  }
  buffer_.append(text);
  FlushIfFull();
}

void JsonStream::Key(std::string_view key) {
  BeforeValue();
  if (!OrderedJson(std::string(key)).Dump(&buffer_)) NotUtf8("a key");
  buffer_.push_back(':');
  after_key_ = true;
}

void JsonStream::Value(const OrderedJson& value, std::string_view what) {
  if (!TryValue(value)) NotUtf8(what);
}

bool JsonStream::TryValue(const OrderedJson& value) {
  BeforeValue();
  if (!value.Dump(&buffer_)) return false;
  FlushIfFull();
  return true;
}

bool JsonStream::TryMessageValue(std::string_view deterministic_bytes,
                                 const proto::MessageSchema& schema) {
  BeforeValue();
  if (!AppendMessageJson(deterministic_bytes, schema, &buffer_)) return false;
  FlushIfFull();
  return true;
}

void JsonStream::Flush() {
  if (buffer_.empty()) return;
  sink_->Write(reinterpret_cast<const uint8_t*>(buffer_.data()), buffer_.size());
  buffer_.clear();
}

}  // namespace graphport::tfjs

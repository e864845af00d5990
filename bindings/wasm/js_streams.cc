#include "js_streams.h"

#include <emscripten/val.h>

#include <algorithm>

#include "core/error.h"
#include "core/limits.h"

namespace graphport::wasm {

using emscripten::typed_memory_view;
using emscripten::val;

size_t JsSource::Read(uint8_t* dst, size_t max) {
  val chunk = source_.call<val>("read", max);
  if (chunk.isNull() || chunk.isUndefined()) return 0;
  size_t n = chunk["length"].as<size_t>();
  if (n > max) throw Error(ErrorCode::kIo, "the byte source returned more bytes than asked");
  // A fresh view each time: memory growth detaches old views of the heap.
  val(typed_memory_view(n, dst)).call<void>("set", chunk);
  return n;
}

bool JsSource::SizeHint(uint64_t* size) const {
  val s = source_["size"];
  if (!s.isNumber()) return false;
  *size = static_cast<uint64_t>(s.as<double>());
  return true;
}

bool JsSource::Rewind() { return source_.call<bool>("rewind"); }

JsInputSet::JsInputSet(val inputs) : inputs_(std::move(inputs)) {
  label_ = inputs_["label"].as<std::string>();
  if (inputs_["preferred"].isString()) preferred_ = inputs_["preferred"].as<std::string>();
  val names = inputs_["names"];
  size_t n = names["length"].as<size_t>();
  for (size_t i = 0; i < n; ++i) names_.push_back(names[i].as<std::string>());
}

ByteSource* JsInputSet::Open(const std::string& name) {
  if (!Has(name)) {
    throw Error(ErrorCode::kNotFound, label_ + ": there is no input named '" + name + "'");
  }
  val source = inputs_.call<val>("open", name);
  if (source.isNull() || source.isUndefined()) {
    throw Error(ErrorCode::kIo, DisplayName(name) + ": cannot be opened");
  }
  auto& slot = open_[name];
  slot = std::make_unique<JsSource>(source);
  return slot.get();
}

bool JsInputSet::Size(const std::string& name, uint64_t* size) const {
  if (!Has(name)) return false;
  val s = inputs_.call<val>("size", name);
  if (!s.isNumber()) return false;
  *size = static_cast<uint64_t>(s.as<double>());
  return true;
}

namespace {

// The JS side answers false when it failed (and keeps the reason to throw once the export has
// unwound): the export stops here, as for any other sink failure.
void CheckAccepted(const val& accepted, const char* step) {
  if (accepted.isFalse()) {
    throw Error(ErrorCode::kIo, std::string("the output's ") + step + "() failed");
  }
}

}  // namespace

void JsSink::Write(const uint8_t* data, size_t size) {
  // A chunk is at most kStreamChunkBytes (index.d.ts), whatever a writer hands over at once:
  // a sink that copies each chunk before an asynchronous write holds no more than that.
  do {
    const size_t piece = std::min(size, kStreamChunkBytes);
    CheckAccepted(sink_.call<val>("write", val(typed_memory_view(piece, data))), "write");
    data += piece;
    size -= piece;
  } while (size > 0);
}

void JsSink::SizeHint(uint64_t total) {
  if (sink_["sizeHint"].isUndefined()) return;
  CheckAccepted(sink_.call<val>("sizeHint", static_cast<double>(total)), "sizeHint");
}

ByteSink* JsOutputSet::Open(const std::string& name) {
  CheckAccepted(outputs_.call<val>("open", name), "open");
  return &sink_;
}

void JsOutputSet::Close() { CheckAccepted(outputs_.call<val>("close"), "close"); }

}  // namespace graphport::wasm

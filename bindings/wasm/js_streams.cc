#include "js_streams.h"

#include <emscripten/val.h>

#include "core/error.h"

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

void JsSink::Write(const uint8_t* data, size_t size) {
  sink_.call<void>("write", val(typed_memory_view(size, data)));
}

void JsSink::SizeHint(uint64_t total) {
  if (sink_["sizeHint"].isUndefined()) return;
  sink_.call<void>("sizeHint", static_cast<double>(total));
}

ByteSink* JsOutputSet::Open(const std::string& name) {
  outputs_.call<void>("open", name);
  return &sink_;
}

void JsOutputSet::Close() { outputs_.call<void>("close"); }

}  // namespace graphport::wasm

// ByteSource and OutputSet over JavaScript callbacks: input arrives chunk by chunk from a JS
// ArrayBuffer, File or file descriptor, and output leaves chunk by chunk, so the WebAssembly
// heap never holds a second copy of the model.
#ifndef GRAPHPORT_BINDINGS_WASM_JS_STREAMS_H_
#define GRAPHPORT_BINDINGS_WASM_JS_STREAMS_H_

#include <emscripten/val.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/byte_stream.h"
#include "core/input_set.h"
#include "core/output_set.h"

namespace graphport::wasm {

// `source` is {read(maxBytes) -> Uint8Array|null, rewind() -> boolean, size: number|undefined}.
class JsSource : public ByteSource {
 public:
  explicit JsSource(emscripten::val source) : source_(std::move(source)) {}
  size_t Read(uint8_t* dst, size_t max) override;
  bool SizeHint(uint64_t* size) const override;
  bool Rewind() override;

 private:
  emscripten::val source_;
};

// `inputs` is {label: string, names: string[] (sorted), preferred?: string,
// size(name) -> number|undefined, open(name) -> source}: each input opened only when a reader
// asks for it.
class JsInputSet : public InputSet {
 public:
  explicit JsInputSet(emscripten::val inputs);
  const std::vector<std::string>& Names() const override { return names_; }
  ByteSource* Open(const std::string& name) override;
  bool Size(const std::string& name, uint64_t* size) const override;
  const std::string& label() const override { return label_; }
  const std::string& preferred() const override { return preferred_; }

 private:
  emscripten::val inputs_;
  std::vector<std::string> names_;
  std::string label_;
  std::string preferred_;
  std::map<std::string, std::unique_ptr<JsSource>> open_;
};

// `sink` is {write(Uint8Array), sizeHint?(bytes), wantsSizeFirst?}: the view points into the
// heap and is only valid during the call, so the JS side copies it. A call that returns false
// failed: the export stops with IO_ERROR. `wantsSizeFirst` is true behind export(), which
// gathers each file into one Uint8Array.
class JsSink : public ByteSink {
 public:
  explicit JsSink(emscripten::val sink)
      : sink_(std::move(sink)), wants_size_first_(sink_["wantsSizeFirst"].isTrue()) {}
  void Write(const uint8_t* data, size_t size) override;
  void SizeHint(uint64_t total) override;
  bool WantsSizeFirst() const override { return wants_size_first_; }

 private:
  emscripten::val sink_;
  bool wants_size_first_;
};

// `outputs` is {open(name), write(Uint8Array), sizeHint?(bytes), close(), wantsSizeFirst?},
// each call returning false on failure.
class JsOutputSet : public OutputSet {
 public:
  explicit JsOutputSet(emscripten::val outputs) : outputs_(outputs), sink_(outputs) {}
  ByteSink* Open(const std::string& name) override;
  void Close() override;

 private:
  emscripten::val outputs_;
  JsSink sink_;
};

}  // namespace graphport::wasm

#endif  // GRAPHPORT_BINDINGS_WASM_JS_STREAMS_H_

// Synchronous byte sources and sinks: how input reaches the readers and output leaves the
// writers. The core never opens files; the CLI, the bindings and the tests adapt their own
// storage (a file descriptor, a JS ArrayBuffer or File, memory) to these interfaces.
#ifndef GRAPHPORT_CORE_BYTE_STREAM_H_
#define GRAPHPORT_CORE_BYTE_STREAM_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace graphport {

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Copies up to `max` bytes into `dst`; returns how many, 0 only at the end of the input.
  // Throws graphport::Error(kIo) when the underlying storage fails.
  virtual size_t Read(uint8_t* dst, size_t max) = 0;
  // Total size when known in advance (lets readers reject oversize input before reading).
  virtual bool SizeHint(uint64_t* /*size*/) const { return false; }
  // A source whose bytes already sit in memory says so, so readers can parse in place
  // instead of copying chunk by chunk. Only valid before the first Read().
  virtual bool Contiguous(std::string_view* /*bytes*/) const { return false; }
  // Starts again from the first byte, if the storage allows it. Only error reporting uses it:
  // a failed streamed parse rereads the input to find the byte offset of the fault.
  virtual bool Rewind() { return false; }
};

class ByteSink {
 public:
  virtual ~ByteSink() = default;
  // Takes `size` bytes; the sink must copy what it wants to keep before returning.
  virtual void Write(const uint8_t* data, size_t size) = 0;
  // Called at most once, before the first Write(), by a writer that knows how many bytes it
  // will write: lets a sink allocate its buffer once instead of growing or joining chunks.
  virtual void SizeHint(uint64_t /*total*/) {}
  // True for a sink that gathers the whole file in one buffer (export() to bytes). A writer
  // that only knows its size once it has written (text) then counts it first with a dry run
  // (WriteSizeFirst): printing twice costs less than holding the file twice, as pieces and
  // then joined.
  virtual bool WantsSizeFirst() const { return false; }
};

// Keeps nothing and counts what was written: the dry run's sink.
class CountingSink : public ByteSink {
 public:
  void Write(const uint8_t* /*data*/, size_t size) override { total_ += size; }
  uint64_t total() const { return total_; }

 private:
  uint64_t total_ = 0;
};

// Runs `write(ByteSink*)`, which writes one whole file, into `sink`. A sink that wants the size
// first gets a dry run into a CountingSink, then the size hint, then the real run; `write`
// must write the same bytes both times. What the dry run throws, it throws before `sink` has
// seen a byte.
template <typename Write>
auto WriteSizeFirst(ByteSink* sink, Write&& write) {
  if (sink->WantsSizeFirst()) {
    CountingSink counter;
    write(static_cast<ByteSink*>(&counter));
    sink->SizeHint(counter.total());
  }
  return write(sink);
}

// A source over bytes the caller keeps alive.
class MemorySource : public ByteSource {
 public:
  explicit MemorySource(std::string_view bytes) : bytes_(bytes) {}
  size_t Read(uint8_t* dst, size_t max) override;
  bool SizeHint(uint64_t* size) const override;
  bool Contiguous(std::string_view* bytes) const override;
  bool Rewind() override {
    offset_ = 0;
    return true;
  }

 private:
  std::string_view bytes_;
  size_t offset_ = 0;
};

// Replays an already-read prefix, then continues with the rest of `inner`.
class PrefixedSource : public ByteSource {
 public:
  PrefixedSource(std::string prefix, ByteSource* inner)
      : prefix_(std::move(prefix)), inner_(inner) {}
  size_t Read(uint8_t* dst, size_t max) override;
  bool SizeHint(uint64_t* size) const override { return inner_->SizeHint(size); }
  // The inner source starts again from its first byte, which the prefix was a copy of.
  bool Rewind() override {
    if (!inner_->Rewind()) return false;
    offset_ = prefix_.size();
    return true;
  }

 private:
  std::string prefix_;
  size_t offset_ = 0;
  ByteSource* inner_;
};

class StringSink : public ByteSink {
 public:
  void Write(const uint8_t* data, size_t size) override {
    bytes_.append(reinterpret_cast<const char*>(data), size);
  }
  void SizeHint(uint64_t total) override { bytes_.reserve(bytes_.size() + total); }
  const std::string& bytes() const { return bytes_; }
  std::string Take() { return std::move(bytes_); }

 private:
  std::string bytes_;
};

// Reads up to `max` bytes from the start of `source` (fewer only at its end).
std::string ReadPrefix(ByteSource* source, size_t max);
// The same, appended to `*out` (whose capacity a caller may have reserved for more).
void AppendPrefix(ByteSource* source, size_t max, std::string* out);

// Reads all of `input` into `*out`. False, with `*out` holding what was read, when the input
// is larger than `max_bytes`, so a streamed parse can go on from there.
bool ReadWhole(ByteSource* input, uint64_t max_bytes, std::string* out);

}  // namespace graphport

#endif  // GRAPHPORT_CORE_BYTE_STREAM_H_

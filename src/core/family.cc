#include "core/family.h"

#include "core/error.h"
#include "core/limits.h"

namespace graphport {

Probe::~Probe() = default;

Probe::Peeked& Probe::Peek(const std::string& name) {
  auto it = peeked_.find(name);
  if (it != peeked_.end()) return it->second;
  Peeked& p = peeked_[name];
  p.source = inputs_->Open(name);
  std::string_view whole;
  if (p.source->Contiguous(&whole)) {
    // The bytes already sit in memory: the prefix is a view, nothing is copied.
    p.in_memory = true;
    p.view = whole.substr(0, kDetectionPrefixBytes);
    p.complete = whole.size() <= kDetectionPrefixBytes;
  } else {
    p.buffer = ReadPrefix(p.source, kDetectionPrefixBytes);
    p.view = p.buffer;
    p.complete = p.buffer.size() < kDetectionPrefixBytes;
  }
  return p;
}

std::string_view Probe::Prefix(const std::string& name) { return Peek(name).view; }

bool Probe::Complete(const std::string& name) { return Peek(name).complete; }

ByteSource* Probe::Take(const std::string& name) {
  Peeked& p = Peek(name);
  if (p.replay != nullptr) {
    throw Error(ErrorCode::kInternal, inputs_->DisplayName(name) + " was taken twice");
  }
  p.view = std::string_view();
  if (p.in_memory) {
    // Nothing was read from it: the source still starts at its first byte, and a reader can
    // still parse it in place.
    p.replay = std::make_unique<PrefixedSource>(std::string(), p.source);
    return p.source;
  }
  p.replay = std::make_unique<PrefixedSource>(std::move(p.buffer), p.source);
  return p.replay.get();
}

}  // namespace graphport

namespace graphport {

const ResultSchema& Family::results() const {
  static const ResultSchema* none = new ResultSchema();
  return *none;
}

}  // namespace graphport

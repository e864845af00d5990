#include "proto/protobuf_log.h"

#include <google/protobuf/stubs/logging.h>

#include <mutex>

#include "core/message_text.h"

namespace graphport::proto {
namespace {

namespace pb = google::protobuf;

// The innermost capture of this thread: the handler is process-wide (libprotobuf has one
// function pointer), the capture it reports to is not.
thread_local ProtobufLogCapture* current_capture = nullptr;

// libprotobuf's handler pointer is swapped under this lock, once per outermost capture of the
// process; `active` counts the captures alive on all threads.
std::mutex handler_mutex;
int active_captures = 0;
pb::LogHandler* previous_handler = nullptr;

}  // namespace

void KeepProtobufLog(int level, const std::string& message) {
  ProtobufLogCapture* capture = current_capture;
  if (capture == nullptr || level < static_cast<int>(pb::LOGLEVEL_ERROR)) return;
  if (capture->errors_.size() < ProtobufLogCapture::kMaxKeptErrors) {
    capture->errors_.push_back(CapForMessage(message));
  }
  ++capture->error_count_;
}

namespace {

// A message without a capture on its thread (another thread's, while ours run) is dropped,
// not printed: stderr is never ours to write to.
void Handle(pb::LogLevel level, const char* /*filename*/, int /*line*/,
            const std::string& message) {
  KeepProtobufLog(static_cast<int>(level), message);
}

}  // namespace

ProtobufLogCapture::ProtobufLogCapture() : outer_(current_capture) {
  current_capture = this;
  std::lock_guard<std::mutex> lock(handler_mutex);
  if (active_captures++ == 0) previous_handler = pb::SetLogHandler(&Handle);
}

ProtobufLogCapture::~ProtobufLogCapture() {
  current_capture = outer_;
  std::lock_guard<std::mutex> lock(handler_mutex);
  if (--active_captures == 0) pb::SetLogHandler(previous_handler);
}

std::string ProtobufLogCapture::Summary() const {
  if (errors_.empty()) return "";
  std::string out = "libprotobuf: " + errors_.front();
  if (error_count_ > 1) out += " (and " + std::to_string(error_count_ - 1) + " more)";
  return out;
}

}  // namespace graphport::proto

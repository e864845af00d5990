// libprotobuf reports some faults (a string that is not UTF-8, a message nested too deep)
// only by logging them, and its default log handler writes to stderr, naming source paths of
// the machine that built it. A library must not write to its user's console: while a
// ProtobufLogCapture is alive on a thread, what libprotobuf logs on that thread is kept here,
// for the graphport::Error that follows, and never printed.
#ifndef GRAPHPORT_PROTO_PROTOBUF_LOG_H_
#define GRAPHPORT_PROTO_PROTOBUF_LOG_H_

#include <string>
#include <vector>

namespace graphport::proto {

class ProtobufLogCapture {
 public:
  // Installs graphport's handler when the first capture of the process starts and puts the
  // previous handler back when the last one ends, so nothing global outlives the call.
  ProtobufLogCapture();
  ~ProtobufLogCapture();
  ProtobufLogCapture(const ProtobufLogCapture&) = delete;
  ProtobufLogCapture& operator=(const ProtobufLogCapture&) = delete;

  // Messages of level ERROR and above, in order (warnings are dropped), the first 100 kept.
  static constexpr size_t kMaxKeptErrors = 100;
  const std::vector<std::string>& errors() const { return errors_; }
  size_t error_count() const { return error_count_; }
  // "libprotobuf: <first error>" (capped; with how many more there were), or "".
  std::string Summary() const;

 private:
  friend void KeepProtobufLog(int level, const std::string& message);
  ProtobufLogCapture* outer_;        // a capture further up this thread's stack
  std::vector<std::string> errors_;  // the first kMaxKeptErrors
  size_t error_count_ = 0;
};

// Called by the handler; a message with no capture on its thread is dropped.
void KeepProtobufLog(int level, const std::string& message);

}  // namespace graphport::proto

#endif  // GRAPHPORT_PROTO_PROTOBUF_LOG_H_

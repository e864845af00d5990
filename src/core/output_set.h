// Where an export puts its files. An export produces one or more named files (model.meta and
// model_debug.meta, model.mge and strip_info.json, ...); each is streamed through a ByteSink.
#ifndef GRAPHPORT_CORE_OUTPUT_SET_H_
#define GRAPHPORT_CORE_OUTPUT_SET_H_

#include <map>
#include <string>
#include <vector>

#include "core/byte_stream.h"

namespace graphport {

class OutputSet {
 public:
  virtual ~OutputSet() = default;
  // Starts the file `name`; the sink stays valid until Close(). One file at a time.
  virtual ByteSink* Open(const std::string& name) = 0;
  // Ends the file that Open() started. A file that is opened but never closed (because the
  // export failed half way) must never be handed to the user as complete.
  virtual void Close() = 0;
};

// Keeps every output in memory, in order: for tests and small exports.
class MemoryOutputSet : public OutputSet {
 public:
  struct File {
    std::string name;
    std::string bytes;
  };
  ByteSink* Open(const std::string& name) override {
    current_ = name;
    sink_ = StringSink();
    return &sink_;
  }
  void Close() override { files_.push_back({current_, sink_.Take()}); }
  const std::vector<File>& files() const { return files_; }

 private:
  std::string current_;
  StringSink sink_;
  std::vector<File> files_;
};

}  // namespace graphport

#endif  // GRAPHPORT_CORE_OUTPUT_SET_H_

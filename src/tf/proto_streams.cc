#include "tf/proto_streams.h"

namespace graphport::tf {

int SourceCopyingStream::Read(void* buffer, int size) {
  try {
    size_t n = source_->Read(static_cast<uint8_t*>(buffer), static_cast<size_t>(size));
    return static_cast<int>(n);
  } catch (const std::exception& e) {
    error_ = e.what();
    return -1;
  }
}

bool SinkCopyingStream::Write(const void* buffer, int size) {
  try {
    sink_->Write(static_cast<const uint8_t*>(buffer), static_cast<size_t>(size));
    return true;
  } catch (const std::exception& e) {
    error_ = e.what();
    return false;
  }
}

}  // namespace graphport::tf

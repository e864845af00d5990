#include "proto/deterministic_bytes.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

namespace graphport::proto {

std::string DeterministicBytes(const google::protobuf::MessageLite& message) {
  std::string out;
  out.reserve(message.ByteSizeLong());
  {
    google::protobuf::io::StringOutputStream stream(&out);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    message.SerializeWithCachedSizes(&coded);
  }
  return out;
}

}  // namespace graphport::proto

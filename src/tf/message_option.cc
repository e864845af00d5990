#include "tf/message_option.h"

#include "core/byte_stream.h"
#include "core/error.h"
#include "core/option_schema.h"
#include "proto/proto_io.h"
#include "proto/proto_json.h"
#include "tensorflow/schemas.h"
#include "tf/detect.h"

namespace graphport::tf {

void ParseProtoOption(const std::string& option, const nlohmann::json& value,
                      google::protobuf::MessageLite* message, const proto::MessageSchema& schema) {
  const std::string type(schema.name);
  if (value.is_binary() || (value.is_object() && value.size() == 1 && value.contains("$bytes"))) {
    std::string bytes;
    if (!IsBytesOption(value, &bytes)) {
      throw Error(ErrorCode::kInvalidOption,
                  "export option '" + option + "': $bytes is not base64");
    }
    MemorySource source(bytes);
    try {
      if (!bytes.empty() && LooksLikeText(std::string_view(bytes).substr(0, 4096))) {
        proto::ParseText(&source, message, schema, "export option '" + option + "'");
      } else {
        proto::ParseBinary(&source, message, schema, "export option '" + option + "'");
      }
    } catch (const Error& e) {
      throw Error(ErrorCode::kInvalidOption, e.what());
    }
    return;
  }
  if (!value.is_object()) {
    throw Error(ErrorCode::kInvalidOption,
                "export option '" + option + "' must be a " + type +
                    " as a protobuf-JSON object, or its bytes (binary or text format)");
  }
  // Unknown fields are errors: a misspelt option field must not be dropped silently.
  proto::JsonToMessage(value, message, schema,
                       "export option '" + option + "' is not a valid " + type,
                       ErrorCode::kInvalidOption);
}

}  // namespace graphport::tf

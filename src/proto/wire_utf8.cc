#include "proto/wire_utf8.h"

#include <cstdint>
#include <vector>

#include "core/message_text.h"
#include "core/utf8.h"
#include "proto/wire_path.h"
#include "proto/wire_reader.h"

namespace graphport::proto {
namespace {

class Utf8Walk {
 public:
  // True when a bad string was found (then in *found).
  bool Message(WireReader reader, const MessageSchema& type, BadUtf8String* found) {
    Record r;
    while (reader.Next(&r)) {
      const FieldSchema* field = type.FindFieldByNumber(r.number);
      if (field == nullptr || r.wire_type != kWireLength) continue;
      if (field->type == FieldType::kString && type.proto3) {
        size_t bad = 0;
        if (IsValidUtf8(r.view(), &bad)) continue;
        path_.push_back({field, reader.Before(r), r.view()});
        found->field = std::string(type.full_name) + "." + std::string(field->name);
        found->path = WirePath(path_);
        found->offset = reader.Offset(r.value) + bad;
        return true;
      }
      // Deeper messages: libprotobuf refuses them before their strings.
      if (field->type != FieldType::kMessage || !WithinNesting(reader.depth() + 1)) continue;
      path_.push_back({field, reader.Before(r), r.view()});
      if (Message(reader.Nested(r), *field->message, found)) return true;
      path_.pop_back();
    }
    return false;
  }

 private:
  std::vector<WireStep> path_;  // to the message being walked
};

}  // namespace

std::optional<BadUtf8String> FindBadUtf8String(std::string_view bytes, const MessageSchema& type) {
  BadUtf8String found;
  Utf8Walk walk;
  if (!walk.Message(WireReader(bytes), type, &found)) return std::nullopt;
  return found;
}

}  // namespace graphport::proto

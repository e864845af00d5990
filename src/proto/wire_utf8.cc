#include "proto/wire_utf8.h"

#include <cstdint>
#include <vector>

#include "core/message_text.h"
#include "core/utf8.h"
#include "proto/wire_path.h"
#include "proto/wire_reader.h"

namespace graphport::proto {
namespace {

class Walk {
 public:
  // True when a bad string was found (then in *found).
  bool Message(WireReader reader, const MessageSchema& type, BadUtf8String* found) {
    Record r;
    while (reader.Next(&r)) {
      const FieldSchema* field = type.FindFieldByNumber(r.number);
      if (field == nullptr || r.wire_type != kWireLength) continue;
      const std::string_view before(reinterpret_cast<const char*>(reader.begin()),
                                    static_cast<size_t>(r.start - reader.begin()));
      if (field->type == FieldType::kString && type.proto3) {
        size_t bad = 0;
        if (IsValidUtf8(r.view(), &bad)) continue;
        steps_.push_back(WirePathStep(before, *field, r.view()));
        found->field = std::string(type.full_name) + "." + std::string(field->name);
        found->path = JoinPathSteps(steps_);
        found->offset = reader.Offset(r.value) + bad;
        return true;
      }
      // Deeper messages: libprotobuf refuses them before their strings.
      if (field->type != FieldType::kMessage || !WithinNesting(reader.depth() + 1)) continue;
      steps_.push_back(WirePathStep(before, *field, r.view()));
      if (Message(reader.Nested(r), *field->message, found)) return true;
      steps_.pop_back();
    }
    return false;
  }

 private:
  std::vector<std::string> steps_;
};

}  // namespace

std::optional<BadUtf8String> FindBadUtf8String(std::string_view bytes, const MessageSchema& type) {
  BadUtf8String found;
  Walk walk;
  if (!walk.Message(WireReader(bytes), type, &found)) return std::nullopt;
  return found;
}

}  // namespace graphport::proto

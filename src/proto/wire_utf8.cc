#include "proto/wire_utf8.h"

#include <cstdint>
#include <vector>

#include "core/limits.h"
#include "core/message_text.h"
#include "core/utf8.h"
#include "proto/wire_path.h"
#include "proto/wire_record.h"

namespace graphport::proto {
namespace {

class Walk {
 public:
  explicit Walk(const uint8_t* base) : base_(base) {}

  // True when a bad string was found (then in *found).
  bool Message(std::string_view bytes, const MessageSchema& type, int depth, BadUtf8String* found) {
    if (depth > kMaxProtoNesting) return false;
    const auto* start = reinterpret_cast<const uint8_t*>(bytes.data());
    const uint8_t* end = start + bytes.size();
    Record r;
    for (const uint8_t* p = start; p < end && ReadRecord(p, end, &r); p = r.end) {
      const FieldSchema* field = type.FindFieldByNumber(r.number);
      if (field == nullptr || r.wire_type != kWireLength) continue;
      const std::string_view before = bytes.substr(0, static_cast<size_t>(r.start - start));
      if (field->type == FieldType::kString && type.proto3) {
        size_t bad = 0;
        if (IsValidUtf8(r.view(), &bad)) continue;
        steps_.push_back(WirePathStep(before, *field, r.view()));
        found->field = std::string(type.full_name) + "." + std::string(field->name);
        found->path = JoinPathSteps(steps_);
        found->offset = static_cast<size_t>(r.value - base_) + bad;
        return true;
      }
      if (field->type != FieldType::kMessage) continue;
      steps_.push_back(WirePathStep(before, *field, r.view()));
      if (Message(r.view(), *field->message, depth + 1, found)) return true;
      steps_.pop_back();
    }
    return false;
  }

 private:
  const uint8_t* base_;
  std::vector<std::string> steps_;
};

}  // namespace

std::optional<BadUtf8String> FindBadUtf8String(std::string_view bytes, const MessageSchema& type) {
  BadUtf8String found;
  Walk walk(reinterpret_cast<const uint8_t*>(bytes.data()));
  if (!walk.Message(bytes, type, 0, &found)) return std::nullopt;
  return found;
}

}  // namespace graphport::proto

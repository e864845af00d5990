#include "proto/wire_path.h"

#include <cstdint>

#include "core/message_text.h"
#include "core/utf8.h"
#include "proto/wire_reader.h"

namespace graphport::proto {
namespace {

// "[key]" from the last key record of a map entry's bytes, or "" when there is none to show.
std::string KeyText(std::string_view entry, const FieldSchema& key) {
  std::string text;
  const auto* p = reinterpret_cast<const uint8_t*>(entry.data());
  const uint8_t* end = p + entry.size();
  Record r;
  for (; p < end && ReadRecord(p, end, &r); p = r.end) {
    if (r.number != key.number) continue;
    if (key.type == FieldType::kString && r.wire_type == kWireLength) {
      text = IsValidUtf8(r.view()) ? "[\"" + CapForMessage(r.view()) + "\"]" : "";
    } else if (r.wire_type == kWireVarint) {
      const uint64_t v = r.varint;
      switch (key.type) {
        case FieldType::kBool:
          text = v != 0 ? "[true]" : "[false]";
          break;
        case FieldType::kSint32:
        case FieldType::kSint64:
          text = "[" + std::to_string(static_cast<int64_t>((v >> 1) ^ (0 - (v & 1)))) + "]";
          break;
        case FieldType::kInt32:
          text = "[" + std::to_string(static_cast<int32_t>(v)) + "]";
          break;
        case FieldType::kInt64:
          text = "[" + std::to_string(static_cast<int64_t>(v)) + "]";
          break;
        default:
          text = "[" + std::to_string(v) + "]";
      }
    }
  }
  return text;
}

}  // namespace

std::string WirePathStep(std::string_view before, const FieldSchema& field,
                         std::string_view entry) {
  std::string step(field.name);
  if (!field.repeated) return step;
  const auto* p = reinterpret_cast<const uint8_t*>(before.data());
  const uint8_t* end = p + before.size();
  int index = 0;
  Record r;
  for (; p < end && ReadRecord(p, end, &r); p = r.end) {
    if (r.number == field.number) ++index;
  }
  std::string key;
  if (field.map) key = KeyText(entry, field.message->fields[0]);
  if (!key.empty()) return step + key;
  return step + (field.map ? "[#" : "[") + std::to_string(index) + "]";
}

std::string WirePath(const std::vector<WireStep>& steps) {
  std::vector<std::string> texts;
  texts.reserve(steps.size());
  for (const WireStep& step : steps) {
    texts.push_back(WirePathStep(step.before, *step.field, step.value));
  }
  return JoinPathSteps(texts);
}

}  // namespace graphport::proto

#include "proto/unknown_fields.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/limits.h"
#include "core/message_text.h"
#include "core/utf8.h"
#include "proto/deterministic_bytes.h"
#include "proto/wire_record.h"

namespace graphport::proto {
namespace {

// One step of the path to a message, for "node[3].attr[\"T\"]": the field, and which of its
// values (an index, or a map entry whose key names it). Made into text only when an unknown
// field is found: most walks find none.
struct Step {
  const FieldSchema* field;
  size_t index;
  std::string_view entry;  // a map entry's bytes
};

// A map entry's key, as the path names it: strings quoted (and capped), numbers and bools as
// they are; anything unexpected by its place among the entries.
std::string MapKeyText(std::string_view entry, const MessageSchema& entry_type, size_t index) {
  const FieldSchema* key = entry_type.FindFieldByNumber(1);
  const auto* p = reinterpret_cast<const uint8_t*>(entry.data());
  const uint8_t* end = p + entry.size();
  Record r;
  Record found;
  bool have = false;
  for (; p < end && ReadRecord(p, end, &r); p = r.end) {
    if (r.number == 1) {
      found = r;
      have = true;  // the last one wins, as in a parse
    }
  }
  const std::string by_place = "[#" + std::to_string(index) + "]";
  if (key == nullptr) return by_place;
  if (key->type == FieldType::kString) {
    std::string_view text = have && found.wire_type == kWireLength ? found.view() : "";
    // A key that is itself the fault must not break the message (it ends up in JSON).
    if (!IsValidUtf8(text)) return by_place;
    return "[\"" + CapForMessage(text) + "\"]";
  }
  const uint64_t value = have && found.wire_type == kWireVarint ? found.varint : 0;
  switch (key->type) {
    case FieldType::kInt32:
      return "[" + std::to_string(static_cast<int32_t>(value)) + "]";
    case FieldType::kInt64:
      return "[" + std::to_string(static_cast<int64_t>(value)) + "]";
    case FieldType::kUint32:
      return "[" + std::to_string(static_cast<uint32_t>(value)) + "]";
    case FieldType::kUint64:
      return "[" + std::to_string(value) + "]";
    case FieldType::kBool:
      return value != 0 ? "[true]" : "[false]";
    default:
      return by_place;
  }
}

std::string StepText(const Step& step) {
  std::string text(step.field->name);
  if (step.field->map) {
    text += MapKeyText(step.entry, *step.field->message, step.index);
  } else if (step.field->repeated) {
    text += "[" + std::to_string(step.index) + "]";
  }
  return text;
}

// "node[3].attr[\"T\"].s"; a very deep path keeps its first and last steps.
std::string PathText(const std::vector<Step>& path) {
  constexpr size_t kEnds = 6;
  std::string out;
  for (size_t i = 0; i < path.size(); ++i) {
    if (path.size() > 2 * kEnds && i == kEnds) {
      out += ".(" + std::to_string(path.size() - 2 * kEnds) + " more)";
      i = path.size() - kEnds;
    }
    if (!out.empty()) out += '.';
    out += StepText(path[i]);
  }
  return out;
}

// Values seen per field number: a few inline, more on the heap.
class Counts {
 public:
  size_t Next(int number) {
    for (size_t i = 0; i < inline_used_; ++i) {
      if (inline_[i].first == number) return inline_[i].second++;
    }
    for (auto& [n, count] : more_) {
      if (n == number) return count++;
    }
    if (inline_used_ < kInline) {
      inline_[inline_used_++] = {number, 1};
    } else {
      more_.emplace_back(number, 1);
    }
    return 0;
  }

 private:
  static constexpr size_t kInline = 8;
  std::pair<int, size_t> inline_[kInline];
  size_t inline_used_ = 0;
  std::vector<std::pair<int, size_t>> more_;
};

class Walk {
 public:
  explicit Walk(UnknownFieldReport* report) : report_(report) {}

  void Message(std::string_view bytes, const MessageSchema& type, int depth) {
    if (depth > kMaxProtoNesting) return;  // libprotobuf would not have parsed it
    const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
    const uint8_t* end = p + bytes.size();
    // How many values of each message field came before, for a repeated field's index (a
    // message has few such fields: a short list beats a map).
    Counts seen;
    Record r;
    for (; p < end && ReadRecord(p, end, &r); p = r.end) {
      const FieldSchema* field = type.FindFieldByNumber(r.number);
      const bool packed = field != nullptr && field->packable() && r.wire_type == kWireLength;
      if (field == nullptr || (r.wire_type != field->wire_type() && !packed)) {
        Unknown(r.number);
        continue;
      }
      if (field->type != FieldType::kMessage) continue;
      path_.push_back({field, seen.Next(r.number), r.view()});
      Message(r.view(), *field->message, depth + 1);
      path_.pop_back();
    }
  }

 private:
  void Unknown(int number) {
    if (report_->listed.size() < UnknownFieldReport::kMaxListed) {
      std::string where = PathText(path_);
      report_->listed.push_back((where.empty() ? "" : where + " ") + "field " +
                                std::to_string(number));
    }
    ++report_->count;
  }

  UnknownFieldReport* report_;
  std::vector<Step> path_;
};

}  // namespace

UnknownFieldReport ListUnknownFields(std::string_view bytes, const MessageSchema& type) {
  UnknownFieldReport report;
  Walk(&report).Message(bytes, type, 0);
  return report;
}

UnknownFieldReport ListUnknownFields(const google::protobuf::MessageLite& message,
                                     const MessageSchema& type) {
  return ListUnknownFields(DeterministicBytes(message), type);
}

}  // namespace graphport::proto

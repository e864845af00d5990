#include "proto/unknown_fields.h"

#include <cstdint>
#include <string>
#include <vector>

#include "core/limits.h"
#include "core/message_text.h"
#include "proto/deterministic_bytes.h"
#include "proto/wire_path.h"
#include "proto/wire_record.h"

namespace graphport::proto {
namespace {

// One step of the path to a message, for "node[3].attr[\"T\"]": the field, the bytes of
// its message before the value's record (which count its index) and the value's bytes (a map
// entry's key names it). Made into text only when an unknown field is found: most walks find
// none.
struct Step {
  const FieldSchema* field;
  std::string_view before;
  std::string_view value;
};

class Walk {
 public:
  explicit Walk(UnknownFieldReport* report) : report_(report) {}

  void Message(std::string_view bytes, const MessageSchema& type, int depth) {
    if (depth > kMaxProtoNesting) return;  // libprotobuf would not have parsed it
    const auto* base = reinterpret_cast<const uint8_t*>(bytes.data());
    const uint8_t* p = base;
    const uint8_t* end = p + bytes.size();
    Record r;
    for (; p < end && ReadRecord(p, end, &r); p = r.end) {
      const FieldSchema* field = type.FindFieldByNumber(r.number);
      const bool packed = field != nullptr && field->packable() && r.wire_type == kWireLength;
      if (field == nullptr || (r.wire_type != field->wire_type() && !packed)) {
        Unknown(r.number);
        continue;
      }
      if (field->type != FieldType::kMessage) continue;
      path_.push_back({field, bytes.substr(0, static_cast<size_t>(r.start - base)), r.view()});
      Message(r.view(), *field->message, depth + 1);
      path_.pop_back();
    }
  }

 private:
  void Unknown(int number) {
    if (report_->listed.size() < UnknownFieldReport::kMaxListed) {
      std::vector<std::string> steps;
      for (const Step& step : path_) {
        steps.push_back(WirePathStep(step.before, *step.field, step.value));
      }
      std::string where = JoinPathSteps(steps);
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

#include "proto/unknown_fields.h"

#include <cstdint>
#include <string>
#include <vector>

#include "core/message_text.h"
#include "proto/deterministic_bytes.h"
#include "proto/wire_path.h"
#include "proto/wire_reader.h"

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

  void Message(WireReader reader, const MessageSchema& type) {
    Record r;
    while (reader.Next(&r)) {
      const FieldSchema* field = type.FindFieldByNumber(r.number);
      const bool packed = field != nullptr && field->packable() && r.wire_type == kWireLength;
      // A group is kept as an unknown field too: no schema graphport reads has one.
      if (field == nullptr || (r.wire_type != field->wire_type() && !packed)) {
        Unknown(r.number);
        continue;
      }
      // Deeper messages: libprotobuf would not have parsed them.
      if (field->type != FieldType::kMessage || !WithinNesting(reader.depth() + 1)) continue;
      path_.push_back({field, Before(reader, r), r.view()});
      Message(reader.Nested(r), *field->message);
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

  // The bytes of the reader's message before record `r`.
  static std::string_view Before(const WireReader& reader, const Record& r) {
    return std::string_view(reinterpret_cast<const char*>(reader.begin()),
                            static_cast<size_t>(r.start - reader.begin()));
  }

  UnknownFieldReport* report_;
  std::vector<Step> path_;
};

}  // namespace

UnknownFieldReport ListUnknownFields(std::string_view bytes, const MessageSchema& type) {
  UnknownFieldReport report;
  Walk(&report).Message(WireReader(bytes), type);
  return report;
}

UnknownFieldReport ListUnknownFields(const google::protobuf::MessageLite& message,
                                     const MessageSchema& type) {
  return ListUnknownFields(DeterministicBytes(message), type);
}

}  // namespace graphport::proto

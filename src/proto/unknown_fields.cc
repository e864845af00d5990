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

// Lists the fields no schema has: most walks find none.
class UnknownFieldWalk {
 public:
  explicit UnknownFieldWalk(UnknownFieldReport* report) : report_(report) {}

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
      path_.push_back({field, reader.Before(r), r.view()});
      Message(reader.Nested(r), *field->message);
      path_.pop_back();
    }
  }

 private:
  void Unknown(int number) {
    if (report_->listed.size() < UnknownFieldReport::kMaxListed) {
      std::string where = WirePath(path_);
      report_->listed.push_back((where.empty() ? "" : where + " ") + "field " +
                                std::to_string(number));
    }
    ++report_->count;
  }

  UnknownFieldReport* report_;
  std::vector<WireStep> path_;  // to the message being walked
};

}  // namespace

UnknownFieldReport ListUnknownFields(std::string_view bytes, const MessageSchema& type) {
  UnknownFieldReport report;
  UnknownFieldWalk(&report).Message(WireReader(bytes), type);
  return report;
}

UnknownFieldReport ListUnknownFields(const google::protobuf::MessageLite& message,
                                     const MessageSchema& type) {
  return ListUnknownFields(DeterministicBytes(message), type);
}

}  // namespace graphport::proto

#include "proto/wire_groups.h"

#include <cstdint>
#include <vector>

#include "core/error.h"
#include "core/message_text.h"
#include "core/utf8.h"
#include "proto/wire_path.h"
#include "proto/wire_reader.h"

namespace graphport::proto {
namespace {

class GroupWalk {
 public:
  // False when a group was found (then in `found`).
  bool Message(WireReader reader, const MessageSchema& type) {
    Record r;
    while (reader.Next(&r)) {
      if (r.wire_type == kWireStartGroup) return Found(reader, r);
      if (r.wire_type != kWireLength) continue;
      const FieldSchema* field = type.FindFieldByNumber(r.number);
      if (field == nullptr || field->type != FieldType::kMessage) continue;
      // libprotobuf refuses deeper messages before their groups would matter.
      if (!WithinNesting(reader.depth() + 1)) continue;
      path_.push_back({field, reader.Before(r), r.view()});
      if (!Message(reader.Nested(r), *field->message)) return false;
      path_.pop_back();
    }
    // A group tag the reader stopped at (an end-group alone, a group that does not close or
    // nests too deep) is found as well; any other fault is the parse's to report.
    const bool group_tag = r.wire_type == kWireStartGroup || r.wire_type == kWireEndGroup;
    if (reader.fault() != WireFault::kNone && group_tag) return Found(reader, r);
    return true;
  }

  WireGroup found;

 private:
  // Notes the group of record `r` and returns false.
  bool Found(const WireReader& reader, const Record& r) {
    found.offset = reader.Offset(r.start);
    found.number = r.number;
    found.end = r.wire_type == kWireEndGroup;
    found.path = WirePath(path_);
    // Who holds it: the innermost node or function on the path (a function by its
    // signature's name), else the innermost message with a name of its own.
    for (bool node_or_function : {true, false}) {
      for (size_t i = path_.size(); i-- > 0;) {
        const MessageSchema& owner = *path_[i].field->message;
        std::string_view name;
        const bool wanted =
            !node_or_function || owner.name == "NodeDef" || owner.name == "FunctionDef";
        if (wanted && NameOf(path_[i].value, owner, &name)) {
          found.owner_name = CapForMessage(name);
          found.owner_type = std::string(owner.name);
          return false;
        }
      }
    }
    return false;
  }

  // A message's `name` (a string field of that name), or its `signature`'s.
  static bool NameOf(std::string_view bytes, const MessageSchema& type, std::string_view* name) {
    const FieldSchema* field = type.FindFieldByName("name");
    if (field != nullptr && field->type == FieldType::kString &&
        FindLengthDelimited(bytes, field->number, name) && !name->empty() && IsValidUtf8(*name)) {
      return true;
    }
    const FieldSchema* signature = type.FindFieldByName("signature");
    std::string_view signature_bytes;
    return signature != nullptr && signature->type == FieldType::kMessage &&
           FindLengthDelimited(bytes, signature->number, &signature_bytes) &&
           NameOf(signature_bytes, *signature->message, name);
  }

  std::vector<WireStep> path_;
};

}  // namespace

std::optional<WireGroup> FindGroup(std::string_view bytes, const MessageSchema& type) {
  GroupWalk walk;
  if (walk.Message(WireReader(bytes), type)) return std::nullopt;
  return walk.found;
}

std::string DescribeGroup(const WireGroup& group) {
  std::string text = "field " + std::to_string(group.number) + " is a group (wire type " +
                     (group.end ? "end" : "start") + "-group) at byte " +
                     std::to_string(group.offset);
  if (!group.path.empty()) text += ", in " + group.path;
  if (!group.owner_name.empty()) text += " (" + group.owner_type + " '" + group.owner_name + "')";
  return text + "; TensorFlow's schemas have no groups";
}

std::string GroupNode(const WireGroup& group) {
  const bool named = group.owner_type == "NodeDef" || group.owner_type == "FunctionDef";
  return named ? group.owner_name : "";
}

void ThrowIfGroup(std::string_view bytes, const MessageSchema& type, const std::string& what) {
  std::optional<WireGroup> group = FindGroup(bytes, type);
  if (!group.has_value()) return;
  ErrorLocation where;
  where.node = GroupNode(*group);
  throw Error(ErrorCode::kParseError,
              what + ": " + DescribeGroup(*group) + " (a byte offset in the message as written)",
              where);
}

}  // namespace graphport::proto

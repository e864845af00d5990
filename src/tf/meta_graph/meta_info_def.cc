#include "tf/meta_graph/meta_info_def.h"

#include <cstdint>
#include <set>
#include <string>
#include <string_view>

#include "core/error.h"
#include "core/message_text.h"
#include "proto/deterministic_bytes.h"
#include "proto/wire_reader.h"
#include "tensorflow/schemas.h"
#include "tf/meta_graph/version_string.h"

namespace graphport::tf {
namespace {

using MetaInfoDef = tensorflow::MetaGraphDef::MetaInfoDef;

// The field numbers a message's bytes hold: a field is set when it is serialised (proto3
// scalars at their default are not), whether singular, repeated or a map.
std::set<int> FieldsSet(std::string_view bytes) {
  std::set<int> numbers;
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  const uint8_t* end = p + bytes.size();
  proto::Record r;
  for (; p < end && proto::ReadRecord(p, end, &r); p = r.end) numbers.insert(r.number);
  return numbers;
}

}  // namespace

// meta_info_def given by the caller: every field it sets replaces the loaded one's; fields it
// leaves unset keep the loaded values (so the producer's tensorflow_version survives).
void ApplyMetaInfoDef(const MetaInfoDef& given, MetaInfoDef* target) {
  if (!given.tensorflow_version().empty() && !IsPep440Version(given.tensorflow_version())) {
    throw Error(ErrorCode::kInvalidOption,
                "metaInfoDef.tensorflow_version '" + CapForMessage(given.tensorflow_version()) +
                    "' is not a version (PEP 440, e.g. \"2.14.0\"); TensorFlow's importer "
                    "would fail on it");
  }
  // The given message's bytes, then the records of the loaded one's known fields that the
  // given one does not set: parsed together, each field comes from one side only.
  const proto::MessageSchema& schema = proto::SchemaOf<MetaInfoDef>();
  std::string merged = proto::DeterministicBytes(given);
  const std::set<int> given_fields = FieldsSet(merged);
  const std::string loaded = proto::DeterministicBytes(*target);
  const auto* p = reinterpret_cast<const uint8_t*>(loaded.data());
  const uint8_t* end = p + loaded.size();
  proto::Record r;
  for (; p < end && proto::ReadRecord(p, end, &r); p = r.end) {
    const proto::FieldSchema* field = schema.FindFieldByNumber(r.number);
    // The loaded message's unknown fields (unknown numbers, or known ones with another wire
    // type) are not its fields: they stay behind, as a copy of its fields leaves them.
    if (given_fields.count(r.number) != 0 || field == nullptr ||
        (r.wire_type != field->wire_type() &&
         !(field->packable() && r.wire_type == proto::kWireLength))) {
      continue;
    }
    merged.append(reinterpret_cast<const char*>(r.start), static_cast<size_t>(r.end - r.start));
  }
  if (!target->ParseFromString(merged)) {
    throw Error(ErrorCode::kInternal, "metaInfoDef: the merged message does not parse");
  }
}

}  // namespace graphport::tf

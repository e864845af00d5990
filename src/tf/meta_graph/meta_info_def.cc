#include "tf/meta_graph/meta_info_def.h"

#include <vector>

#include "core/error.h"
#include "core/message_text.h"
#include "tf/meta_graph/version_string.h"

namespace graphport::tf {
namespace {

using google::protobuf::FieldDescriptor;
using MetaInfoDef = tensorflow::MetaGraphDef::MetaInfoDef;

bool FieldIsSet(const google::protobuf::Message& m, const FieldDescriptor* f) {
  const auto* r = m.GetReflection();
  return f->is_repeated() ? r->FieldSize(m, f) > 0 : r->HasField(m, f);
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
  MetaInfoDef merged = given;
  std::vector<const FieldDescriptor*> kept, target_fields;
  target->GetReflection()->ListFields(*target, &target_fields);
  for (const auto* f : target_fields) {
    if (!FieldIsSet(given, f)) kept.push_back(f);
  }
  MetaInfoDef loaded = *target;
  loaded.GetReflection()->SwapFields(&loaded, &merged, kept);
  *target = merged;
}

}  // namespace graphport::tf

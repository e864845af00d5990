#include "proto/message_walk.h"

#include "core/utf8.h"

namespace graphport::proto {
namespace {

namespace pb = google::protobuf;
using FD = pb::FieldDescriptor;

bool Utf8Walk(const pb::Message& m, FieldPath* path, size_t* bad_offset) {
  const pb::Reflection* r = m.GetReflection();
  std::vector<const FD*> fields;
  r->ListFields(m, &fields);
  for (const FD* f : fields) {
    if (f->type() == FD::TYPE_STRING) {
      std::string scratch;
      if (f->is_repeated()) {
        for (int i = 0; i < r->FieldSize(m, f); ++i) {
          if (!IsValidUtf8(r->GetRepeatedStringReference(m, f, i, &scratch), bad_offset)) {
            path->push_back({&m, f, i});
            return true;
          }
        }
      } else if (!IsValidUtf8(r->GetStringReference(m, f, &scratch), bad_offset)) {
        path->push_back({&m, f, -1});
        return true;
      }
    } else if (f->cpp_type() == FD::CPPTYPE_MESSAGE) {
      int n = f->is_repeated() ? r->FieldSize(m, f) : 1;
      for (int i = 0; i < n; ++i) {
        path->push_back({&m, f, f->is_repeated() ? i : -1});
        const pb::Message& child =
            f->is_repeated() ? r->GetRepeatedMessage(m, f, i) : r->GetMessage(m, f);
        if (Utf8Walk(child, path, bad_offset)) return true;
        path->pop_back();
      }
    }
  }
  return false;
}

}  // namespace

bool FindNonUtf8String(const pb::Message& message, FieldPath* path, size_t* bad_offset) {
  path->clear();
  size_t offset = 0;
  bool found = Utf8Walk(message, path, &offset);
  if (bad_offset != nullptr) *bad_offset = offset;
  return found;
}

}  // namespace graphport::proto

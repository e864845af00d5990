#include "proto/message_walk.h"

#include <google/protobuf/unknown_field_set.h>

namespace graphport::proto {
namespace {

namespace pb = google::protobuf;
using FD = pb::FieldDescriptor;

void UnknownWalk(const pb::Message& m, FieldPath* path, UnknownFieldReport* report) {
  const pb::Reflection* r = m.GetReflection();
  const pb::UnknownFieldSet& unknown = r->GetUnknownFields(m);
  for (int i = 0; i < unknown.field_count(); ++i) {
    if (report->listed.size() < UnknownFieldReport::kMaxListed) {
      std::string where = FieldPathText(*path);
      report->listed.push_back((where.empty() ? "" : where + " ") + "field " +
                               std::to_string(unknown.field(i).number()));
    }
    ++report->count;
  }
  std::vector<const FD*> fields;
  r->ListFields(m, &fields);
  for (const FD* f : fields) {
    if (f->cpp_type() != FD::CPPTYPE_MESSAGE) continue;
    int n = f->is_repeated() ? r->FieldSize(m, f) : 1;
    for (int i = 0; i < n; ++i) {
      path->push_back({&m, f, f->is_repeated() ? i : -1});
      UnknownWalk(f->is_repeated() ? r->GetRepeatedMessage(m, f, i) : r->GetMessage(m, f), path,
                  report);
      path->pop_back();
    }
  }
}

}  // namespace

UnknownFieldReport ListUnknownFields(const pb::Message& message) {
  UnknownFieldReport report;
  FieldPath path;
  UnknownWalk(message, &path, &report);
  return report;
}

}  // namespace graphport::proto

#include "tf/wire_nested.h"

#include <google/protobuf/io/coded_stream.h>

#include "proto/wire_reader.h"
#include "proto/wire_scalar.h"
#include "tf/field_numbers.h"

namespace graphport::tf {
namespace {

using google::protobuf::io::CodedOutputStream;
using proto::ReadRecord;
using proto::Record;

// The one length-delimited record of `number` in bytes[begin, end); false when there is
// none, more than one, or a record that does not read.
bool OnlyRecord(std::string_view bytes, uint64_t begin, uint64_t end, int number,
                RecordSpan* span) {
  const auto* base = reinterpret_cast<const uint8_t*>(bytes.data());
  const uint8_t* p = base + begin;
  const uint8_t* stop = base + end;
  int found = 0;
  Record r;
  while (p < stop) {
    if (!ReadRecord(p, stop, &r)) return false;
    if (r.number == number) {
      if (r.wire_type != 2 || ++found > 1) return false;
      span->start = static_cast<uint64_t>(r.start - base);
      const uint8_t* q = r.start;
      uint64_t tag;
      proto::ReadVarint(&q, stop, &tag);  // ReadRecord read it already
      span->tag_end = static_cast<uint64_t>(q - base);
      span->value = static_cast<uint64_t>(r.value - base);
      span->length = r.length;
    }
    p = r.end;
  }
  return found == 1;
}

}  // namespace

bool LocateGraph(std::string_view bytes, TfKind kind, GraphLocation* location) {
  location->clear();
  RecordSpan span;
  uint64_t begin = 0, end = bytes.size();
  if (kind == TfKind::kSavedModel) {
    if (!OnlyRecord(bytes, begin, end, fields::kSavedModelMetaGraphs, &span)) return false;
    location->push_back(span);
    begin = span.value;
    end = span.end();
  } else if (kind != TfKind::kMetaGraphDef) {
    return false;
  }
  if (!OnlyRecord(bytes, begin, end, fields::kMetaGraphGraphDef, &span)) return false;
  location->push_back(span);
  return true;
}

std::string ReplaceGraphPayload(std::string_view bytes, const GraphLocation& location,
                                std::string_view payload) {
  // New payload lengths, innermost first: each enclosing record loses the old inner record
  // and gains the new one (whose length varint may be shorter).
  const size_t n = location.size();
  std::vector<uint64_t> lengths(n);
  lengths[n - 1] = payload.size();
  for (size_t k = n - 1; k-- > 0;) {
    const RecordSpan& inner = location[k + 1];
    const uint64_t tag = inner.tag_end - inner.start;
    const uint64_t old_record = inner.end() - inner.start;
    const uint64_t new_record =
        tag + CodedOutputStream::VarintSize64(lengths[k + 1]) + lengths[k + 1];
    lengths[k] = location[k].length - old_record + new_record;
  }
  std::string out;
  out.reserve(bytes.size() - location.back().length + payload.size());
  uint64_t cursor = 0;
  for (size_t k = 0; k < n; ++k) {
    const RecordSpan& r = location[k];
    out.append(bytes.substr(cursor, r.tag_end - cursor));
    proto::AppendVarint(&out, lengths[k]);
    cursor = r.value;
  }
  out.append(payload);
  cursor = location.back().end();
  out.append(bytes.substr(cursor));
  return out;
}

}  // namespace graphport::tf

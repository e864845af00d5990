#include "tf/meta_graph/wire_node_edit.h"

#include <algorithm>
#include <cstring>

#include "proto/wire_reader.h"
#include "tf/field_numbers.h"
#include "tf/meta_graph/scope.h"

namespace graphport::tf {
namespace {

using google::protobuf::io::CodedOutputStream;
using proto::ReadRecord;
using proto::Record;

uint64_t StringRecordSize(uint64_t length) {
  return 1 + CodedOutputStream::VarintSize64(length) + length;
}

template <typename Fn>
void ForEachRecord(std::string_view bytes, Fn&& fn) {
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  const uint8_t* end = p + bytes.size();
  Record r;
  for (; p < end && ReadRecord(p, end, &r); p = r.end) fn(r);
}

// The first bytes of a + b + c, as many as fit in `buffer`: enough to compare a prefix.
std::string_view Head(std::string_view a, std::string_view b, std::string_view c,
                      char (&buffer)[32]) {
  size_t n = 0;
  for (std::string_view piece : {a, b, c}) {
    const size_t take = std::min(piece.size(), sizeof buffer - n);
    if (take > 0) std::memcpy(buffer + n, piece.data(), take);
    n += take;
  }
  return std::string_view(buffer, n);
}

}  // namespace

bool AttrsMayNameFunctions(std::string_view bytes) {
  bool found = false;
  ForEachRecord(bytes, [&](const Record& attr) {
    if (found || attr.number != fields::kNodeAttr || attr.wire_type != 2) return;
    ForEachRecord(attr.view(), [&](const Record& entry) {
      if (found || entry.number != fields::kMapValue || entry.wire_type != 2) return;
      ForEachRecord(entry.view(), [&](const Record& value) {
        if (found || value.wire_type != 2) return;
        if (value.number == fields::kAttrFunc) found = true;
        if (value.number != fields::kAttrList) return;
        ForEachRecord(value.view(), [&](const Record& item) {
          if (item.number == fields::kListFunc && item.wire_type == 2) found = true;
        });
      });
    });
  });
  return found;
}

uint64_t WireRenameEdit::Size(std::string_view bytes, std::vector<std::string>* unbound) const {
  uint64_t total = 0;
  ForEachRecord(bytes, [&](const Record& r) {
    if (r.wire_type == 2 && r.number == fields::kNodeName) {
      const size_t length = renamer_.Name(r.view()).size();
      if (length > 0) total += StringRecordSize(length);  // proto3 leaves an empty name out
    } else if (r.wire_type == 2 && r.number == fields::kNodeInput) {
      const NamePieces input = renamer_.Input(r.view());
      total += StringRecordSize(input.size());
      if (unbound == nullptr) return;
      // The written input names an unbound one when its node name starts with the prefix:
      // its first bytes tell (the prefix holds no ':'), so only those are put together.
      char buffer[32];
      if (InputNodeName(Head(input.a, input.b, input.c, buffer))
              .substr(0, kUnboundInputPrefix.size()) == kUnboundInputPrefix) {
        unbound->push_back(input.Joined());
      }
    } else if (r.wire_type == 2 && r.number == fields::kNodeDevice && clear_devices_) {
      // dropped
    } else {
      total += r.end - r.start;
    }
  });
  return total;
}

void WireRenameEdit::Write(std::string_view bytes, CodedOutputStream* out) const {
  auto write_string = [out](int number, const NamePieces& name) {
    out->WriteTag(static_cast<uint32_t>(number << 3 | 2));
    out->WriteVarint64(name.size());
    // An empty view may have no data pointer, which memcpy must not be given.
    for (std::string_view piece : {name.a, name.b, name.c}) {
      if (!piece.empty()) out->WriteRaw(piece.data(), static_cast<int>(piece.size()));
    }
  };
  ForEachRecord(bytes, [&](const Record& r) {
    if (r.wire_type == 2 && r.number == fields::kNodeName) {
      const NamePieces name = renamer_.Name(r.view());
      if (name.size() > 0) write_string(fields::kNodeName, name);
    } else if (r.wire_type == 2 && r.number == fields::kNodeInput) {
      write_string(fields::kNodeInput, renamer_.Input(r.view()));
    } else if (r.wire_type == 2 && r.number == fields::kNodeDevice && clear_devices_) {
      // dropped
    } else {
      out->WriteRaw(r.start, static_cast<int>(r.end - r.start));
    }
  });
}

}  // namespace graphport::tf

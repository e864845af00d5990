// The protobuf JSON writer's bookkeeping (proto_json_writer.h): the fields and map entries
// written in the JSON's order put in the order deterministic serialisation has them, and the
// error that names what was being read and the field path it failed at.
#include "proto/proto_json_writer.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "core/error.h"
#include "core/limits.h"
#include "core/message_text.h"

namespace graphport::proto::proto_json_internal {

// Puts the pieces from `first_piece` on, which together are the output from `region` on, in
// the order of their `order`, equal ones as they came; `keep_last` keeps only the last of
// equal ones.
void WireWriter::PutInOrder(size_t region, size_t first_piece, bool keep_last) {
  auto begin = pieces_.begin() + static_cast<std::ptrdiff_t>(first_piece);
  auto end = pieces_.end();
  auto by_order = [](const Piece& a, const Piece& b) { return a.order < b.order; };
  bool sorted = std::adjacent_find(begin, end, [](const Piece& a, const Piece& b) {
                  return a.order >= b.order;
                }) == end;
  if (!sorted) {
    std::stable_sort(begin, end, by_order);
    scratch_.assign(*out_, region, std::string::npos);
    size_t at = region;
    for (auto it = begin; it != end; ++it) {
      if (keep_last && it + 1 != end && (it + 1)->order == it->order) continue;
      const size_t size = it->end - it->begin;
      std::memcpy(&(*out_)[at], scratch_.data() + (it->begin - region), size);
      at += size;
    }
    out_->resize(at);
  }
  pieces_.resize(first_piece);
}

void WireWriter::NestingTooDeep() const {
  Fail("messages nest more than " + std::to_string(kMaxProtoNesting) + " levels deep");
}

void WireWriter::Fail(const std::string& detail, ErrorCode code) const {
  std::string message = what_;
  if (!path_.empty()) message += ": field '" + Path() + "'";
  throw Error(code, message + ": " + detail);
}

// "meta_info_def.tags[2]", "node[3].attr[\"T\"].type"; the middle of a very deep path is
// left out.
std::string WireWriter::Path() const {
  constexpr size_t kEnds = 8;
  std::string out;
  for (size_t i = 0; i < path_.size(); ++i) {
    if (path_.size() > 2 * kEnds && i == kEnds) {
      out += ".(" + std::to_string(path_.size() - 2 * kEnds) + " more)";
      i = path_.size() - kEnds;
    }
    const Segment& s = path_[i];
    switch (s.kind) {
      case Segment::Kind::kField:
        if (!out.empty()) out += '.';
        out += s.name;
        break;
      case Segment::Kind::kIndex:
        out += "[" + std::to_string(s.index) + "]";
        break;
      case Segment::Kind::kKey:
        out += "[\"";
        out += CapForMessage(s.name);
        out += "\"]";
        break;
    }
  }
  return out;
}

}  // namespace graphport::proto::proto_json_internal

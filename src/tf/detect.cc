#include "tf/detect.h"

#include <cctype>
#include <map>

#include "core/limits.h"
#include "core/message_text.h"
#include "proto/wire_scan.h"

namespace graphport::tf {
namespace {

constexpr TfKind kAllKinds[] = {TfKind::kSavedModel, TfKind::kMetaGraphDef, TfKind::kGraphDef};

// Skips blanks and '#' comments; returns the first identifier of a text proto.
std::string FirstTextField(std::string_view text, size_t* line) {
  size_t i = 0;
  *line = 1;
  while (i < text.size()) {
    char c = text[i];
    if (c == '\n') ++*line;
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '#') {
      while (i < text.size() && text[i] != '\n') ++i;
    } else {
      break;
    }
  }
  size_t start = i;
  while (i < text.size() &&
         (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_' || text[i] == '[' ||
          text[i] == ']' || text[i] == '.' || text[i] == '/')) {
    ++i;
  }
  return std::string(text.substr(start, i - start));
}

TfDetection DetectText(std::string_view prefix) {
  size_t line = 0;
  std::string field = FirstTextField(prefix, &line);
  TfDetection detection;
  detection.format.text = true;
  for (TfKind kind : kAllKinds) {
    if (!field.empty() && KindSchema(kind).FindFieldByName(field) != nullptr) {
      detection.found = true;
      detection.format.kind = kind;
      detection.reason = std::string("text protobuf whose first field '") + field +
                         "' is a field of " + MessageName(kind);
      return detection;
    }
  }
  detection.reason = field.empty() ? "the input is text with no protobuf field in it"
                                   : "the input is text, but its first field '" +
                                         CapForMessage(field) + "' (line " + std::to_string(line) +
                                         ") is not a field of SavedModel, MetaGraphDef or GraphDef";
  return detection;
}

}  // namespace

bool LooksLikeText(std::string_view prefix) {
  size_t i = 0;
  while (i < prefix.size()) {
    unsigned char c = static_cast<unsigned char>(prefix[i]);
    if (c < 0x80) {
      if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v') return false;
      if (c == 0x7F) return false;
      ++i;
      continue;
    }
    // Text format is UTF-8: a byte that cannot start a sequence, or a sequence without its
    // continuation bytes, means binary. A sequence cut by the end of the prefix is fine.
    size_t length = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    if (length == 0 || c == 0xC0 || c == 0xC1 || c > 0xF4) return false;
    for (size_t k = 1; k < length && i + k < prefix.size(); ++k) {
      if ((static_cast<unsigned char>(prefix[i + k]) & 0xC0) != 0x80) return false;
    }
    i += length;
  }
  return true;
}

TfFormat DetectEncoding(TfKind kind, std::string_view prefix) {
  return TfFormat{kind, !prefix.empty() && LooksLikeText(prefix)};
}

TfDetection DetectTf(std::string_view prefix, bool complete) {
  if (LooksLikeText(prefix)) return DetectText(prefix);

  // Every candidate whose schema the bytes fit is scored; a field the schema lacks costs more
  // than a known field earns, so the schema that explains the most bytes wins. A candidate
  // with many unknown fields still fits when at least as many fields are known: graphport
  // keeps unknown fields through an export, and must read its own output back.
  if (prefix.size() > kBinaryDetectionScanBytes) {
    prefix = prefix.substr(0, kBinaryDetectionScanBytes);
    complete = false;
  }
  TfDetection best;
  int best_score = 0;
  std::string rejections;
  for (TfKind kind : kAllKinds) {
    proto::WireScan scan = proto::ScanWire(prefix, KindSchema(kind), complete);
    if (scan.conflict) {
      rejections += std::string(rejections.empty() ? "" : "; ") + "not a " + MessageName(kind) +
                    ": " + scan.conflict_reason + " at byte " +
                    std::to_string(scan.conflict_offset);
      continue;
    }
    // A known number with another wire type is the stronger sign of a wrong schema: in a
    // small protobuf of another kind it decides; in a big graph one such field (kept from a
    // damaged input) does not outweigh thousands that fit.
    int score = scan.known_fields - 2 * scan.unknown_fields - 8 * scan.mismatched_fields;
    int odd = scan.unknown_fields + scan.mismatched_fields;
    bool fits = scan.known_fields > 0 &&
                (score > 0 || (scan.mismatched_fields == 0 && scan.known_fields >= odd));
    if (fits && (!best.found || score > best_score)) {
      best_score = score;
      best.found = true;
      best.format = TfFormat{kind, false};
      best.reason = std::string("binary protobuf whose structure fits ") + MessageName(kind) +
                    " (" + std::to_string(scan.known_fields) + " fields checked, " +
                    std::to_string(scan.unknown_fields) + " unknown" +
                    (scan.mismatched_fields > 0
                         ? ", " + std::to_string(scan.mismatched_fields) + " of another wire type"
                         : "") +
                    (scan.truncated ? "; the input is cut off" : "") + ")";
    } else if (!fits) {
      rejections += std::string(rejections.empty() ? "" : "; ") + "not a " + MessageName(kind) +
                    ": " + std::to_string(odd) + " of its fields are unknown" +
                    (scan.first_mismatch.empty() ? "" : " (" + scan.first_mismatch + ")");
    }
  }
  if (!best.found) best.reason = rejections;
  return best;
}

}  // namespace graphport::tf

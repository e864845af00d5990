#include "core/message_text.h"

namespace graphport {

std::string CapForMessage(std::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  size_t cut = max_bytes;
  // Back up over continuation bytes so the quote stays valid UTF-8 (messages end up in JSON).
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return std::string(text.substr(0, cut)) + "... (" + std::to_string(text.size() - cut) +
         " more bytes)";
}

std::string JoinForMessage(const std::vector<std::string>& items, std::string_view separator,
                           size_t max_items) {
  std::string out;
  size_t shown = items.size() <= max_items ? items.size() : max_items;
  for (size_t i = 0; i < shown; ++i) {
    if (i > 0) out += separator;
    out += CapForMessage(items[i]);
  }
  if (shown < items.size()) {
    out += std::string(separator) + "... and " + std::to_string(items.size() - shown) + " more";
  }
  return out;
}

std::string JoinPathSteps(const std::vector<std::string>& steps, size_t ends) {
  std::string out;
  for (size_t i = 0; i < steps.size(); ++i) {
    if (steps.size() > 2 * ends && i == ends) {
      out += ".(" + std::to_string(steps.size() - 2 * ends) + " more)";
      i = steps.size() - ends;
    }
    if (!out.empty()) out += '.';
    out += steps[i];
  }
  return out;
}

}  // namespace graphport

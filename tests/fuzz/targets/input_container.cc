#include "fuzz/targets/input_container.h"

#include <cstdint>
#include <set>
#include <stdexcept>

namespace graphport::fuzz {

std::vector<PackedFile> UnpackInputs(std::string_view bytes) {
  std::vector<PackedFile> files;
  std::set<std::string> seen;
  size_t at = 0;
  while (at < bytes.size()) {
    size_t name_size = static_cast<unsigned char>(bytes[at++]);
    std::string name(bytes.substr(at, name_size));
    at += name.size();
    uint64_t size = 0;
    for (int i = 0; i < 4 && at < bytes.size(); ++i, ++at) {
      size |= static_cast<uint64_t>(static_cast<unsigned char>(bytes[at])) << (8 * i);
    }
    std::string_view data = bytes.substr(at, size);
    at += data.size();
    if (name.empty() || !seen.insert(name).second) continue;
    files.emplace_back(std::move(name), data);
  }
  return files;
}

std::string PackInputs(const std::vector<PackedFile>& files) {
  std::string out;
  for (const auto& [name, data] : files) {
    if (name.size() > 255 || data.size() > UINT32_MAX) {
      throw std::length_error("input container: '" + name + "' is too long to pack");
    }
    out += static_cast<char>(name.size());
    out += name;
    for (int i = 0; i < 4; ++i) out += static_cast<char>((data.size() >> (8 * i)) & 0xff);
    out += data;
  }
  return out;
}

}  // namespace graphport::fuzz

// fuzz_pack_inputs DIR OUT: packs every file under DIR (names relative to it, '/'-separated)
// into one input container (targets/input_container.h), the seed of a target that reads a
// whole input set. scripts/fuzz.sh runs it on the real models' folders.
// The graph file (saved_model.pb or .pbtxt, a model.json or any other JSON at the top) comes
// first and the rest in name order: libFuzzer cuts a seed longer than its -max_len, and a
// seed cut inside its shards or variables still holds its model (in name order, a TF.js
// folder's group1-shard*.bin came before model.json).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz/targets/input_container.h"

namespace fs = std::filesystem;

namespace {

bool IsGraphFile(const std::string& name) {
  if (name == "saved_model.pb" || name == "saved_model.pbtxt") return true;
  const bool top_level = name.find('/') == std::string::npos;
  return top_level && name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: fuzz_pack_inputs DIR OUT\n";
    return 2;
  }
  std::vector<std::pair<std::string, std::string>> owned;
  for (const auto& entry : fs::recursive_directory_iterator(argv[1])) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    owned.emplace_back(fs::relative(entry.path(), argv[1]).generic_string(),
                       std::string(std::istreambuf_iterator<char>(in), {}));
  }
  std::sort(owned.begin(), owned.end(), [](const auto& a, const auto& b) {
    const bool a_first = IsGraphFile(a.first), b_first = IsGraphFile(b.first);
    return a_first != b_first ? a_first : a.first < b.first;
  });
  std::vector<graphport::fuzz::PackedFile> files(owned.begin(), owned.end());
  std::ofstream out(argv[2], std::ios::binary);
  out << graphport::fuzz::PackInputs(files);
  return out ? 0 : 1;
}

// fuzz_pack_inputs DIR OUT: packs every file under DIR (names relative to it, '/'-separated,
// sorted) into one input container (targets/input_container.h), the seed of a target that
// reads a whole input set. scripts/fuzz.sh runs it on the corpus's folders.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz/targets/input_container.h"

namespace fs = std::filesystem;

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
  std::sort(owned.begin(), owned.end());
  std::vector<graphport::fuzz::PackedFile> files(owned.begin(), owned.end());
  std::ofstream out(argv[2], std::ios::binary);
  out << graphport::fuzz::PackInputs(files);
  return out ? 0 : 1;
}

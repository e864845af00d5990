#include "tf/freeze/op_outputs.h"

#include <algorithm>
#include <cstring>
#include <iterator>

namespace graphport::tf {
namespace {

struct Row {
  const char* op;
  const char* args;
};

const Row kRows[] = {
#include "tf/freeze/op_outputs_table.inc"
};

}  // namespace

bool BuiltinOutputArgs(const std::string& op, std::vector<OutputArgLayout>* args) {
  const Row* row =
      std::lower_bound(std::begin(kRows), std::end(kRows), op.c_str(),
                       [](const Row& r, const char* name) { return std::strcmp(r.op, name) < 0; });
  if (row == std::end(kRows) || op != row->op) return false;
  args->clear();
  std::string spec = row->args;
  size_t start = 0;
  while (start <= spec.size()) {
    size_t end = spec.find(',', start);
    if (end == std::string::npos) end = spec.size();
    std::string arg = spec.substr(start, end - start);
    OutputArgLayout layout;
    size_t mark = arg.find_first_of("#*");
    layout.name = arg.substr(0, mark);
    if (mark != std::string::npos) {
      (arg[mark] == '#' ? layout.number_attr : layout.type_list_attr) = arg.substr(mark + 1);
    }
    args->push_back(layout);
    start = end + 1;
  }
  return true;
}

}  // namespace graphport::tf

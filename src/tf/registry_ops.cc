#include "tf/registry_ops.h"

#include <algorithm>
#include <iterator>

namespace graphport::tf {
namespace {

// Sorted by byte value, as std::string_view compares.
constexpr std::string_view kRegistryOps[] = {
#include "tf/registry_ops_table.inc"
};

}  // namespace

bool InTensorflowRegistry(std::string_view op) {
  return std::binary_search(std::begin(kRegistryOps), std::end(kRegistryOps), op);
}

size_t TensorflowRegistrySize() { return std::size(kRegistryOps); }

}  // namespace graphport::tf

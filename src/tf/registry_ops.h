// The ops of TensorFlow's registry, by name (generated from TensorFlow's ops.pbtxt by
// scripts/gen-registry-ops.mjs). TensorFlow refuses to import a graph naming any other op, so
// an export to a TensorFlow format checks its ops against this list.
#ifndef GRAPHPORT_TF_REGISTRY_OPS_H_
#define GRAPHPORT_TF_REGISTRY_OPS_H_

#include <cstddef>
#include <string_view>

namespace graphport::tf {

// True when TensorFlow's registry defines `op`. False for the ops it registers under a
// leading "_" for Grappler's own rewrites (_FusedConv2D...), which ops.pbtxt leaves out.
bool InTensorflowRegistry(std::string_view op);

// How many ops the registry holds (for messages and tests).
size_t TensorflowRegistrySize();

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_REGISTRY_OPS_H_

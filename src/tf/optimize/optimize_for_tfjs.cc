#include "tf/optimize/optimize_for_tfjs.h"

#include "tf/optimize/fold_batch_norms.h"
#include "tf/optimize/fold_constants.h"
#include "tf/optimize/fuse_contractions.h"
#include "tf/optimize/fuse_depthwise_conv2d.h"
#include "tf/optimize/fuse_prelu.h"
#include "tf/optimize/normalize_bias_add.h"
#include "tf/optimize/remove_identities.h"
#include "tf/optimize/remove_identity_transposes.h"

namespace graphport::tf {

using nlohmann::json;

namespace {

json Report(const IdentityRemoval& removal) {
  return {{"did",
           "removed Identity and NoOp nodes, folded Identity chains onto their Consts, dropped "
           "control edges between stateless nodes, pruned what no output reaches"},
          {"identitiesFoldedIntoConsts", removal.folded_into_consts},
          {"identitiesBypassed", removal.bypassed},
          {"noOpsRemoved", removal.noops},
          {"controlEdgesDropped", removal.control_edges},
          {"nodesPruned", removal.pruned}};
}

std::vector<std::string> Roots(const std::vector<std::string>& inputs,
                               const std::vector<std::string>& outputs) {
  std::vector<std::string> roots = outputs;
  roots.insert(roots.end(), inputs.begin(), inputs.end());
  return roots;
}

}  // namespace

json OptimizeForTfjs(tensorflow::GraphDef* graph, const std::vector<std::string>& inputs,
                     std::vector<std::string>* outputs) {
  json report = json::object();
  int before = graph->node_size();
  report["removeIdentities"] = Report(RemoveIdentities(graph, Roots(inputs, *outputs)));
  // Grappler's first pass goes on with constfold and arithmetic, then prunes again.
  ConstantFolding constants = FoldConstants(graph, Roots(inputs, *outputs));
  report["constfold"] = {{"did", "folded nodes of Consts only (shape ops) into Consts, in place"},
                         {"folded", constants.folded},
                         {"leftTooLarge", constants.too_large}};
  report["arithmetic"] = {
      {"did", "removed transposes whose permutation changes nothing"},
      {"identityTransposesRemoved", RemoveIdentityTransposes(graph, Roots(inputs, *outputs))}};
  report["pruning"] = Report(RemoveIdentities(graph, Roots(inputs, *outputs)));

  BatchNormFolding folding = FoldBatchNorms(graph, Roots(inputs, *outputs));
  report["foldBatchNorms"] = {{"did", "folded batch norms into the convolution before them"},
                              {"folded", folding.folded},
                              {"skipped", folding.skipped}};

  report["normalizeBiasAdd"] = {
      {"did", "made Add/AddV2 of a 1-D Const after a contraction BiasAdd"},
      {"rewritten", NormalizeBiasAdd(graph)}};

  int placed = PlaceContractionsOnCpu(graph);
  ContractionFusion fusion = FuseContractions(graph, Roots(inputs, *outputs));
  report["remap"] = {{"did", "fused Conv2D/MatMul + BiasAdd (+ activation)"},
                     {"placedOnCpu", placed},
                     {"fusedConv2D", fusion.conv2d},
                     {"fusedMatMul", fusion.matmul},
                     {"fusedConv1D", fusion.conv1d},
                     {"withActivation", fusion.activations}};
  report["dependency"] = Report(RemoveIdentities(graph, Roots(inputs, *outputs)));

  report["fusePrelu"] = {{"did", "made Keras's PReLU subgraph Prelu"},
                         {"fused", FuseOpsForPrelu(graph, inputs, outputs)}};
  report["fuseDepthwiseConv2d"] = {{"did", "fused DepthwiseConv2dNative + BiasAdd/activation"},
                                   {"fused", FuseDepthwiseConv2d(graph, inputs, outputs)}};
  report["fusePreluIntoContraction"] = {
      {"did", "fused Prelu into the fused contraction before it"},
      {"fused", FusePreluIntoContraction(graph, inputs, outputs)}};
  report["nodesBefore"] = before;
  report["nodesAfter"] = graph->node_size();
  return report;
}

}  // namespace graphport::tf

// Does an input set hold a TensorFlow.js graph model? Decided from a model.json's first
// bytes: its top-level keys (modelTopology, weightsManifest, format) and the keys of its
// topology, read with a streaming JSON scan that stops where the prefix ends.
#ifndef GRAPHPORT_TFJS_DETECT_H_
#define GRAPHPORT_TFJS_DETECT_H_

#include <string>
#include <string_view>

#include "core/family.h"

namespace graphport::tfjs {

// What the first bytes of one JSON file show.
struct JsonShape {
  bool json = false;               // the prefix scanned as JSON (up to its end)
  bool top_array = false;          // a bare array (of weight groups)
  bool groups_look_right = false;  // its first element has "paths" and "weights"
  bool has_topology = false;
  bool has_manifest = false;
  bool topology_has_node = false;
  bool topology_is_keras = false;  // model_config, class_name or keras_version
  std::string format;              // the "format" string, when seen
  size_t failed_at = 0;            // where the scan stopped on bad JSON (when !json)
};

JsonShape ScanJsonShape(std::string_view prefix, bool complete);

// Detection::kByStructure with format "tfjs-graph-model" and encoding "json" for a graph model;
// the same score for a Keras layers model or a weights-only manifest (the reader then says
// exactly why it cannot read them); 0 with the reason otherwise. The primary input is the
// model.json (preferring that name, then the shallowest .json).
Detection DetectGraphModel(Probe* probe);

}  // namespace graphport::tfjs

#endif  // GRAPHPORT_TFJS_DETECT_H_

#include "tf/meta_graph/debug_info.h"

namespace graphport::tf {
namespace {

// "node@" and "node" name a top-level node; "node@function" a node inside a function, which
// TensorFlow's export does not cover either.
bool TopLevelNodeOf(const std::string& key, std::string* node) {
  size_t at = key.find('@');
  if (at == std::string::npos) {
    *node = key;
    return true;
  }
  if (at + 1 != key.size()) return false;
  *node = key.substr(0, at);
  return true;
}

}  // namespace

int FilterDebugInfo(const tensorflow::GraphDebugInfo& in, const std::set<std::string>& node_names,
                    tensorflow::GraphDebugInfo* out) {
  std::set<std::string> traced;
  std::string node;
  for (const auto& [key, trace] : in.traces()) {
    if (TopLevelNodeOf(key, &node) && node_names.count(node)) {
      (*out->mutable_traces())[key] = trace;
      traced.insert(node);
    }
  }
  for (const auto& [key, id] : in.name_to_trace_id()) {
    if (!TopLevelNodeOf(key, &node) || !node_names.count(node)) continue;
    (*out->mutable_name_to_trace_id())[key] = id;
    traced.insert(node);
    auto trace = in.traces_by_id().find(id);
    if (trace == in.traces_by_id().end()) continue;
    (*out->mutable_traces_by_id())[id] = trace->second;
    for (uint64_t frame : trace->second.frame_id()) {
      auto found = in.frames_by_id().find(frame);
      if (found != in.frames_by_id().end()) (*out->mutable_frames_by_id())[frame] = found->second;
    }
  }
  // The old layout's frames point into `files` by index, so the list is kept whole.
  if (!out->traces().empty()) *out->mutable_files() = in.files();
  return static_cast<int>(traced.size());
}

}  // namespace graphport::tf

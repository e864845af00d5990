// The node a graph input names, for every reader of TensorFlow graphs: the wire walks of the
// export, the freeze and the graph optimizations alike.
#ifndef GRAPHPORT_TF_INPUT_NAME_H_
#define GRAPHPORT_TF_INPUT_NAME_H_

#include <string>
#include <string_view>

namespace graphport::tf {

// "^a/b" -> "a/b", "a/b:2" -> "a/b", "a/b" -> "a/b": up to the first ':', since a node name
// holds none (TensorFlow's [A-Za-z0-9.][A-Za-z0-9_>./]*).
inline std::string_view InputNodeName(std::string_view input) {
  if (!input.empty() && input[0] == '^') input.remove_prefix(1);
  return input.substr(0, input.find(':'));
}
// The same as a string, for the graph passes that key maps by it.
inline std::string InputNodeName(const std::string& input) {
  return std::string(InputNodeName(std::string_view(input)));
}

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_INPUT_NAME_H_

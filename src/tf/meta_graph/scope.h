// Name-scope rules of export_meta_graph(export_scope=...): which names are inside the scope,
// how they are stripped of it, and how inputs from outside become unbound inputs.
//
// TensorFlow tests membership with a plain string prefix (scope "a" also takes "ab/x") and
// strips with the scope as an unescaped regular expression (a "." in it matches anything).
// graphport does the correct thing instead: a name is inside scope S when it is S or starts
// with "S/", and stripping removes exactly "S/" (README: differences from TensorFlow).
#ifndef GRAPHPORT_TF_META_GRAPH_SCOPE_H_
#define GRAPHPORT_TF_META_GRAPH_SCOPE_H_

#include <string>
#include <string_view>

#include "tf/input_name.h"

namespace graphport::tf {

// Inputs from outside an exported scope are renamed with this prefix; TensorFlow's importer
// then requires them in input_map.
inline constexpr std::string_view kUnboundInputPrefix = "$unbound_inputs_";

class Scope {
 public:
  // `scope` as the user gave it; trailing slashes are dropped, as TensorFlow does.
  explicit Scope(std::string_view scope);

  bool empty() const { return scope_.empty(); }
  const std::string& name() const { return scope_; }

  // True for every name when the scope is empty. `name` is a node name or a tensor name
  // ("node:1"); a leading "^" (control input) or "loc:@" (colocation) is looked through.
  bool Contains(std::string_view name) const;

  // Removes the scope from a node, tensor, control-input or colocation name:
  // "s/a" -> "a", "s///a" -> "a", "^s/a" -> "^a", "loc:@s/a" -> "loc:@a". Names outside
  // the scope come back unchanged.
  std::string Strip(std::string_view name) const;
  // The same without a copy: Strip(name) is `*marker` followed by `*rest` (views of `name`).
  void Strip(std::string_view name, std::string_view* marker, std::string_view* rest) const;

 private:
  std::string scope_;
};

// "x:1" -> "$unbound_inputs_x:1"; "^x" -> "^$unbound_inputs_x".
std::string UnboundInputName(std::string_view input);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_META_GRAPH_SCOPE_H_

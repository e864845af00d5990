#include "tf/meta_graph/scope.h"

namespace graphport::tf {
namespace {

// Splits off the "^" or "loc:@" that may lead a name.
std::string_view LeadingMarker(std::string_view name) {
  if (!name.empty() && name[0] == '^') return name.substr(0, 1);
  if (name.substr(0, 5) == "loc:@") return name.substr(0, 5);
  return {};
}

}  // namespace

Scope::Scope(std::string_view scope) : scope_(scope) {
  while (!scope_.empty() && scope_.back() == '/') scope_.pop_back();
}

bool Scope::Contains(std::string_view name) const {
  if (scope_.empty()) return true;
  name.remove_prefix(LeadingMarker(name).size());
  name = InputNodeName(name);
  if (name.substr(0, scope_.size()) != scope_) return false;
  return name.size() == scope_.size() || name[scope_.size()] == '/';
}

std::string Scope::Strip(std::string_view name) const {
  std::string_view marker, rest;
  Strip(name, &marker, &rest);
  return std::string(marker) + std::string(rest);
}

void Scope::Strip(std::string_view name, std::string_view* marker, std::string_view* rest) const {
  *marker = LeadingMarker(name);
  *rest = name.substr(marker->size());
  if (scope_.empty() || rest->substr(0, scope_.size()) != scope_ || rest->size() <= scope_.size() ||
      (*rest)[scope_.size()] != '/') {
    *marker = {};
    *rest = name;
    return;
  }
  size_t start = scope_.size();
  while (start < rest->size() && (*rest)[start] == '/') ++start;
  rest->remove_prefix(start);
}

std::string UnboundInputName(std::string_view input) {
  if (!input.empty() && input[0] == '^') {
    return "^" + std::string(kUnboundInputPrefix) + std::string(input.substr(1));
  }
  return std::string(kUnboundInputPrefix) + std::string(input);
}

}  // namespace graphport::tf

// Load options: the ones every family takes (format, name) and each family's own (a
// SavedModel's tags, a MegEngine graph index), told apart by the families' schemas.
#ifndef GRAPHPORT_API_LOAD_OPTIONS_H_
#define GRAPHPORT_API_LOAD_OPTIONS_H_

#include <nlohmann/json.hpp>
#include <string>

#include "core/family.h"
#include "core/option_schema.h"

namespace graphport {

// format (auto or any family's format) and name.
const OptionSchema& CommonLoadSchema();

struct SplitLoadOptions {
  OptionValues common;
  nlohmann::json per_family = nlohmann::json::object();  // the other keys, as given
};

// Checks every key: a common option, or some family's load option. Throws INVALID_OPTION.
SplitLoadOptions SplitLoad(const nlohmann::json& options);

// The options of `family` among `per_family`; a key of another family only is an error that
// says which family it is for.
OptionValues FamilyLoadValues(const Family& family, const nlohmann::json& per_family);

}  // namespace graphport

#endif  // GRAPHPORT_API_LOAD_OPTIONS_H_

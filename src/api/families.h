// The one list of model families. Everything above the families (the facade, both CLIs, the
// bindings, the page through gp.optionSchema()) asks this list; none names a family itself.
#ifndef GRAPHPORT_API_FAMILIES_H_
#define GRAPHPORT_API_FAMILIES_H_

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/family.h"

namespace graphport {

// In the order detection asks them (a tie in score goes to the earlier one).
const std::vector<const Family*>& Families();
// nullptr when no family has this id.
const Family* FindFamily(const std::string& id);
// The family with this id; an INVALID_OPTION error naming the families there are otherwise
// (`graphport schema NAME` in both CLIs, gp.optionSchema(name)).
const Family& FamilyNamed(const std::string& id);
// What gp.optionSchema() and `graphport schema` give of a family: {family, title, formats,
// load, export (option schemas), results (the result description)}.
nlohmann::json FamilySchemaJson(const Family& family);
// FamilySchemaJson of every family, in order: gp.optionSchema() and `graphport schema`.
nlohmann::json FamilySchemasJson();
// Tests add a family of their own (a toy) this way; the registry keeps the pointer.
void RegisterFamilyForTesting(const Family* family);

}  // namespace graphport

#endif  // GRAPHPORT_API_FAMILIES_H_

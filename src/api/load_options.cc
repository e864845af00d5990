#include "api/load_options.h"

#include "api/families.h"
#include "core/error.h"

namespace graphport {
namespace {

using nlohmann::json;

OptionSchema MakeCommonSchema() {
  OptionSchema s;
  s.title = "every family";
  s.groups = {{"input", "Input"}};
  OptionSpec format;
  format.name = "format";
  format.cli = "from";
  // A string, not a choice: Model::Load names an unknown format itself ("unknown format 'x'")
  // instead of listing every family's formats; the choices are there for forms and --help.
  format.type = OptionType::kString;
  format.default_value = "auto";
  format.choices.push_back("auto");
  std::string families;
  for (const Family* family : Families()) {
    for (const auto& f : family->formats()) format.choices.push_back(f);
    families += (families.empty() ? "" : ", ") + family->title();
  }
  format.group = "input";
  format.label = "Format";
  format.metavar = "FORMAT";
  format.help = "The input's format instead of detecting it (" + families + ").";
  s.options.push_back(format);

  OptionSpec name;
  name.name = "name";
  name.type = OptionType::kString;
  name.default_value = "input";
  name.group = "input";
  name.label = "Name";
  name.help = "The input's name in error messages (the CLI uses the path it is given).";
  s.options.push_back(name);
  return s;
}

}  // namespace

const OptionSchema& CommonLoadSchema() {
  // Made on first use: the format list comes from the families, which tests may extend first.
  static const OptionSchema* schema = new OptionSchema(MakeCommonSchema());
  return *schema;
}

SplitLoadOptions SplitLoad(const json& options) {
  if (!options.is_null() && !options.is_object()) {
    throw Error(ErrorCode::kInvalidOption, "load options must be an object");
  }
  SplitLoadOptions split;
  json common = json::object();
  if (options.is_object()) {
    for (const auto& [key, value] : options.items()) {
      if (CommonLoadSchema().Find(key) != nullptr) {
        common[key] = value;
        continue;
      }
      bool known = false;
      for (const Family* family : Families()) known |= family->load_options().Find(key) != nullptr;
      if (!known) {
        throw Error(ErrorCode::kInvalidOption, "unknown load option '" + key.substr(0, 80) + "'",
                    ErrorLocation::OfOption(key));
      }
      split.per_family[key] = value;
    }
  }
  split.common = OptionValues::Read(CommonLoadSchema(), common, "load");
  return split;
}

OptionValues FamilyLoadValues(const Family& family, const json& per_family) {
  json mine = json::object();
  for (const auto& [key, value] : per_family.items()) {
    if (family.load_options().Find(key) == nullptr) {
      if (value.is_null()) continue;
      std::string owner;
      for (const Family* other : Families()) {
        if (other->load_options().Find(key) != nullptr) owner = other->title();
      }
      throw Error(ErrorCode::kInvalidOption,
                  "load option '" + key + "' is for " + owner + " models; this is a " +
                      family.title() + " model",
                  ErrorLocation::OfOption(key));
    }
    mine[key] = value;
  }
  return OptionValues::Read(family.load_options(), mine, "load");
}

}  // namespace graphport

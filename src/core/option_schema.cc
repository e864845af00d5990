#include "core/option_schema.h"

#include <algorithm>
#include <cctype>

#include "core/base64.h"
#include "core/error.h"

namespace graphport {
namespace {

using nlohmann::json;

// What an option error quotes of a value: enough to recognise it, never megabytes.
constexpr size_t kQuotedValueChars = 80;

std::string Quote(const json& value) {
  std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
  if (text.size() <= kQuotedValueChars) return text;
  return text.substr(0, kQuotedValueChars) + "... (" + std::to_string(text.size()) + " characters)";
}

std::string ChoiceList(const OptionSpec& spec) {
  std::string out;
  for (size_t i = 0; i < spec.choices.size(); ++i) {
    out +=
        (i == 0                         ? ""
         : i + 1 == spec.choices.size() ? " or "
                                        : ", ") +
        (spec.choices[i].is_string() ? spec.choices[i].get<std::string>() : spec.choices[i].dump());
  }
  return out;
}

[[noreturn]] void Fail(const std::string& what, const OptionSpec& spec, const std::string& expected,
                       const json& got) {
  throw Error(ErrorCode::kInvalidOption,
              what + " option '" + spec.name + "' must be " + expected + ", got " + Quote(got));
}

// An output's name, never a path: the caller (the CLI's -o, the page's download) chooses the
// folder. Blank is "not set".
void CheckFileName(const std::string& what, const OptionSpec& spec, const std::string& name) {
  bool path = name.find_first_of("/\\") != std::string::npos;
  if (path || name == "." || name == "..") {
    throw Error(ErrorCode::kInvalidOption,
                what + " option '" + spec.name + "' must be a file name" +
                    (path ? ", not a path" : "") + ", got " + Quote(name),
                ErrorLocation::OfOption(spec.name));
  }
}

void Check(const std::string& what, const OptionSpec& spec, const json& value) {
  switch (spec.type) {
    case OptionType::kBool:
      if (!value.is_boolean()) Fail(what, spec, "true or false", value);
      return;
    case OptionType::kInt:
      if (!value.is_number_integer()) Fail(what, spec, "an integer", value);
      if (spec.minimum && value.get<int64_t>() < *spec.minimum) {
        throw Error(ErrorCode::kInvalidOption,
                    what + " option '" + spec.name + "' must be at least " +
                        std::to_string(*spec.minimum) + ", got " + Quote(value),
                    ErrorLocation::OfOption(spec.name));
      }
      break;
    case OptionType::kString:
      if (!value.is_string()) Fail(what, spec, "a string", value);
      if (spec.file_name) CheckFileName(what, spec, value.get<std::string>());
      return;
    case OptionType::kChoice:
      if (!value.is_string()) Fail(what, spec, ChoiceList(spec), value);
      break;
    case OptionType::kStringList:
      if (!value.is_array()) Fail(what, spec, "a list of strings", value);
      for (const auto& item : value) {
        if (!item.is_string()) Fail(what, spec, "a list of strings", value);
      }
      return;
    case OptionType::kMessage:
      // A protobuf-JSON object or the message's bytes; the family parses it and names the field.
      if (!value.is_object() && !value.is_binary()) {
        Fail(what, spec, "a protobuf-JSON object or the message's bytes", value);
      }
      return;
    case OptionType::kBytes: {
      std::string bytes;
      if (!value.is_string() && !value.is_binary() && !IsBytesOption(value, &bytes)) {
        Fail(what, spec, "bytes or a string", value);
      }
      return;
    }
  }
  if (!spec.choices.empty() &&
      std::find(spec.choices.begin(), spec.choices.end(), value) == spec.choices.end()) {
    Fail(what, spec, ChoiceList(spec), value);
  }
}

// Set: given (null is not) and, for text, not blank: an empty export scope or a compat
// version of spaces means none, as the originals read them.
bool IsSet(const json* value) {
  if (value == nullptr || value->is_null()) return false;
  if (value->is_string()) {
    return value->get<std::string>().find_first_not_of(" \t\r\n\f\v") != std::string::npos;
  }
  return true;
}

json ConditionsJson(const std::vector<OptionCondition>& conditions) {
  json out = json::array();
  for (const auto& c : conditions) {
    out.push_back({{"option", c.option}, {"values", c.values}, {"differs", c.differs}});
  }
  return out;
}

json RulesJson(const OptionSpec& spec) {
  json out = json::array();
  for (const auto& rule : spec.rules) {
    out.push_back({{"kind", rule.kind == RuleKind::kNeeds ? "needs" : "usedWhen"},
                   {"anyOf", ConditionsJson(rule.any_of)},
                   {"message", rule.message}});
  }
  return out;
}

json DerivedDefaultsJson(const OptionSpec& spec) {
  json out = json::array();
  for (const auto& d : spec.derived_defaults) {
    out.push_back({{"when", ConditionsJson(d.when)}, {"value", d.value}});
  }
  return out;
}

}  // namespace

OptionSpec MakeOption(std::string name, std::string seed, OptionType type, json default_value,
                      std::string group, std::string label, std::string help) {
  OptionSpec spec;
  for (char c : name) {
    if (std::isupper(static_cast<unsigned char>(c))) {
      spec.cli += '-';
      spec.cli += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else {
      spec.cli += c;
    }
  }
  spec.name = std::move(name);
  spec.seed = std::move(seed);
  spec.type = type;
  spec.default_value = std::move(default_value);
  spec.group = std::move(group);
  spec.label = std::move(label);
  spec.help = std::move(help);
  return spec;
}

const OptionSpec* OptionSchema::Find(const std::string& name) const {
  for (const auto& spec : options) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

const char* OptionTypeName(OptionType type) {
  switch (type) {
    case OptionType::kBool:
      return "bool";
    case OptionType::kInt:
      return "int";
    case OptionType::kString:
      return "string";
    case OptionType::kChoice:
      return "choice";
    case OptionType::kStringList:
      return "string-list";
    case OptionType::kMessage:
      return "message";
    case OptionType::kBytes:
      return "bytes";
  }
  return "string";
}

json OptionSchema::ToJson() const {
  json out = {{"family", family}, {"title", title}, {"api", api}};
  json group_list = json::array();
  for (const auto& g : groups) group_list.push_back({{"id", g.id}, {"title", g.title}});
  out["groups"] = group_list;
  json option_list = json::array();
  for (const auto& spec : options) {
    option_list.push_back({{"name", spec.name},
                           {"cli", spec.cli},
                           {"seed", spec.seed},
                           {"type", OptionTypeName(spec.type)},
                           {"default", spec.default_value},
                           {"group", spec.group},
                           {"label", spec.label},
                           {"help", spec.help},
                           {"choices", spec.choices},
                           {"metavar", spec.metavar},
                           {"cliValue", spec.cli_value == CliValue::kFile ? "file" : "inline"},
                           {"rules", RulesJson(spec)},
                           {"defaultWhen", DerivedDefaultsJson(spec)},
                           {"minimum", spec.minimum ? json(*spec.minimum) : json()},
                           {"fileName", spec.file_name},
                           {"addsFile", spec.adds_file.empty() ? json() : json(spec.adds_file)}});
  }
  out["options"] = option_list;
  json last_wins = json::array();
  for (const auto& set : this->last_wins) {
    last_wins.push_back({{"id", set.id}, {"options", set.options}});
  }
  out["lastWins"] = last_wins;
  return out;
}

std::string AddedFileName(const std::string& pattern, const std::string& main) {
  // The extension is the file's, not a folder's ("dir/x.y/model" has none); a leading dot
  // starts a hidden name, not an extension (Python's splitext agrees).
  size_t slash = main.find_last_of('/');
  size_t base = slash == std::string::npos ? 0 : slash + 1;
  size_t dot = main.find_last_of('.');
  bool has_ext = dot != std::string::npos && dot > base;
  std::string stem = has_ext ? main.substr(0, dot) : main;
  std::string ext = has_ext ? main.substr(dot) : "";
  std::string out;
  for (size_t i = 0; i < pattern.size();) {
    if (pattern.compare(i, 6, "{stem}") == 0) {
      out += stem;
      i += 6;
    } else if (pattern.compare(i, 5, "{ext}") == 0) {
      out += ext;
      i += 5;
    } else {
      out += pattern[i++];
    }
  }
  return out;
}

OptionValues OptionValues::Read(const OptionSchema& schema, const json& given,
                                const std::string& what) {
  OptionValues values;
  values.schema_ = &schema;
  if (given.is_null()) return values;
  if (!given.is_object()) {
    throw Error(ErrorCode::kInvalidOption, what + " options must be an object");
  }
  for (const auto& [key, value] : given.items()) {
    const OptionSpec* spec = schema.Find(key);
    if (spec == nullptr) {
      std::string message =
          "unknown " + what + " option '" + key.substr(0, kQuotedValueChars) + "'";
      if (!schema.title.empty()) message += " for a " + schema.title + " model";
      throw Error(ErrorCode::kInvalidOption, message);
    }
    if (value.is_null()) continue;  // null means "not set", as in the JS API
    Check(what, *spec, value);
    values.given_[key] = value;
  }
  values.CheckRules();
  return values;
}

bool OptionValues::Holds(const OptionSpec& spec, const OptionCondition& condition) const {
  if (condition.differs) return Raw(condition.option) != Raw(spec.name);
  if (condition.values.empty()) {
    auto it = given_.find(condition.option);
    return IsSet(it == given_.end() ? nullptr : &it->second);
  }
  const json& value = Raw(condition.option);
  return std::find(condition.values.begin(), condition.values.end(), value) !=
         condition.values.end();
}

void OptionValues::CheckRules() const {
  for (const auto& spec : schema_->options) {
    auto it = given_.find(spec.name);
    if (it == given_.end() || !IsSet(&it->second)) continue;
    for (const auto& rule : spec.rules) {
      if (rule.kind != RuleKind::kNeeds) continue;
      bool holds = false;
      for (const auto& condition : rule.any_of) holds = holds || Holds(spec, condition);
      if (!holds)
        throw Error(ErrorCode::kInvalidOption, rule.message, ErrorLocation::OfOption(spec.name));
    }
  }
}

std::string OptionValues::LastSet(const std::string& id) const {
  std::string last;
  for (const auto& set : schema_->last_wins) {
    if (set.id != id) continue;
    for (const auto& name : set.options) {
      if (Bool(name)) last = name;
    }
  }
  return last;
}

const OptionSpec& OptionValues::Spec(const std::string& name) const {
  const OptionSpec* spec = schema_ == nullptr ? nullptr : schema_->Find(name);
  if (spec == nullptr) {
    throw Error(ErrorCode::kInternal, "option '" + name + "' is not in the schema");
  }
  return *spec;
}

const json& OptionValues::Raw(const std::string& name) const {
  auto it = given_.find(name);
  return it != given_.end() ? it->second : Spec(name).default_value;
}

bool OptionValues::Bool(const std::string& name) const {
  const json& v = Raw(name);
  return v.is_boolean() && v.get<bool>();
}

int64_t OptionValues::Int(const std::string& name) const {
  const json& v = Raw(name);
  return v.is_number_integer() ? v.get<int64_t>() : 0;
}

std::string OptionValues::String(const std::string& name) const {
  const json& v = Raw(name);
  return v.is_string() ? v.get<std::string>() : std::string();
}

std::vector<std::string> OptionValues::StringList(const std::string& name) const {
  std::vector<std::string> out;
  const json& v = Raw(name);
  if (v.is_array()) {
    for (const auto& item : v) out.push_back(item.get<std::string>());
  }
  return out;
}

std::string OptionValues::Bytes(const std::string& name) const {
  const json& v = Raw(name);
  std::string bytes;
  if (v.is_string()) return v.get<std::string>();
  if (v.is_binary()) return std::string(v.get_binary().begin(), v.get_binary().end());
  IsBytesOption(v, &bytes);
  return bytes;
}

std::vector<std::string> OptionValues::GivenNames() const {
  std::vector<std::string> out;
  if (schema_ == nullptr) return out;
  for (const auto& spec : schema_->options) {
    if (Has(spec.name)) out.push_back(spec.name);
  }
  return out;
}

json BytesOption(const std::string& bytes) {
  return json::binary(json::binary_t::container_type(bytes.begin(), bytes.end()));
}

bool IsBytesOption(const json& value, std::string* bytes) {
  if (value.is_binary()) {
    bytes->assign(value.get_binary().begin(), value.get_binary().end());
    return true;
  }
  if (!value.is_object() || value.size() != 1 || !value.contains("$bytes")) return false;
  const json& text = value["$bytes"];
  return text.is_string() && Base64Decode(text.get<std::string>(), bytes);
}

}  // namespace graphport

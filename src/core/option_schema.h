// The options a family takes, described once. Everything that names an option is made from
// this description: reading options from JSON (OptionValues), the native and Node CLIs'
// flags and --help (api/command_line), the page's form (gp.optionSchema()) and the option
// types of index.d.ts (scripts/gen-types.mjs).
#ifndef GRAPHPORT_CORE_OPTION_SCHEMA_H_
#define GRAPHPORT_CORE_OPTION_SCHEMA_H_

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace graphport {

enum class OptionType {
  kBool,        // true or false; CLI: --name, --no-name
  kInt,         // an integer, optionally one of `choices`; CLI: --name N
  kString,      // free text; CLI: --name TEXT
  kChoice,      // one of `choices` (strings); CLI: --name VALUE
  kStringList,  // a list of strings; CLI: --name A,B ("" for none)
  kMessage,     // a protobuf message: a protobuf-JSON object, or its bytes (binary or text)
  kBytes,       // bytes, or a string taken as its UTF-8 bytes
};

// How the CLI takes the value of a kMessage or kBytes option.
enum class CliValue {
  kInline,  // the argument is the value
  kFile,    // the argument is a path; the file's bytes are the value
};

// A condition on another option, read at its value (its default when unset): it holds when
// that value is one of `values`; with `values` empty, when that option is set (given, and not
// a blank string); with `differs`, when that value differs from this option's.
struct OptionCondition {
  std::string option;
  std::vector<nlohmann::json> values{};
  bool differs = false;
};

enum class RuleKind {
  kNeeds,     // the option, when set, is refused unless one of the conditions holds
  kUsedWhen,  // the option, when set, is ignored unless one of the conditions holds
};

// When an option applies. OptionValues::Read enforces kNeeds; the page says both before an
// export runs, from the same rule, so neither keeps a copy of it.
struct OptionRule {
  RuleKind kind = RuleKind::kNeeds;
  std::vector<OptionCondition> any_of;
  std::string message;  // a whole sentence: the error (kNeeds), the page's explanation
};

// A default that depends on other options (TensorFlow's file name on `to` and `asText`): the
// first whose conditions all hold.
struct DerivedDefault {
  std::vector<OptionCondition> when;
  nlohmann::json value;
};

struct OptionSpec {
  std::string name;  // JS and JSON name, camelCase: "clearDevices"
  std::string cli;   // CLI flag without dashes, kebab-case: "clear-devices"; "" for none
  std::string seed;  // the argument of the original API ("clear_devices"); "" for our own
  OptionType type = OptionType::kBool;
  nlohmann::json default_value;  // null when the option has no default (absent)
  std::string group;             // an OptionGroup id
  std::string label;             // a few words, for the page's form
  std::string help;              // a sentence or two, for --help and the page
  // Allowed values: kChoice, optionally kInt; for a kString, the values its family accepts
  // once surrounding blanks are stripped (and checks itself, with the original's message).
  std::vector<nlohmann::json> choices;
  std::string metavar;  // the CLI's name for the value: "S", "FILE", "N"
  CliValue cli_value = CliValue::kInline;
  std::vector<OptionRule> rules{};
  std::vector<DerivedDefault> derived_defaults{};  // the default_value's exceptions
  // A kInt's least value: OptionValues::Read refuses less (the page's form says it first).
  std::optional<int64_t> minimum{};
  // A kString that names an output file: a name, never a path (the caller chooses the folder).
  bool file_name = false;
  // A kBool that adds an output file, named from the main file's name by this pattern:
  // "{stem}" is the name before its last '.', "{ext}" the rest ("" without a '.'; a leading
  // '.' starts no extension). AddedFileName() applies it, for the core and the page alike.
  std::string adds_file{};
};

// The one form in which every family declares an option: the fields every option has, in this
// order, with the CLI flag made from the name ("clearDevices" -> "clear-devices"). The caller
// sets the rest (choices, metavar, rules...) on the result, and cli to "" for an option the CLI
// takes another way (-o for the file name).
OptionSpec MakeOption(std::string name, std::string seed, OptionType type,
                      nlohmann::json default_value, std::string group, std::string label,
                      std::string help);

struct OptionGroup {
  std::string id;
  std::string title;
};

// Options that override each other: of those set, only the last in `options` applies and the
// others are ignored (MegEngine's layout kwargs, in the order optimize_for_inference reads
// them). LastSet() picks it, for the family and the page alike.
struct LastWins {
  std::string id;
  std::vector<std::string> options;
};

struct OptionSchema {
  std::string family;  // "tensorflow"; "" for the options every family takes
  std::string title;   // "TensorFlow"
  std::string api;     // the original API the options follow: "tf.train.export_meta_graph"
  std::vector<OptionGroup> groups;
  std::vector<OptionSpec> options;
  std::vector<LastWins> last_wins{};

  const OptionSpec* Find(const std::string& name) const;
  // {family, title, api, groups: [{id, title}], options: [{name, cli, seed, type, default,
  // group, label, help, choices, metavar, cliValue, rules: [{kind, anyOf: [{option, values,
  // differs}], message}], defaultWhen: [{when, value}], minimum, fileName, addsFile}],
  // lastWins: [{id, options}]}: what gp.optionSchema() returns (minimum and addsFile null when
  // unset).
  nlohmann::json ToJson() const;
};

// The name of the file an option with `adds_file` adds beside `main` (OptionSpec::adds_file).
std::string AddedFileName(const std::string& pattern, const std::string& main);

// "bool", "int", "string", "choice", "string-list", "message", "bytes".
const char* OptionTypeName(OptionType type);

// Options read against a schema: every key known, every value of its type and among its
// choices. Unset options answer their default.
class OptionValues {
 public:
  OptionValues() = default;
  // `given` must be a JSON object (null reads as {}). `what` names the options in errors
  // ("export", "load"). Throws Error(kInvalidOption) naming the key and what it expected.
  static OptionValues Read(const OptionSchema& schema, const nlohmann::json& given,
                           const std::string& what);

  // True when the caller set the option (to any value, even its default).
  bool Has(const std::string& name) const { return given_.count(name) != 0; }
  bool Bool(const std::string& name) const;
  int64_t Int(const std::string& name) const;
  std::string String(const std::string& name) const;  // kString and kChoice
  std::vector<std::string> StringList(const std::string& name) const;
  // kBytes, decoded; a string value gives its UTF-8 bytes.
  std::string Bytes(const std::string& name) const;
  // The value as given, or the default: for kMessage, which its family parses.
  const nlohmann::json& Raw(const std::string& name) const;
  // The names the caller set, in schema order.
  std::vector<std::string> GivenNames() const;
  const OptionSchema* schema() const { return schema_; }
  // Of the boolean options of the schema's `last_wins` set `id`, the last one on, or "".
  std::string LastSet(const std::string& id) const;

 private:
  const OptionSpec& Spec(const std::string& name) const;
  bool Holds(const OptionSpec& spec, const OptionCondition& condition) const;
  // Throws the message of the first kNeeds rule of a set option that does not hold.
  void CheckRules() const;
  const OptionSchema* schema_ = nullptr;
  std::map<std::string, nlohmann::json> given_;
};

// A bytes option's value as the CLI and the WebAssembly binding give it: a binary value, the
// bytes as they are. JSON text (a test, a hand-written options file) gives bytes as
// {"$bytes": "<base64>"}, which is read the same.
nlohmann::json BytesOption(const std::string& bytes);
// True and the bytes when `value` is either form.
bool IsBytesOption(const nlohmann::json& value, std::string* bytes);

}  // namespace graphport

#endif  // GRAPHPORT_CORE_OPTION_SCHEMA_H_

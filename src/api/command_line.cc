#include "api/command_line.h"

#include <map>

#include "api/families.h"
#include "api/load_options.h"
#include "core/error.h"
#include "core/json_parse.h"
#include "core/option_schema.h"

// Built with std::string, not ostringstream: see summary_text.cc.
namespace graphport {
namespace {

using nlohmann::json;

constexpr size_t kFlagColumn = 29;
constexpr size_t kLineWidth = 80;

struct Flag {
  const OptionSpec* spec = nullptr;
  bool load = false;
};

// Every flag the schemas define, by CLI name. A flag that two families share means the same
// option in both (tests/cpp/api/command_line_test.cc checks it), so the first one stands.
std::map<std::string, Flag> AllFlags() {
  std::map<std::string, Flag> flags;
  auto add = [&](const OptionSchema& schema, bool load) {
    for (const auto& spec : schema.options) {
      if (!spec.cli.empty() && flags.count(spec.cli) == 0) flags[spec.cli] = {&spec, load};
    }
  };
  add(CommonLoadSchema(), true);
  for (const Family* family : Families()) add(family->load_options(), true);
  for (const Family* family : Families()) add(family->export_options(), false);
  return flags;
}

std::vector<std::string> SplitComma(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    size_t comma = s.find(',', start);
    if (comma == std::string::npos) comma = s.size();
    if (comma > start) out.push_back(s.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

// A message option from a file: protobuf JSON when it reads as a JSON object, otherwise the
// bytes (binary or text format) for the family to tell apart.
json MessageFromFile(const std::string& bytes) {
  size_t first = bytes.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && bytes[first] == '{') {
    json object = ParseJson(bytes, /*allow_exceptions=*/false);
    if (object.is_object()) return object;
  }
  return BytesOption(bytes);
}

json FlagValue(const std::string& flag, const OptionSpec& spec, const std::string& text,
               OptionFileReader* files) {
  switch (spec.type) {
    case OptionType::kBool:
      return true;
    case OptionType::kInt: {
      size_t used = 0;
      long long value = 0;
      try {
        value = std::stoll(text, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used == 0 || used != text.size())
        UsageError(flag + " needs a whole number, got '" + text + "'");
      return value;
    }
    case OptionType::kString:
    case OptionType::kChoice:
      return text;
    case OptionType::kStringList:
      return SplitComma(text);
    case OptionType::kMessage:
      return MessageFromFile(files->Read(flag, text));
    case OptionType::kBytes:
      return spec.cli_value == CliValue::kFile ? BytesOption(files->Read(flag, text)) : json(text);
  }
  return text;
}

std::string Wrap(const std::string& lead, const std::string& text) {
  std::string out = lead;
  size_t column = lead.size();
  if (column + 1 >= kFlagColumn) {
    out += "\n";
    column = 0;
  }
  out += std::string(kFlagColumn - column, ' ');
  column = kFlagColumn;
  size_t start = 0;
  bool first_word = true;
  while (start < text.size()) {
    size_t space = text.find(' ', start);
    if (space == std::string::npos) space = text.size();
    std::string word = text.substr(start, space - start);
    start = space + 1;
    if (word.empty()) continue;
    if (!first_word && column + 1 + word.size() > kLineWidth) {
      out += "\n" + std::string(kFlagColumn, ' ');
      column = kFlagColumn;
    } else if (!first_word) {
      out += " ";
      ++column;
    }
    out += word;
    column += word.size();
    first_word = false;
  }
  return out + "\n";
}

std::string ValueText(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

std::string FlagHelp(const OptionSpec& spec) {
  std::string lead = "  --";
  bool default_true = spec.type == OptionType::kBool && spec.default_value == json(true);
  lead += (default_true ? "no-" : "") + spec.cli;
  if (spec.type != OptionType::kBool) lead += " " + (spec.metavar.empty() ? "X" : spec.metavar);
  std::string help = spec.help;
  if (!spec.choices.empty()) {
    help += " One of:";
    for (size_t i = 0; i < spec.choices.size(); ++i) {
      help += (i ? ", " : " ") + ValueText(spec.choices[i]);
    }
    help += ".";
  }
  if (!spec.default_value.is_null() && spec.type != OptionType::kBool) {
    help += " Default: " + ValueText(spec.default_value) + ".";
  }
  if (default_true) help += " On unless this flag is given.";
  if (!spec.seed.empty()) help += " [" + spec.seed + "]";
  return Wrap(lead, help);
}

}  // namespace

CommandLine ParseCommandLine(const std::vector<std::string>& args, OptionFileReader* files) {
  CommandLine cl;
  for (const auto& a : args) cl.help |= a == "--help" || a == "-h";
  if (cl.help) return cl;
  std::map<std::string, Flag> flags = AllFlags();
  for (size_t i = 0; i < args.size(); ++i) {
    std::string a = args[i];
    auto value = [&](const std::string& flag) -> std::string {
      if (i + 1 >= args.size()) UsageError(flag + " needs a value");
      return args[++i];
    };
    if (a == "--json") {
      cl.json = true;
    } else if (a == "--dry-run") {
      cl.dry_run = true;
    } else if (a == "-o" || a == "--output") {
      cl.output = value(a);
    } else if (a == "--target") {
      cl.target = value(a);
      if (cl.target != "tfjs" && cl.target != "tensorflow") {
        UsageError("--target is tfjs or tensorflow, not '" + cl.target.substr(0, 80) + "'");
      }
    } else if (a.size() > 2 && a.compare(0, 2, "--") == 0) {
      std::string name = a.substr(2);
      bool negated = false;
      auto it = flags.find(name);
      if (it == flags.end() && name.compare(0, 3, "no-") == 0) {
        it = flags.find(name.substr(3));
        negated = it != flags.end() && it->second.spec->type == OptionType::kBool;
        if (!negated) it = flags.end();
      }
      if (it == flags.end()) UsageError("unknown option '" + a.substr(0, 80) + "'");
      const OptionSpec& spec = *it->second.spec;
      json v = negated ? json(false)
                       : FlagValue(a, spec, spec.type == OptionType::kBool ? "" : value(a), files);
      (it->second.load ? cl.load : cl.export_)[spec.name] = v;
    } else if (a.size() > 1 && a[0] == '-') {
      UsageError("unknown option '" + a.substr(0, 80) + "'");
    } else if (cl.command.empty()) {
      cl.command = a;
    } else if (cl.input.empty()) {
      cl.input = a;
    } else {
      UsageError("unexpected argument '" + a.substr(0, 80) + "'");
    }
  }
  return cl;
}

std::string UsageText() {
  std::string titles;
  for (const Family* family : Families()) {
    titles += (titles.empty() ? "" : ", ") + family->title();
  }
  std::string out =
      "graphport: inspect and export model graphs (" + titles +
      "), with no server\n"
      "\n"
      "usage:\n"
      "  graphport inspect INPUT [--json] [input options]\n"
      "  graphport export INPUT -o OUT [--dry-run] [input options] [export options]\n"
      "  graphport check INPUT [--target tfjs|tensorflow] [--json] [input options]\n"
      "                  [export options]\n"
      "  graphport schema [FAMILY]\n"
      "  graphport --help\n"
      "\n"
      "INPUT is a model file, or a folder: a SavedModel folder (with variables/ and\n"
      "assets/), a TensorFlow.js model's folder (model.json and its shards).\n"
      "\n"
      "commands:\n"
      "  inspect   print a summary of the model: family, format, producer, nodes or\n"
      "            operators, op histogram, and what the family holds besides\n"
      "            (--json: as JSON)\n"
      "  export    write the model to OUT with the export options of its family; a\n"
      "            folder when the output is one (a SavedModel), else the main file,\n"
      "            with any other outputs beside it\n"
      "  check     run what an export for the target would (freeze, optimize,\n"
      "            unfuse...) and write nothing: print each op the target cannot run,\n"
      "            with its count, first nodes and fix, or that all of them run.\n"
      "            --target tfjs checks against the TF.js 4.22 runtime (to: tfjs),\n"
      "            tensorflow against TensorFlow's op registry (--to or the export's\n"
      "            default format); without --target or --to, tfjs. Exit status 0 when\n"
      "            the target runs every op, 3 when it cannot (--json: the report)\n"
      "  schema    print the option schemas (of one family: tensorflow, ...) as JSON\n"
      "\n"
      "options of every command:\n";
  out += Wrap("  -o, --output OUT", "The output file, or folder (export).");
  out += Wrap("  --json",
              "inspect: the summary as JSON; export: the info record as JSON; check: the "
              "report as JSON; export --dry-run: the preview as JSON.");
  out += Wrap("  --dry-run",
              "export: write nothing; print what the export would do to the graph, per "
              "option: the nodes it drops, changes and adds, with the node counts before and "
              "after.");
  out += Wrap("  --target TARGET", "check: tfjs or tensorflow, the runtime to check against.");
  out += "\ninput options:\n";
  std::map<std::string, bool> shown;
  auto list = [&](const OptionSchema& schema) {
    for (const auto& spec : schema.options) {
      if (spec.cli.empty() || shown[spec.cli]) continue;
      shown[spec.cli] = true;
      out += FlagHelp(spec);
    }
  };
  list(CommonLoadSchema());
  for (const Family* family : Families()) list(family->load_options());
  for (const Family* family : Families()) {
    const OptionSchema& schema = family->export_options();
    bool any = false;
    for (const auto& spec : schema.options) any |= !spec.cli.empty() && !shown[spec.cli];
    if (!any) continue;
    out += "\nexport options for " + family->title() + " models";
    out += schema.api.empty() ? ":\n" : " (as " + schema.api + "; its argument names in []):\n";
    list(schema);
  }
  out += "\nErrors go to stderr as \"graphport: error CODE: message\", with a non-zero exit.\n";
  return out;
}

void UsageError(const std::string& message) {
  throw Error(ErrorCode::kInvalidOption, message + " (see graphport --help)");
}

json CheckOptions(const CommandLine& command_line) {
  json options = command_line.export_;
  if (!command_line.target.empty()) options["target"] = command_line.target;
  return options;
}

}  // namespace graphport

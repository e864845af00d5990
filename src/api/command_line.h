// The one command-line grammar of graphport, made from the families' option schemas: the
// native CLI (src/cli) and the Node CLI (bindings/js/cli.mjs, through the bindings) both parse
// with it and print its --help, so the two cannot drift apart.
#ifndef GRAPHPORT_API_COMMAND_LINE_H_
#define GRAPHPORT_API_COMMAND_LINE_H_

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace graphport {

struct CommandLine {
  std::string command;   // "inspect", "export", "check", "schema", "help" (or "" when none)
  std::string input;     // a file or a folder; for "schema", an optional family id
  std::string output;    // -o
  std::string target;    // check's --target: "tfjs", "tensorflow", or "" when not given
  bool json = false;     // --json
  bool dry_run = false;  // export's --dry-run: print the export preview, write nothing
  bool help = false;     // --help or -h anywhere
  nlohmann::json load = nlohmann::json::object();     // load options, by JSON name
  nlohmann::json export_ = nlohmann::json::object();  // export options, by JSON name
};

// Reads the file a FILE-valued option names. Each CLI brings its own file access.
class OptionFileReader {
 public:
  virtual ~OptionFileReader() = default;
  // Throws Error(kInvalidOption) naming `flag` when the file cannot be read.
  virtual std::string Read(const std::string& flag, const std::string& path) = 0;
};

// Throws Error(kInvalidOption) with "(see graphport --help)" on a usage error. Does not check
// that an export option applies to the loaded model's family: Model::ExportJson does.
CommandLine ParseCommandLine(const std::vector<std::string>& args, OptionFileReader* files);

// The --help text.
std::string UsageText();

// Throws Error(kInvalidOption): `message` with " (see graphport --help)", as every usage error
// of both CLIs ends.
[[noreturn]] void UsageError(const std::string& message);

// The exit status of `graphport check` when the target cannot run the model (0 when it can;
// 1 for an error, as every command).
inline constexpr int kCheckFailsExitCode = 3;

// check's options for Model::CheckJson: the export options, with the target when given.
nlohmann::json CheckOptions(const CommandLine& command_line);

}  // namespace graphport

#endif  // GRAPHPORT_API_COMMAND_LINE_H_

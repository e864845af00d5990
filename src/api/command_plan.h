// What a parsed command line runs, decided once for both CLIs: the native one (src/cli) and the
// Node one (bindings/js/cli.mjs, through the bindings). Each CLI then only reads and writes
// files, so their usage errors, exit codes and output names cannot drift apart.
#ifndef GRAPHPORT_API_COMMAND_PLAN_H_
#define GRAPHPORT_API_COMMAND_PLAN_H_

#include <nlohmann/json.hpp>
#include <string>

#include "api/command_line.h"
#include "api/model.h"

namespace graphport {

enum class CommandAction {
  kHelp,     // print UsageText()
  kSchema,   // print the option schemas (of the family the input names, if any)
  kInspect,  // load, print the summary
  kCheck,    // load, print the check report; kCheckFailsExitCode when the target cannot run it
  kPreview,  // export --dry-run: load, print the export preview, write nothing
  kExport,   // load, export to -o, print ExportText() of the info record
};

// "help", "schema", "inspect", "check", "preview", "export": the Node CLI's names.
const char* CommandActionName(CommandAction action);

struct CommandPlan {
  CommandAction action = CommandAction::kHelp;
  // For kHelp: 2 when no command was given (the help is then a usage error), else 0.
  int help_exit_code = 0;
};

// Throws Error(kInvalidOption) with "(see graphport --help)" for a command that cannot run as
// given (an unknown command, a missing INPUT or -o, a flag of another command). Checked before
// the model is loaded: a misused flag costs no load.
CommandPlan PlanCommand(const CommandLine& command_line);

// The `filename` option of an export written to `output` (-o, or gp.exportToFile's path):
// output's base name, so that a MetaGraphDef records the name it is saved under, when the
// export writes one file and the model's family names it; "" otherwise (no output, a folder,
// a family with no such option).
std::string OutputFilename(const Model& model, const nlohmann::json& export_options,
                           const std::string& output);

}  // namespace graphport

#endif  // GRAPHPORT_API_COMMAND_PLAN_H_

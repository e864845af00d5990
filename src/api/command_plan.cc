#include "api/command_plan.h"

namespace graphport {

const char* CommandActionName(CommandAction action) {
  switch (action) {
    case CommandAction::kHelp:
      return "help";
    case CommandAction::kSchema:
      return "schema";
    case CommandAction::kInspect:
      return "inspect";
    case CommandAction::kCheck:
      return "check";
    case CommandAction::kPreview:
      return "preview";
    case CommandAction::kExport:
      return "export";
  }
  return "help";
}

CommandPlan PlanCommand(const CommandLine& cl) {
  CommandPlan plan;
  if (cl.help || cl.command == "help" || cl.command.empty()) {
    plan.help_exit_code = cl.command.empty() && !cl.help ? 2 : 0;
    return plan;
  }
  if (cl.command == "schema") {
    plan.action = CommandAction::kSchema;
    return plan;
  }
  if (cl.command != "inspect" && cl.command != "export" && cl.command != "check") {
    UsageError("unknown command '" + cl.command + "'");
  }
  if (cl.dry_run && cl.command != "export") UsageError("--dry-run goes with export");
  if (cl.input.empty()) UsageError(cl.command + " needs an INPUT file or folder");
  if (cl.command == "inspect") {
    plan.action = CommandAction::kInspect;
  } else if (cl.command == "check") {
    if (!cl.output.empty()) UsageError("check writes nothing: it takes no -o");
    plan.action = CommandAction::kCheck;
  } else {
    if (!cl.target.empty()) UsageError("--target goes with check");
    // --dry-run takes -o as the export would (it names the file), but does not need it.
    if (!cl.dry_run && cl.output.empty()) UsageError("export needs -o OUT");
    plan.action = cl.dry_run ? CommandAction::kPreview : CommandAction::kExport;
  }
  return plan;
}

std::string OutputFilename(const Model& model, const nlohmann::json& export_options,
                           const std::string& output) {
  if (output.empty() || model.family().export_options().Find("filename") == nullptr ||
      model.WritesFolder(export_options)) {
    return "";
  }
  size_t slash = output.find_last_of('/');
  return slash == std::string::npos ? output : output.substr(slash + 1);
}

}  // namespace graphport

// graphport's native command-line tool. It adapts files and folders to the core's streams and
// prints; the grammar and --help come from api/command_line, everything else from the core.
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <system_error>
#include <vector>

#include "api/check_text.h"
#include "api/command_line.h"
#include "api/command_plan.h"
#include "api/export_text.h"
#include "api/families.h"
#include "api/model.h"
#include "api/preview_text.h"
#include "api/summary_text.h"
#include "cli/file_io.h"
#include "core/error.h"
#include "core/strings.h"

namespace graphport::cli {
namespace {

class DiskFileReader : public OptionFileReader {
 public:
  std::string Read(const std::string& flag, const std::string& path) override {
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (file == nullptr) UsageError(flag + ": cannot open " + path);
    std::string bytes;
    char buffer[1 << 16];
    size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, file)) > 0) bytes.append(buffer, n);
    std::fclose(file);
    return bytes;
  }
};

std::string BaseName(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string DirName(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? "" : path.substr(0, slash == 0 ? 1 : slash);
}

// --json output: indented, invalid UTF-8 from the model replaced rather than thrown.
std::string Pretty(const nlohmann::json& value) {
  return value.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

nlohmann::json Schemas(const std::string& family_id) {
  if (family_id.empty()) return FamilySchemasJson();
  return FamilySchemaJson(FamilyNamed(family_id));
}

// The export options with `filename` from -o, as both CLIs complete them (api/command_plan.h).
nlohmann::json ExportOptions(const Model& model, const CommandLine& cl) {
  nlohmann::json options = cl.export_;
  std::string filename = OutputFilename(model, options, cl.output);
  if (!filename.empty()) options["filename"] = filename;
  return options;
}

// Writes the export to -o: the folder it names for an export that is a folder (a SavedModel
// with its variables), else the file, with any companions beside it.
nlohmann::json ExportToDisk(Model* model, const CommandLine& cl) {
  nlohmann::json options = ExportOptions(*model, cl);
  std::string directory = DirName(cl.output);
  if (model->WritesFolder(options)) {
    directory = cl.output;
    std::error_code ec;
    std::filesystem::create_directories(directory, ec);
    if (ec || !IsDirectory(directory)) {
      throw Error(ErrorCode::kIo, directory + ": cannot create the output folder" +
                                      (ec ? ": " + ec.message() : ": a file is in the way"));
    }
  }
  DirectoryOutputSet outputs(directory);
  nlohmann::json record = model->Export(options, &outputs);
  for (const auto& path : outputs.Commit()) std::cerr << "wrote " << path << "\n";
  return record;
}

int Run(int argc, char** argv) {
  DiskFileReader files;
  CommandLine cl = ParseCommandLine(std::vector<std::string>(argv + 1, argv + argc), &files);
  CommandPlan plan = PlanCommand(cl);
  switch (plan.action) {
    case CommandAction::kHelp:
      std::cout << UsageText();
      return plan.help_exit_code;
    case CommandAction::kSchema:
      std::cout << Schemas(cl.input).dump(2) << "\n";
      return 0;
    default:
      break;
  }
  std::unique_ptr<InputSet> inputs;
  std::unique_ptr<FileSource> single;  // read by the model as long as it lives
  if (IsDirectory(cl.input)) {
    inputs = std::make_unique<DirectoryInputSet>(cl.input);
  } else if (EndsWith(cl.input, ".json")) {
    // A JSON manifest (a TensorFlow.js model.json) names its companions (the weight shards)
    // by paths beside it: give its folder's files, with it first.
    std::string dir = DirName(cl.input);
    inputs = std::make_unique<DirectoryInputSet>(dir.empty() ? "." : dir, BaseName(cl.input),
                                                 /*recursive=*/false);
  } else {
    single = std::make_unique<FileSource>(cl.input);
    inputs = std::make_unique<SingleInputSet>(single.get(), BaseName(cl.input), cl.input);
  }
  cl.load["name"] = cl.input;
  std::unique_ptr<Model> model = Model::Load(std::move(inputs), cl.load);
  switch (plan.action) {
    case CommandAction::kInspect: {
      nlohmann::json summary = model->Inspect();
      std::cout << (cl.json ? Pretty(summary) : SummaryText(summary));
      return 0;
    }
    case CommandAction::kCheck: {
      nlohmann::json report = model->Check(CheckOptions(cl));
      std::cout << (cl.json ? Pretty(report) : CheckText(report));
      return report["runs"] == true ? 0 : kCheckFailsExitCode;
    }
    case CommandAction::kPreview: {
      // The export's options as the export would take them, and nothing created or written.
      nlohmann::json preview = model->Preview(ExportOptions(*model, cl));
      std::cout << (cl.json ? Pretty(preview) : PreviewText(preview));
      return 0;
    }
    default: {
      nlohmann::json record = ExportToDisk(model.get(), cl);
      std::cout << (cl.json ? Pretty(record) : ExportText(record));
      return 0;
    }
  }
}

}  // namespace
}  // namespace graphport::cli

int main(int argc, char** argv) {
  try {
    return graphport::cli::Run(argc, argv);
  } catch (const graphport::Error& e) {
    std::cerr << "graphport: error " << graphport::ErrorCodeName(e.code()) << ": " << e.what()
              << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "graphport: error INTERNAL: " << e.what() << "\n";
    return 1;
  }
}

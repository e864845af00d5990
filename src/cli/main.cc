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
#include "api/families.h"
#include "api/model.h"
#include "api/preview_text.h"
#include "api/summary_text.h"
#include "cli/file_io.h"
#include "core/error.h"
#include "core/strings.h"

namespace graphport::cli {
namespace {

[[noreturn]] void UsageError(const std::string& message) {
  throw Error(ErrorCode::kInvalidOption, message + " (see graphport --help)");
}

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
  nlohmann::json out = nlohmann::json::array();
  for (const Family* family : Families()) {
    if (!family_id.empty() && family->id() != family_id) continue;
    out.push_back(FamilySchemaJson(*family));
  }
  if (out.empty()) UsageError("no family is named '" + family_id + "'");
  return family_id.empty() ? out : out[0];
}

int Run(int argc, char** argv) {
  DiskFileReader files;
  CommandLine cl = ParseCommandLine(std::vector<std::string>(argv + 1, argv + argc), &files);
  if (cl.help || cl.command == "help" || cl.command.empty()) {
    std::cout << UsageText();
    return cl.command.empty() && !cl.help ? 2 : 0;
  }
  if (cl.command == "schema") {
    std::cout << Schemas(cl.input).dump(2) << "\n";
    return 0;
  }
  if (cl.command != "inspect" && cl.command != "export" && cl.command != "check") {
    UsageError("unknown command '" + cl.command + "'");
  }
  if (cl.dry_run && cl.command != "export") UsageError("--dry-run goes with export");
  if (cl.input.empty()) UsageError(cl.command + " needs an INPUT file or folder");
  std::unique_ptr<InputSet> inputs;
  std::unique_ptr<FileSource> single;
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

  if (cl.command == "inspect") {
    nlohmann::json summary = model->Inspect();
    std::cout << (cl.json ? Pretty(summary) : SummaryText(summary));
    return 0;
  }
  if (cl.command == "check") {
    if (!cl.output.empty()) UsageError("check writes nothing: it takes no -o");
    nlohmann::json report = model->Check(CheckOptions(cl));
    std::cout << (cl.json ? Pretty(report) : CheckText(report));
    return report["runs"] == true ? 0 : kCheckFailsExitCode;
  }
  if (!cl.target.empty()) UsageError("--target goes with check");
  if (cl.dry_run) {
    // The export's options as the export would take them, and nothing created or written.
    if (!cl.output.empty() && !model->WritesFolder(cl.export_) &&
        model->family().export_options().Find("filename") != nullptr) {
      cl.export_["filename"] = BaseName(cl.output);
    }
    nlohmann::json preview = model->Preview(cl.export_);
    std::cout << (cl.json ? Pretty(preview) : PreviewText(preview));
    return 0;
  }
  if (cl.output.empty()) UsageError("export needs -o OUT");
  std::string directory;
  if (model->WritesFolder(cl.export_)) {
    // The output is a folder (a SavedModel with its variables): -o names it.
    directory = cl.output;
    std::error_code ec;
    std::filesystem::create_directories(directory, ec);
    if (ec || !IsDirectory(directory)) {
      throw Error(ErrorCode::kIo, directory + ": cannot create the output folder" +
                                      (ec ? ": " + ec.message() : ": a file is in the way"));
    }
  } else {
    if (model->family().export_options().Find("filename") != nullptr) {
      cl.export_["filename"] = BaseName(cl.output);
    }
    directory = DirName(cl.output);
  }
  DirectoryOutputSet outputs(directory);
  nlohmann::json record = model->Export(cl.export_, &outputs);
  for (const auto& path : outputs.Commit()) std::cerr << "wrote " << path << "\n";
  if (cl.json) {
    std::cout << Pretty(record);
  } else {
    // What the export wrote but the target cannot take, on stdout with the export's result.
    for (const auto& warning : record.value("warnings", nlohmann::json::array())) {
      std::cout << "graphport: warning: " << warning.get<std::string>() << "\n";
    }
    // What the export did to the graph on its way (a MegEngine dump's optimization).
    for (const auto& note : record.value("notes", nlohmann::json::array())) {
      std::cout << "graphport: note: " << note.get<std::string>() << "\n";
    }
  }
  return 0;
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

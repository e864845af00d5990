// graphport's native command-line tool. It parses arguments, adapts files to the core's
// streams and prints; everything else happens in the core.
#include <cstdio>
#include <cstring>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "api/model.h"
#include "api/proto_option.h"
#include "api/summary_text.h"
#include "cli/file_io.h"
#include "cli/usage.h"
#include "core/error.h"

namespace graphport::cli {
namespace {

struct Args {
  std::string command;
  std::string input;
  std::string output;
  bool json = false;
  LoadOptions load;
  nlohmann::json export_options = nlohmann::json::object();
};

[[noreturn]] void UsageError(const std::string& message) {
  throw Error(ErrorCode::kInvalidOption, message + " (see graphport --help)");
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

// A message option from a file: protobuf JSON if it reads as a JSON object, otherwise the
// bytes (binary or text format) for the core to detect.
nlohmann::json ProtoFileOption(const std::string& flag, const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) UsageError(flag + ": cannot open " + path);
  std::string bytes;
  char buffer[1 << 16];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, file)) > 0) bytes.append(buffer, n);
  std::fclose(file);
  size_t first = bytes.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && bytes[first] == '{') {
    nlohmann::json object = nlohmann::json::parse(bytes, nullptr, /*allow_exceptions=*/false);
    if (object.is_object()) return object;
  }
  return BytesOption(bytes);
}

Args ParseArgs(int argc, char** argv) {
  Args args;
  std::vector<std::string> rest(argv + 1, argv + argc);
  for (size_t i = 0; i < rest.size(); ++i) {
    const std::string& a = rest[i];
    auto value = [&](const char* flag) -> std::string {
      if (i + 1 >= rest.size()) UsageError(std::string(flag) + " needs a value");
      return rest[++i];
    };
    if (a == "--json") {
      args.json = true;
    } else if (a == "-o" || a == "--output") {
      args.output = value("-o");
    } else if (a == "--from") {
      args.load.format = value("--from");
    } else if (a == "--tags") {
      args.load.tags = SplitComma(value("--tags"));
    } else if (a == "--to") {
      args.export_options["to"] = value("--to");
    } else if (a == "--as-text") {
      args.export_options["asText"] = true;
    } else if (a == "--export-scope") {
      args.export_options["exportScope"] = value("--export-scope");
    } else if (a == "--clear-devices") {
      args.export_options["clearDevices"] = true;
    } else if (a == "--clear-extraneous-savers") {
      args.export_options["clearExtraneousSavers"] = true;
    } else if (a == "--strip-default-attrs") {
      args.export_options["stripDefaultAttrs"] = true;
    } else if (a == "--save-debug-info") {
      args.export_options["saveDebugInfo"] = true;
    } else if (a == "--collection-list") {
      args.export_options["collectionList"] = SplitComma(value("--collection-list"));
    } else if (a == "--op-registry") {
      args.export_options["opRegistry"] = ProtoFileOption(a, value("--op-registry"));
    } else if (a == "--meta-info-def") {
      args.export_options["metaInfoDef"] = ProtoFileOption(a, value("--meta-info-def"));
    } else if (a == "--saver-def") {
      args.export_options["saverDef"] = ProtoFileOption(a, value("--saver-def"));
    } else if (a == "--graph-def") {
      args.export_options["graphDef"] = ProtoFileOption(a, value("--graph-def"));
    } else if (a.size() > 1 && a[0] == '-') {
      UsageError("unknown option '" + a + "'");
    } else if (args.command.empty()) {
      args.command = a;
    } else if (args.input.empty()) {
      args.input = a;
    } else {
      UsageError("unexpected argument '" + a + "'");
    }
  }
  return args;
}

std::string BaseName(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string DirName(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? "" : path.substr(0, slash == 0 ? 1 : slash);
}

int Run(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
      std::cout << kUsage;
      return 0;
    }
  }
  Args args = ParseArgs(argc, argv);
  if (args.command.empty() || args.command == "help") {
    std::cout << kUsage;
    return args.command.empty() ? 2 : 0;
  }
  if (args.command != "inspect" && args.command != "export") {
    UsageError("unknown command '" + args.command + "'");
  }
  if (args.input.empty()) UsageError(args.command + " needs an input FILE");
  args.load.name = args.input;
  FileSource source(args.input);
  std::unique_ptr<Model> model = Model::Load(&source, args.load);

  if (args.command == "inspect") {
    std::string summary = model->InspectJson();
    std::cout << (args.json ? nlohmann::json::parse(summary).dump(2) + "\n" : SummaryText(summary));
    return 0;
  }
  if (args.output.empty()) UsageError("export needs -o OUT");
  args.export_options["filename"] = BaseName(args.output);
  DirectoryOutputSet outputs(DirName(args.output));
  std::string info = model->ExportJson(args.export_options.dump(), &outputs);
  for (const auto& path : outputs.Commit()) std::cerr << "wrote " << path << "\n";
  if (args.json) std::cout << nlohmann::json::parse(info).dump(2) << "\n";
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

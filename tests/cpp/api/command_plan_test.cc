// Which command a command line runs, and the output name it gives an export: what both CLIs
// ask the core (api/command_plan.h).
#include "api/command_plan.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "core/error.h"
#include "test_util.h"

namespace graphport {
namespace {

using nlohmann::json;

class NoFiles : public OptionFileReader {
 public:
  std::string Read(const std::string& flag, const std::string& path) override {
    throw Error(ErrorCode::kInvalidOption, flag + ": cannot open " + path);
  }
};

CommandLine Parse(const std::vector<std::string>& args) {
  NoFiles files;
  return ParseCommandLine(args, &files);
}

// The whole message each CLI prints after "graphport: error INVALID_OPTION: ".
std::string UsageErrorOf(const std::vector<std::string>& args) {
  try {
    PlanCommand(Parse(args));
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidOption);
    return e.what();
  }
  ADD_FAILURE() << "accepted";
  return "";
}

TEST(CommandPlanTest, NoCommandIsHelpWithExitTwoAndAskedHelpExitsZero) {
  EXPECT_EQ(PlanCommand(Parse({})).action, CommandAction::kHelp);
  EXPECT_EQ(PlanCommand(Parse({})).help_exit_code, 2);
  EXPECT_EQ(PlanCommand(Parse({"help"})).help_exit_code, 0);
  EXPECT_EQ(PlanCommand(Parse({"export", "--help"})).help_exit_code, 0);
  EXPECT_EQ(PlanCommand(Parse({"frobnicate", "-h"})).action, CommandAction::kHelp);
}

TEST(CommandPlanTest, EachCommandRunsItsAction) {
  EXPECT_EQ(PlanCommand(Parse({"schema"})).action, CommandAction::kSchema);
  EXPECT_EQ(PlanCommand(Parse({"schema", "tensorflow"})).action, CommandAction::kSchema);
  EXPECT_EQ(PlanCommand(Parse({"inspect", "m.pb", "--json"})).action, CommandAction::kInspect);
  EXPECT_EQ(PlanCommand(Parse({"check", "m.pb", "--target", "tfjs"})).action,
            CommandAction::kCheck);
  EXPECT_EQ(PlanCommand(Parse({"export", "m.pb", "-o", "out.meta"})).action,
            CommandAction::kExport);
  // --dry-run needs no -o, and takes one (it names the file as the export would).
  EXPECT_EQ(PlanCommand(Parse({"export", "m.pb", "--dry-run"})).action, CommandAction::kPreview);
  EXPECT_EQ(PlanCommand(Parse({"export", "m.pb", "--dry-run", "-o", "x.meta"})).action,
            CommandAction::kPreview);
  EXPECT_STREQ(CommandActionName(CommandAction::kPreview), "preview");
  EXPECT_STREQ(CommandActionName(CommandAction::kHelp), "help");
}

TEST(CommandPlanTest, MisusedCommandsAreUsageErrorsWithTheCliMessages) {
  EXPECT_EQ(UsageErrorOf({"frobnicate", "m.pb"}),
            "unknown command 'frobnicate' (see graphport --help)");
  EXPECT_EQ(UsageErrorOf({"inspect", "m.pb", "--dry-run"}),
            "--dry-run goes with export (see graphport --help)");
  EXPECT_EQ(UsageErrorOf({"inspect"}),
            "inspect needs an INPUT file or folder (see graphport --help)");
  EXPECT_EQ(UsageErrorOf({"check", "m.pb", "-o", "x"}),
            "check writes nothing: it takes no -o (see graphport --help)");
  EXPECT_EQ(UsageErrorOf({"export", "m.pb", "--target", "tfjs", "-o", "x"}),
            "--target goes with check (see graphport --help)");
  EXPECT_EQ(UsageErrorOf({"export", "m.pb"}), "export needs -o OUT (see graphport --help)");
}

std::unique_ptr<Model> LoadCorpus(const std::string& relative) {
  // The source reads the bytes in place: they must outlive the load.
  std::string bytes = testing::ReadCorpus(relative);
  MemorySource source(bytes);
  return Model::Load(&source, LoadOptions{});
}

TEST(CommandPlanTest, OutputFilenameIsTheBaseNameOfAOneFileExport) {
  auto model = LoadCorpus(testing::kFrozenGraph);
  EXPECT_EQ(OutputFilename(*model, json::object(), "out/dir/tower.meta"), "tower.meta");
  EXPECT_EQ(OutputFilename(*model, json::object(), "plain.meta"), "plain.meta");
  EXPECT_EQ(OutputFilename(*model, json::object(), ""), "");
  // A SavedModel is a folder: -o names the folder, not a file.
  EXPECT_EQ(OutputFilename(*model, json{{"to", "saved-model"}}, "out/sm"), "");
}

TEST(CommandPlanTest, OutputFilenameChecksTheExportOptions) {
  auto model = LoadCorpus(testing::kFrozenGraph);
  try {
    OutputFilename(*model, json{{"to", "onnx"}}, "x.onnx");
    ADD_FAILURE() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidOption);
    EXPECT_NE(std::string(e.what()).find("onnx"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace graphport

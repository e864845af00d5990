// The one CLI grammar, made from the schemas.
#include "api/command_line.h"

#include <gtest/gtest.h>

#include <map>

#include "api/families.h"
#include "api/load_options.h"
#include "core/error.h"

namespace graphport {
namespace {

using nlohmann::json;

class FakeFiles : public OptionFileReader {
 public:
  std::string Read(const std::string& flag, const std::string& path) override {
    auto it = files.find(path);
    if (it == files.end()) throw Error(ErrorCode::kInvalidOption, flag + ": cannot open " + path);
    return it->second;
  }
  std::map<std::string, std::string> files;
};

void ExpectUsageError(const std::vector<std::string>& args, const std::string& needle) {
  FakeFiles files;
  try {
    ParseCommandLine(args, &files);
    ADD_FAILURE() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidOption);
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

// A flag that two families share must mean the same option, or one of them would get the
// other's value.
TEST(CommandLineTest, AFlagSharedByFamiliesIsTheSameOption) {
  std::map<std::string, const OptionSpec*> seen;
  auto check = [&](const OptionSchema& schema) {
    for (const auto& spec : schema.options) {
      if (spec.cli.empty()) continue;
      auto [it, fresh] = seen.emplace(spec.cli, &spec);
      if (fresh) continue;
      EXPECT_EQ(it->second->name, spec.name) << "--" << spec.cli;
      EXPECT_EQ(it->second->type, spec.type) << "--" << spec.cli;
    }
  };
  check(CommonLoadSchema());
  for (const Family* family : Families()) {
    check(family->load_options());
    check(family->export_options());
  }
  for (const char* fixed : {"output", "json", "help"}) EXPECT_EQ(seen.count(fixed), 0u) << fixed;
}

TEST(CommandLineTest, ReadsCommandInputOutputAndOptions) {
  FakeFiles files;
  files.files["ops.pbtxt"] = "op { name: \"Const\" }";
  files.files["meta.json"] = R"({"tags": ["serve"]})";
  CommandLine cl =
      ParseCommandLine({"export", "model.pb", "-o", "out.meta", "--tags", "serve,gpu", "--from",
                        "graph-def", "--clear-devices", "--collection-list", "", "--op-registry",
                        "ops.pbtxt", "--meta-info-def", "meta.json", "--json"},
                       &files);
  EXPECT_EQ(cl.command, "export");
  EXPECT_EQ(cl.input, "model.pb");
  EXPECT_EQ(cl.output, "out.meta");
  EXPECT_TRUE(cl.json);
  EXPECT_EQ(cl.load, json::parse(R"({"tags": ["serve", "gpu"], "format": "graph-def"})"));
  EXPECT_EQ(cl.export_["clearDevices"], true);
  EXPECT_EQ(cl.export_["collectionList"], json::array());
  EXPECT_EQ(cl.export_["opRegistry"], BytesOption(files.files["ops.pbtxt"]));
  EXPECT_EQ(cl.export_["metaInfoDef"], json::parse(files.files["meta.json"]));
}

TEST(CommandLineTest, BooleansHaveANoForm) {
  FakeFiles files;
  CommandLine cl = ParseCommandLine({"export", "m", "--no-clear-devices"}, &files);
  EXPECT_EQ(cl.export_["clearDevices"], false);
  ExpectUsageError({"export", "m", "--no-export-scope"}, "unknown option '--no-export-scope'");
}

TEST(CommandLineTest, HelpWinsAnywhere) {
  FakeFiles files;
  EXPECT_TRUE(ParseCommandLine({"export", "--bogus", "--help"}, &files).help);
  EXPECT_TRUE(ParseCommandLine({"-h"}, &files).help);
}

TEST(CommandLineTest, UsageErrorsSayWhatAndPointToHelp) {
  ExpectUsageError({"inspect", "m", "--bogus"}, "unknown option '--bogus' (see graphport --help)");
  ExpectUsageError({"inspect", "m", "extra"}, "unexpected argument 'extra'");
  ExpectUsageError({"export", "m", "-o"}, "-o needs a value");
  ExpectUsageError({"export", "m", "--export-scope"}, "--export-scope needs a value");
  ExpectUsageError({"export", "m", "--op-registry", "missing.pbtxt"}, "cannot open missing.pbtxt");
  std::string long_flag = "--" + std::string(10000, 'x');
  FakeFiles files;
  try {
    ParseCommandLine({"inspect", "m", long_flag}, &files);
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_LT(std::string(e.what()).size(), 200u);
  }
}

TEST(CommandLineTest, CheckTakesATargetAndTheExportOptions) {
  FakeFiles files;
  CommandLine cl = ParseCommandLine(
      {"check", "model", "--target", "tensorflow", "--to", "saved-model", "--unfuse-ops"}, &files);
  EXPECT_EQ(cl.command, "check");
  EXPECT_EQ(cl.target, "tensorflow");
  EXPECT_EQ(CheckOptions(cl),
            json({{"target", "tensorflow"}, {"to", "saved-model"}, {"unfuseOps", true}}));
  cl = ParseCommandLine({"check", "model", "--signature", "s"}, &files);
  EXPECT_EQ(cl.target, "");
  EXPECT_EQ(CheckOptions(cl), json({{"signature", "s"}}));
  ExpectUsageError({"check", "model", "--target", "onnx"},
                   "--target is tfjs or tensorflow, not 'onnx'");
  ExpectUsageError({"check", "model", "--target"}, "--target needs a value");
  std::string usage = UsageText();
  EXPECT_NE(usage.find("graphport check INPUT [--target tfjs|tensorflow]"), std::string::npos);
  EXPECT_NE(usage.find("3 when it cannot"), std::string::npos);
  EXPECT_EQ(kCheckFailsExitCode, 3);
}

TEST(CommandLineTest, UsageListsEveryFlagWithItsSeedName) {
  std::string usage = UsageText();
  for (const Family* family : Families()) {
    for (const OptionSchema* schema : {&family->load_options(), &family->export_options()}) {
      for (const auto& spec : schema->options) {
        if (spec.cli.empty()) continue;
        bool default_true = spec.type == OptionType::kBool && spec.default_value == json(true);
        std::string flag = (default_true ? "  --no-" : "  --") + spec.cli;
        EXPECT_NE(usage.find(flag), std::string::npos) << flag;
        if (!spec.seed.empty()) {
          EXPECT_NE(usage.find("[" + spec.seed + "]"), std::string::npos);
        }
      }
    }
  }
  for (const auto& line : {"graphport inspect INPUT", "graphport export INPUT -o OUT"}) {
    EXPECT_NE(usage.find(line), std::string::npos) << line;
  }
}

}  // namespace
}  // namespace graphport

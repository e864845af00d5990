// `graphport check` through the facade (Model::CheckJson): what an export to TF.js or to a
// TensorFlow format would run, freeze and optimize included, checked against its runtime with
// nothing written; the report and its text (api/check_text.h).
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "api/check_text.h"
#include "api/model.h"
#include "core/error.h"
#include "core/output_set.h"
#include "freeze_test_util.h"

namespace graphport::testing {
namespace {

using nlohmann::json;

json Check(Model* model, const json& options) { return model->Check(options); }

Error CheckError(Model* model, const json& options) {
  try {
    model->Check(options);
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "no error for " << options.dump();
  return Error(ErrorCode::kInternal, "no error");
}

TEST(Check, AFrozenSavedModelRunsInTfjs) {
  ASSERT_TRUE(CorpusPresent()) << MissingCorpusMessage();
  std::map<std::string, std::string> files;
  std::unique_ptr<Model> model = LoadFolder(CorpusDir() / kHalfPlusTwoTf2, &files);
  for (const json& options : {json::object(), json({{"target", "tfjs"}}), json({{"to", "tfjs"}})}) {
    json report = Check(model.get(), options);
    EXPECT_EQ(report["target"], "tfjs") << options.dump();
    EXPECT_EQ(report["to"], "tfjs");
    EXPECT_EQ(report["runtime"], "TF.js 4.22");
    EXPECT_EQ(report["runs"], true) << report.dump();
    EXPECT_EQ(report["exportFails"], false);
    EXPECT_EQ(report["unsupportedOps"], json::array());
    EXPECT_EQ(report["frozen"]["signature"], "serving_default");
    EXPECT_EQ(report["frozen"]["variables"], 2);
    // The frozen, optimized graph: what the export writes (its nodes, as model.json holds them).
    EXPECT_EQ(report["nodes"], report["frozen"]["nodes"]);
    std::string text = CheckText(report.dump());
    EXPECT_NE(text.find("frozen: signature serving_default, 2 variables made constants"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("all " + report["ops"].dump() + " ops (" + report["nodes"].dump() +
                        " nodes) run in TF.js 4.22\n"),
              std::string::npos)
        << text;
  }
  // The loaded graph, unfrozen, is TensorFlow's own.
  json report = Check(model.get(), {{"target", "tensorflow"}});
  EXPECT_EQ(report["to"], "meta-graph");
  EXPECT_EQ(report["runs"], true) << report.dump();
  EXPECT_FALSE(report.contains("frozen"));
  EXPECT_NE(CheckText(report.dump()).find(" nodes) are in TensorFlow's op registry\n"),
            std::string::npos);
}

TEST(Check, ASignatureTfjsCannotRunIsReportedNotThrown) {
  ASSERT_TRUE(CorpusPresent()) << MissingCorpusMessage();
  std::map<std::string, std::string> files;
  std::unique_ptr<Model> model = LoadFolder(CorpusDir() / kHalfPlusTwoTf2, &files);
  json report = Check(model.get(), {{"target", "tfjs"}, {"signature", "regress_x_to_y"}});
  EXPECT_EQ(report["runs"], false);
  EXPECT_EQ(report["exportFails"], true);
  json parse = nullptr;
  for (const json& op : report["unsupportedOps"]) {
    if (op["op"] == "ParseExampleV2") parse = op;
  }
  ASSERT_FALSE(parse.is_null()) << report["unsupportedOps"].dump();
  EXPECT_EQ(parse["count"], 1);
  std::string text = CheckText(report.dump());
  EXPECT_NE(text.find("TF.js 4.22 cannot run "), std::string::npos) << text;
  EXPECT_NE(text.find("\n  ParseExampleV2 x1 ("), std::string::npos) << text;
  EXPECT_NE(text.find("an export to: 'tfjs' fails with UNSUPPORTED (allowUnsupportedOps "
                      "writes it anyway)\n"),
            std::string::npos)
      << text;

  report = Check(model.get(), {{"signature", "regress_x_to_y"}, {"allowUnsupportedOps", true}});
  EXPECT_EQ(report["runs"], false);
  EXPECT_EQ(report["exportFails"], false);
  EXPECT_NE(CheckText(report.dump()).find("writes it (allowUnsupportedOps)"), std::string::npos);
}

// freeze: false to TF.js: the export refuses it (INVALID_OPTION); the check reports that refusal
// and the unfrozen graph's ops TF.js lacks, with their nodes and "freeze fixes this", even
// with allowUnsupportedOps (the export still throws).
TEST(Check, FreezeOffNamesTheUnfrozenOpsAndTheExportsRefusal) {
  ASSERT_TRUE(CorpusPresent()) << MissingCorpusMessage();
  std::map<std::string, std::string> files;
  std::unique_ptr<Model> model = LoadFolder(CorpusDir() / kHalfPlusTwoTf2, &files);
  for (bool allow : {false, true}) {
    json report = Check(model.get(), {{"freeze", false}, {"allowUnsupportedOps", allow}});
    EXPECT_EQ(report["runs"], false);
    EXPECT_EQ(report["exportFails"], true);
    EXPECT_EQ(report["exportError"]["code"], "INVALID_OPTION");
    EXPECT_EQ(report["exportError"]["option"], "freeze");
    EXPECT_FALSE(report.contains("frozen"));
    std::map<std::string, json> ops;
    for (const json& op : report["unsupportedOps"]) ops[op["op"]] = op;
    // The whole unfrozen graph: every signature's function, the savers, the table's variable.
    ASSERT_EQ(ops.count("VarHandleOp"), 1u) << report.dump();
    EXPECT_EQ(ops["VarHandleOp"]["count"], 5);
    EXPECT_EQ(ops["VarHandleOp"]["nodes"].size(), 5u);
    EXPECT_EQ(ops["StatefulPartitionedCall"]["count"], 14);
    // serving_default frozen keeps none of them: freeze fixes each.
    for (const auto& [name, op] : ops) EXPECT_EQ(op["hint"], "freeze fixes this") << name;
    std::string text = CheckText(report.dump());
    EXPECT_NE(text.find("\n  VarHandleOp x5 ("), std::string::npos) << text;
    EXPECT_NE(text.find("an export to: 'tfjs' fails with INVALID_OPTION: freeze: false with to: "
                        "'tfjs', but the graph holds "),
              std::string::npos)
        << text;
  }
  // Frozen, regress_x_to_y keeps its ParseExampleV2: freezing does not fix that one.
  json regress = Check(model.get(), {{"freeze", false}, {"signature", "regress_x_to_y"}});
  for (const json& op : regress["unsupportedOps"]) {
    EXPECT_EQ(op.contains("hint") && op["hint"] == "freeze fixes this",
              op["op"] != "ParseExampleV2")
        << op.dump();
  }
  // The export itself throws what the check reported, and writes nothing.
  MemoryOutputSet out;
  try {
    model->Export(json({{"to", "tfjs"}, {"freeze", false}}), &out);
    ADD_FAILURE() << "the export of freeze: false to TF.js did not throw";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidOption);
    EXPECT_NE(std::string(e.what()).find("VarHandleOp x4"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(out.files().empty());
}

TEST(Check, ErrorsAreTheExportsAndTargetMustFitTo) {
  ASSERT_TRUE(CorpusPresent()) << MissingCorpusMessage();
  std::map<std::string, std::string> files;
  std::unique_ptr<Model> model = LoadFolder(CorpusDir() / kHalfPlusTwoTf2, &files);
  Error e = CheckError(model.get(), {{"signature", "nope"}});
  EXPECT_NE(e.code(), ErrorCode::kInternal) << e.what();
  e = CheckError(model.get(), {{"target", "onnx"}});
  EXPECT_EQ(e.code(), ErrorCode::kInvalidOption);
  EXPECT_EQ(e.where().option, "target");
  e = CheckError(model.get(), {{"target", "tfjs"}, {"to", "graph-def"}});
  EXPECT_EQ(e.code(), ErrorCode::kInvalidOption);
  EXPECT_NE(std::string(e.what()).find("check target 'tfjs' writes to: 'tfjs'"), std::string::npos);
  e = CheckError(model.get(), {{"target", "tensorflow"}, {"to", "tfjs"}});
  EXPECT_EQ(e.code(), ErrorCode::kInvalidOption);
  e = CheckError(model.get(), {{"bogus", 1}});
  EXPECT_EQ(e.code(), ErrorCode::kInvalidOption);
}

TEST(Check, TheTextSaysWhatQuantizationDoes) {
  json report = {{"target", "tfjs"},
                 {"to", "tfjs"},
                 {"runtime", "TF.js 4.22"},
                 {"runs", true},
                 {"ops", 3},
                 {"nodes", 4},
                 {"unsupportedOps", json::array()},
                 {"exportFails", false},
                 {"quantization", {{"note", "the source held 1 weights as uint8 codes"}}}};
  EXPECT_EQ(CheckText(report.dump()),
            "quantization: the source held 1 weights as uint8 codes\n"
            "all 3 ops (4 nodes) run in TF.js 4.22\n");
  report["quantization"]["note"] = nullptr;
  EXPECT_EQ(CheckText(report.dump()), "all 3 ops (4 nodes) run in TF.js 4.22\n");
}

TEST(Check, AMegEngineModelHasNothingToBeCheckedAgainst) {
  ASSERT_TRUE(CorpusPresent()) << MissingCorpusMessage();
  const std::string bytes = ReadCorpus("mge/mgeconvert_e4a1261_test_test_model.mge");
  MemorySource source(bytes);
  std::unique_ptr<Model> model = Model::Load(&source, LoadOptions{});
  Error e = CheckError(model.get(), json::object());
  EXPECT_EQ(e.code(), ErrorCode::kUnsupported);
  EXPECT_NE(std::string(e.what()).find("MegEngine models are written for neither TF.js nor "
                                       "TensorFlow"),
            std::string::npos)
      << e.what();
}

}  // namespace
}  // namespace graphport::testing

// Embind registrations: the JS-visible surface of the core. No logic lives here; every
// call converts graphport::Error into a {code, message, file, offset, ...} record that
// bindings/js turns into a thrown GraphportError, so no C++ exception ever crosses into
// JavaScript.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "api/check_text.h"
#include "api/command_line.h"
#include "api/command_plan.h"
#include "api/export_text.h"
#include "api/families.h"
#include "api/model.h"
#include "api/preview_text.h"
#include "api/summary_text.h"
#include "core/error.h"
#include "core/error_codes.h"
#include "core/json_parse.h"
#include "js_options.h"
#include "js_streams.h"

namespace graphport::wasm {
namespace {

using emscripten::val;

val ErrorRecord(const char* code, const std::string& message, const ErrorLocation& where = {}) {
  val error = val::object();
  error.set("code", std::string(code));
  error.set("message", message);
  if (!where.file.empty()) error.set("file", where.file);
  if (where.offset >= 0) error.set("offset", static_cast<double>(where.offset));
  if (where.line > 0) error.set("line", where.line);
  if (where.column > 0) error.set("column", where.column);
  if (!where.node.empty()) error.set("node", where.node);
  if (!where.opr.empty()) error.set("operator", where.opr);
  if (!where.option.empty()) error.set("option", where.option);
  val result = val::object();
  result.set("error", error);
  return result;
}

template <typename Fn>
val Guard(Fn&& fn) {
  try {
    return fn();
  } catch (const Error& e) {
    return ErrorRecord(ErrorCodeName(e.code()), e.what(), e.where());
  } catch (const std::bad_alloc&) {
    return ErrorRecord("TOO_LARGE",
                       "out of memory: the model does not fit in the WebAssembly heap");
  } catch (const std::exception& e) {
    return ErrorRecord("INTERNAL", e.what());
  }
}

// Text as a JS string. Embind's conversion of a std::string walks it a byte at a time in JS
// (looking for NULs) before decoding it; a large text is decoded from the heap in one
// TextDecoder call instead (a MegEngine model's inspect JSON lists every operator: 38 MB for
// 100k of them). Both decode bad UTF-8 as U+FFFD and keep NULs.
val JsString(const std::string& text) {
  constexpr size_t kDecodeWholeFrom = 4096;
  if (text.size() < kDecodeWholeFrom) return val(text);
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  return val::global("TextDecoder")
      .new_(val("utf-8"))
      .call<val>("decode", val(emscripten::typed_memory_view(text.size(), bytes)));
}

// A result as JSON text: invalid UTF-8 from the model replaced, never thrown.
std::string Dump(const nlohmann::json& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

val TextRecord(const char* key, const std::string& text) {
  val result = val::object();
  result.set(key, JsString(text));
  return result;
}

// A loaded model as JS holds it; JS must call delete() (bindings/js does it in Model.delete).
class LoadedModel {
 public:
  explicit LoadedModel(std::unique_ptr<Model> model) : model_(std::move(model)) {}

  val Inspect() const {
    return Guard([&] { return TextRecord("json", model_->InspectJson()); });
  }

  val Export(const std::string& options_json, val blobs, val outputs) {
    return Guard([&] {
      nlohmann::json options = OptionsFromJs(options_json, blobs, "export");
      JsOutputSet output_set(outputs);
      return TextRecord("json", Dump(model_->Export(options, &output_set)));
    });
  }

  val Check(const std::string& options_json, val blobs) {
    return Guard([&] {
      return TextRecord("json", Dump(model_->Check(OptionsFromJs(options_json, blobs, "check"))));
    });
  }

  val Preview(const std::string& options_json, val blobs) {
    return Guard([&] {
      return TextRecord("json",
                        Dump(model_->Preview(OptionsFromJs(options_json, blobs, "preview"))));
    });
  }

  val Graph(const std::string& options_json) {
    return Guard([&] { return TextRecord("json", model_->GraphJson(options_json)); });
  }

  val SearchGraph(const std::string& options_json) {
    return Guard([&] { return TextRecord("json", model_->GraphSearchJson(options_json)); });
  }

  val SummaryPage(const std::string& options_json) const {
    return Guard([&] { return TextRecord("json", model_->SummaryPageJson(options_json)); });
  }

  val Node(const std::string& name) {
    return Guard([&] { return TextRecord("json", model_->NodeJson(name)); });
  }

  val WritesFolder(const std::string& options_json, val blobs) const {
    return Guard([&] {
      val result = val::object();
      result.set("folder", model_->WritesFolder(OptionsFromJs(options_json, blobs, "export")));
      return result;
    });
  }

  // The `filename` option an export to `output` takes (api/command_plan.h), or "".
  val OutputFilename(const std::string& options_json, val blobs, const std::string& output) const {
    return Guard([&] {
      val result = val::object();
      result.set("filename", graphport::OutputFilename(
                                 *model_, OptionsFromJs(options_json, blobs, "export"), output));
      return result;
    });
  }

  std::string Family() const { return model_->family().id(); }

 private:
  std::unique_ptr<Model> model_;
};

val Load(val inputs, const std::string& options_json, val blobs) {
  return Guard([&] {
    nlohmann::json options = OptionsFromJs(options_json, blobs, "load");
    std::unique_ptr<Model> model = Model::Load(std::make_unique<JsInputSet>(inputs), options);
    val result = val::object();
    result.set("model", val(std::make_shared<LoadedModel>(std::move(model))));
    return result;
  });
}

val Summary(const std::string& inspect_json) {
  return Guard([&] { return TextRecord("text", SummaryText(ParseJson(inspect_json))); });
}

// Every family: id, title, formats, its load and export option schemas and its results.
std::string Schemas() { return FamilySchemasJson().dump(); }
// One family's, or the error that names the families there are.
val FamilySchema(const std::string& id) {
  return Guard([&] { return TextRecord("json", FamilySchemaJson(FamilyNamed(id)).dump()); });
}

// Every error code with its meaning (core/error_codes.h): [{code, meaning}].
std::string ErrorCodesJson() {
  nlohmann::json out = nlohmann::json::array();
  for (const ErrorCodeInfo& info : ErrorCodes()) {
    out.push_back({{"code", info.name}, {"meaning", info.meaning}});
  }
  return out.dump();
}

// The Node CLI's files: `reader(flag, path)` returns a Uint8Array or null when unreadable.
class JsFileReader : public OptionFileReader {
 public:
  explicit JsFileReader(val reader) : reader_(std::move(reader)) {}
  std::string Read(const std::string& flag, const std::string& path) override {
    val bytes = reader_(flag, path);
    if (bytes.isNull() || bytes.isUndefined()) UsageError(flag + ": cannot open " + path);
    std::vector<uint8_t> data = emscripten::convertJSArrayToNumberVector<uint8_t>(bytes);
    return std::string(data.begin(), data.end());
  }

 private:
  val reader_;
};

val ParseArgs(val args, val reader) {
  return Guard([&] {
    std::vector<std::string> list = emscripten::vecFromJSArray<std::string>(args);
    JsFileReader files(reader);
    CommandLine cl = ParseCommandLine(list, &files);
    CommandPlan plan = PlanCommand(cl);
    nlohmann::json options = {
        {"load", cl.load}, {"export", cl.export_}, {"checkOptions", CheckOptions(cl)}};
    val blobs = val::array();
    BlobsToJs(&options, &blobs);
    nlohmann::json out = {{"command", cl.command},
                          {"input", cl.input},
                          {"output", cl.output},
                          {"json", cl.json},
                          {"help", cl.help},
                          {"target", cl.target},
                          {"dryRun", cl.dry_run},
                          {"action", CommandActionName(plan.action)},
                          {"helpExitCode", plan.help_exit_code}};
    out.update(options);
    val result = TextRecord("json", out.dump());
    result.set("blobs", blobs);
    return result;
  });
}

val CheckReportText(const std::string& report_json) {
  return Guard([&] { return TextRecord("text", CheckText(ParseJson(report_json))); });
}

val PreviewReportText(const std::string& preview_json) {
  return Guard([&] { return TextRecord("text", PreviewText(ParseJson(preview_json))); });
}

val ExportInfoText(const std::string& info_json) {
  return Guard([&] { return TextRecord("text", ExportText(ParseJson(info_json))); });
}

std::string Usage() { return UsageText(); }

}  // namespace
}  // namespace graphport::wasm

EMSCRIPTEN_BINDINGS(graphport) {
  using namespace graphport::wasm;
  // Held through a shared_ptr so a val can carry a new model out of Load(); JS frees it with
  // delete().
  emscripten::class_<LoadedModel>("LoadedModel")
      .smart_ptr<std::shared_ptr<LoadedModel>>("LoadedModelHandle")
      .function("inspect", &LoadedModel::Inspect)
      .function("export", &LoadedModel::Export)
      .function("check", &LoadedModel::Check)
      .function("preview", &LoadedModel::Preview)
      .function("graph", &LoadedModel::Graph)
      .function("node", &LoadedModel::Node)
      .function("searchGraph", &LoadedModel::SearchGraph)
      .function("summaryPage", &LoadedModel::SummaryPage)
      .function("writesFolder", &LoadedModel::WritesFolder)
      .function("outputFilename", &LoadedModel::OutputFilename)
      .function("family", &LoadedModel::Family);
  emscripten::function("load", &Load);
  emscripten::function("summaryText", &Summary);
  emscripten::function("checkText", &CheckReportText);
  emscripten::function("previewText", &PreviewReportText);
  emscripten::function("exportText", &ExportInfoText);
  emscripten::constant("checkFailsExitCode", graphport::kCheckFailsExitCode);
  emscripten::function("schemas", &Schemas);
  emscripten::function("familySchema", &FamilySchema);
  emscripten::function("errorCodes", &ErrorCodesJson);
  emscripten::function("parseArgs", &ParseArgs);
  emscripten::function("usage", &Usage);
}

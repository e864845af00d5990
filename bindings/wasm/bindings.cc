// Embind registrations: the JS-visible surface of the core. No logic lives here; every
// call converts graphport::Error into a {code, message} record that bindings/js turns into a
// thrown GraphportError, so no C++ exception ever crosses into JavaScript.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <memory>
#include <string>

#include "api/model.h"
#include "api/summary_text.h"
#include "cli/usage.h"
#include "core/error.h"
#include "js_streams.h"

namespace graphport::wasm {
namespace {

using emscripten::val;

val ErrorRecord(const char* code, const std::string& message) {
  val error = val::object();
  error.set("code", std::string(code));
  error.set("message", message);
  val result = val::object();
  result.set("error", error);
  return result;
}

template <typename Fn>
val Guard(Fn&& fn) {
  try {
    return fn();
  } catch (const Error& e) {
    return ErrorRecord(ErrorCodeName(e.code()), e.what());
  } catch (const std::bad_alloc&) {
    return ErrorRecord("TOO_LARGE",
                       "out of memory: the model does not fit in the WebAssembly heap");
  } catch (const std::exception& e) {
    return ErrorRecord("INTERNAL", e.what());
  }
}

// A loaded model as JS holds it; JS must call delete() (bindings/js does it in Model.delete).
class LoadedModel {
 public:
  explicit LoadedModel(std::unique_ptr<Model> model) : model_(std::move(model)) {}

  val Inspect() const {
    return Guard([&] {
      val result = val::object();
      result.set("json", model_->InspectJson());
      return result;
    });
  }

  val Export(const std::string& options_json, val outputs) {
    return Guard([&] {
      JsOutputSet output_set(outputs);
      val result = val::object();
      result.set("json", model_->ExportJson(options_json, &output_set));
      return result;
    });
  }

 private:
  std::unique_ptr<Model> model_;
};

val Load(val source, const std::string& options_json) {
  return Guard([&] {
    JsSource js_source(source);
    std::unique_ptr<Model> model = Model::Load(&js_source, ParseLoadOptions(options_json));
    val result = val::object();
    result.set("model", val(std::make_shared<LoadedModel>(std::move(model))));
    return result;
  });
}

val Summary(const std::string& inspect_json) {
  return Guard([&] {
    val result = val::object();
    result.set("text", SummaryText(inspect_json));
    return result;
  });
}

std::string Usage() { return cli::kUsage; }

}  // namespace
}  // namespace graphport::wasm

EMSCRIPTEN_BINDINGS(graphport) {
  using namespace graphport::wasm;
  // Held through a shared_ptr so a val can carry a new model out of Load(); JS frees it with
  // delete().
  emscripten::class_<LoadedModel>("LoadedModel")
      .smart_ptr<std::shared_ptr<LoadedModel>>("LoadedModelHandle")
      .function("inspect", &LoadedModel::Inspect)
      .function("export", &LoadedModel::Export);
  emscripten::function("load", &Load);
  emscripten::function("summaryText", &Summary);
  emscripten::function("usage", &Usage);
}

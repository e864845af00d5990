#include "fuzz/targets/model_checks.h"

#include <exception>

#include "core/error.h"
#include "core/input_set.h"
#include "core/output_set.h"

namespace graphport::fuzz {

std::string Attempt(const std::string& what, const std::function<void()>& step, bool* done) {
  *done = false;
  try {
    step();
    *done = true;
    return "";
  } catch (const Error& e) {
    if (e.code() == ErrorCode::kInternal) return what + ": INTERNAL: " + e.what();
    return "";
  } catch (const std::exception& e) {
    return what + ": not a graphport::Error: " + e.what();
  }
}

std::string LoadAndInspect(const std::vector<PackedFile>& files, std::unique_ptr<Model>* model) {
  model->reset();
  auto inputs = std::make_unique<MemoryInputSet>("fuzz");
  for (const auto& [name, bytes] : files) inputs->Add(name, bytes);
  bool done = false;
  std::string failure = Attempt(
      "load", [&] { *model = Model::Load(std::move(inputs), nlohmann::json::object()); }, &done);
  if (!failure.empty() || !done) return failure;
  failure = Attempt(
      "inspect", [&] { (void)(*model)->InspectJson(); }, &done);
  if (!done) model->reset();
  return failure;
}

std::string ExportLoadsBack(Model* model, const std::string& options_json, bool whole_set,
                            const std::function<std::string(const MemoryOutputSet&)>& check) {
  const std::string what = "export " + options_json;
  MemoryOutputSet out;
  bool done = false;
  std::string failure = Attempt(
      what, [&] { (void)model->ExportJson(options_json, &out); }, &done);
  if (!failure.empty() || !done) return failure;
  if (out.files().empty()) return what + ": wrote no file";
  if (check) {
    failure = check(out);
    if (!failure.empty()) return what + ": " + failure;
  }
  std::vector<PackedFile> files;
  for (const auto& file : out.files()) {
    files.emplace_back(file.name, file.bytes);
    if (!whole_set) break;
  }
  // An empty GraphDef is zero bytes, which graphport refuses as EMPTY_INPUT by contract.
  if (files.size() == 1 && files[0].second.empty()) return "";
  auto inputs = std::make_unique<MemoryInputSet>("export");
  for (const auto& [name, bytes] : files) inputs->Add(name, bytes);
  try {
    std::unique_ptr<Model> again = Model::Load(std::move(inputs), nlohmann::json::object());
    (void)again->InspectJson();
  } catch (const Error& e) {
    return what + ": " + out.files()[0].name + " does not load back: " + ErrorCodeName(e.code()) +
           ": " + e.what();
  } catch (const std::exception& e) {
    return what + ": reloading threw a non-graphport exception: " + e.what();
  }
  return "";
}

}  // namespace graphport::fuzz

#include "js_options.h"

#include "core/error.h"
#include "core/json_parse.h"

namespace graphport::wasm {

using emscripten::val;
using nlohmann::json;

namespace {

bool IsBlobRef(const json& value) {
  return value.is_object() && value.size() == 1 && value.contains("$blob") &&
         value["$blob"].is_number_unsigned();
}

}  // namespace

json OptionsFromJs(const std::string& text, const val& blobs, const std::string& what) {
  json options = text.empty() ? json::object() : ParseJson(text, /*allow_exceptions=*/false);
  if (!options.is_object()) {
    throw Error(ErrorCode::kInvalidOption, what + " options must be a JSON object");
  }
  const size_t count = blobs.isUndefined() ? 0 : blobs["length"].as<size_t>();
  for (auto& [key, value] : options.items()) {
    if (!IsBlobRef(value)) continue;
    const uint64_t index = value["$blob"].get<uint64_t>();
    if (index >= count) {
      throw Error(ErrorCode::kInvalidOption,
                  what + " option '" + key + "': no bytes were given for it",
                  ErrorLocation::OfOption(key));
    }
    val array = blobs[static_cast<size_t>(index)];
    json::binary_t::container_type bytes(array["length"].as<size_t>());
    // One copy, from the JS array into the heap, by the engine's own TypedArray.set.
    val(emscripten::typed_memory_view(bytes.size(), bytes.data())).call<void>("set", array);
    value = json::binary(std::move(bytes));
  }
  return options;
}

void BlobsToJs(json* objects, val* blobs) {
  for (auto& [name, object] : objects->items()) {
    if (!object.is_object()) continue;
    for (auto& [key, value] : object.items()) {
      if (!value.is_binary()) continue;
      const auto& bytes = value.get_binary();
      const size_t index =
          blobs->call<size_t>(
              "push",
              val(emscripten::typed_memory_view(bytes.size(), bytes.data())).call<val>("slice")) -
          1;
      value = json{{"$blob", index}};
    }
  }
}

}  // namespace graphport::wasm

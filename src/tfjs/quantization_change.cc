#include "tfjs/quantization_change.h"

#include <map>

namespace graphport::tfjs {

using nlohmann::json;

json QuantizationChange(const json& tfjs_manifest, const std::string& quantize,
                        uint64_t written_bytes) {
  if (quantize.empty() || !tfjs_manifest.is_object()) return nullptr;
  const json& weights = tfjs_manifest.value("weights", json::array());
  std::map<std::string, uint64_t> quantized;
  uint64_t source_bytes = 0;
  uint64_t quantized_bytes = 0;
  for (const json& w : weights) {
    uint64_t bytes =
        w.value("bytes", json(0)).is_number_unsigned() ? w["bytes"].get<uint64_t>() : 0;
    source_bytes += bytes;
    auto q = w.find("quantization");
    if (q == w.end() || !q->is_object() || !q->value("dtype", json()).is_string()) continue;
    ++quantized[(*q)["dtype"].get<std::string>()];
    quantized_bytes += bytes;
  }
  if (quantized.empty()) return nullptr;
  json note = nullptr;
  if (written_bytes > source_bytes) {
    std::string held;
    uint64_t count = 0;
    for (const auto& [dtype, n] : quantized) {
      held += (held.empty() ? "" : " and ") + dtype;
      count += n;
    }
    note = "the source held " + std::to_string(count) + " weights as " + held + " codes (" +
           std::to_string(quantized_bytes) + " bytes); read as float32 and quantized to " +
           quantize + " again, the weights take " + std::to_string(written_bytes) +
           " bytes instead of " + std::to_string(source_bytes) +
           ". Load with dequantize: false to write the source's codes as they are";
  }
  return {{"quantize", quantize},
          {"sourceQuantized", quantized},
          {"sourceWeightBytes", source_bytes},
          {"writtenWeightBytes", written_bytes},
          {"note", note}};
}

}  // namespace graphport::tfjs

// What writing a TF.js model again with `quantize` does to its weights' size. The reader
// dequantizes the source's codes (load option dequantize, on by default), so the writer
// quantizes float32 values afresh: float16 of weights the source held as uint8 codes takes
// twice their bytes (a 4.3 MB model became 8.6 MB), which an export should say.
#ifndef GRAPHPORT_TFJS_QUANTIZATION_CHANGE_H_
#define GRAPHPORT_TFJS_QUANTIZATION_CHANGE_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace graphport::tfjs {

// info.quantization: {quantize, sourceQuantized: {dtype: count}, sourceWeightBytes,
// writtenWeightBytes, note}, from the source's manifest summary (read_graph_model.h's
// ReadResult::manifest: weights with their bytes and quantization) and the bytes written. The
// note, for people, says why the model grew; null when it did not. Null when the source
// holds no quantized weight or `quantize` is empty.
nlohmann::json QuantizationChange(const nlohmann::json& tfjs_manifest, const std::string& quantize,
                                  uint64_t written_bytes);

}  // namespace graphport::tfjs

#endif  // GRAPHPORT_TFJS_QUANTIZATION_CHANGE_H_

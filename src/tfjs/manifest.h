// The weightsManifest of a TF.js model.json: groups of shard paths and weight entries, read
// and checked before any shard is opened (names, dtypes, shapes, byte sizes, safe paths).
#ifndef GRAPHPORT_TFJS_MANIFEST_H_
#define GRAPHPORT_TFJS_MANIFEST_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/input_set.h"

namespace graphport::tfjs {

// The dtypes a manifest names: the five TF.js tensor dtypes, and the three storage dtypes of
// quantized weights.
enum class WeightDtype { kFloat32, kInt32, kBool, kString, kComplex64, kUint8, kUint16, kFloat16 };

// "float32", "int32", ...
const char* WeightDtypeName(WeightDtype dtype);
bool ParseWeightDtype(const std::string& name, WeightDtype* dtype);
// Bytes per element as stored; 0 for string (variable length).
uint64_t WeightDtypeBytes(WeightDtype dtype);

struct Quantization {
  bool present = false;
  WeightDtype dtype = WeightDtype::kUint8;  // uint8, uint16 or float16
  double scale = 0;                         // affine (uint8, uint16) only
  double min = 0;
  // What the file said, for inspect and for a faithful re-export.
  bool has_original_dtype = false;
  std::string original_dtype;
};

struct WeightSpec {
  std::string name;
  std::vector<int64_t> shape;
  uint64_t elements = 1;
  WeightDtype dtype = WeightDtype::kFloat32;  // the logical dtype (after dequantization)
  Quantization quantization;
  // Bytes in the shards: fixed for every dtype but string (then 0 here: read as it comes).
  uint64_t stored_bytes = 0;
  std::string where;  // "weightsManifest[0].weights[3]", for messages
  // The storage dtype: quantization.dtype when quantized, else dtype.
  WeightDtype stored_dtype() const { return quantization.present ? quantization.dtype : dtype; }
};

struct ShardRef {
  std::string path;   // as the manifest spells it
  std::string input;  // the InputSet name it resolved to
};

struct WeightGroup {
  std::vector<ShardRef> shards;
  std::vector<WeightSpec> weights;
};

struct Manifest {
  std::vector<WeightGroup> groups;
  size_t weight_count() const;
};

// Reads `manifest` (the JSON value of "weightsManifest") of the model.json named
// `model_json` in `inputs`. Shard paths are relative to model.json's folder; "./" is dropped;
// a path missing from `inputs` is also looked up with ".bin" added or removed. A path that
// is absolute or has a ".." segment is refused before anything is looked up. Throws
// graphport::Error: kParseError for malformed entries, kTooLarge for sizes that overflow,
// kNotFound for a shard not among the inputs. Nothing is opened.
Manifest ReadManifest(const nlohmann::json& manifest, const std::string& model_json,
                      const InputSet& inputs);

}  // namespace graphport::tfjs

#endif  // GRAPHPORT_TFJS_MANIFEST_H_

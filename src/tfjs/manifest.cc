#include "tfjs/manifest.h"

#include <limits>

#include "core/error.h"

namespace graphport::tfjs {
namespace {

using nlohmann::json;

struct DtypeName {
  WeightDtype dtype;
  const char* name;
  uint64_t bytes;
};

constexpr DtypeName kDtypes[] = {
    {WeightDtype::kFloat32, "float32", 4},     {WeightDtype::kInt32, "int32", 4},
    {WeightDtype::kBool, "bool", 1},           {WeightDtype::kString, "string", 0},
    {WeightDtype::kComplex64, "complex64", 8}, {WeightDtype::kUint8, "uint8", 1},
    {WeightDtype::kUint16, "uint16", 2},       {WeightDtype::kFloat16, "float16", 2},
};

class ManifestReader {
 public:
  ManifestReader(const std::string& model_json, const InputSet& inputs)
      : model_json_(model_json), inputs_(inputs), folder_(InputDirName(model_json)) {}

  Manifest Read(const json& manifest) {
    if (!manifest.is_array()) Fail("weightsManifest", "is not an array of weight groups");
    Manifest result;
    for (size_t g = 0; g < manifest.size(); ++g) {
      result.groups.push_back(ReadGroup(manifest[g], "weightsManifest[" + std::to_string(g) + "]"));
    }
    return result;
  }

 private:
  [[noreturn]] void Fail(const std::string& where, const std::string& what,
                         ErrorCode code = ErrorCode::kParseError) const {
    ErrorLocation location;
    location.file = model_json_;
    throw Error(code, model_json_ + ": " + where + " " + what, location);
  }

  WeightGroup ReadGroup(const json& group, const std::string& where) {
    if (!group.is_object()) Fail(where, "is not an object with \"paths\" and \"weights\"");
    WeightGroup result;
    auto paths = group.find("paths");
    auto weights = group.find("weights");
    if (paths == group.end() || !paths->is_array()) Fail(where, "has no \"paths\" array");
    if (weights == group.end() || !weights->is_array()) Fail(where, "has no \"weights\" array");
    for (size_t i = 0; i < paths->size(); ++i) {
      result.shards.push_back(
          ResolvePath((*paths)[i], where + ".paths[" + std::to_string(i) + "]"));
    }
    for (size_t i = 0; i < weights->size(); ++i) {
      result.weights.push_back(
          ReadWeight((*weights)[i], where + ".weights[" + std::to_string(i) + "]"));
    }
    return result;
  }

  ShardRef ResolvePath(const json& value, const std::string& where) {
    if (!value.is_string()) Fail(where, "is not a string");
    ShardRef ref;
    ref.path = value.get<std::string>();
    std::string path = ref.path;
    while (path.rfind("./", 0) == 0) path.erase(0, 2);
    // Checked as written, before joining: "../x" must never reach outside the model's folder.
    if (!IsSafeInputName(path)) {
      Fail(where,
           "'" + ref.path +
               "' is not a relative path inside the model's folder (absolute paths and "
               "'..' are refused)",
           ErrorCode::kUnsupported);
    }
    std::string joined = folder_.empty() ? path : folder_ + "/" + path;
    const std::string bin = ".bin";
    bool has_bin = joined.size() > bin.size() &&
                   joined.compare(joined.size() - bin.size(), bin.size(), bin) == 0;
    for (const std::string& candidate :
         {joined, has_bin ? joined.substr(0, joined.size() - bin.size()) : joined + bin}) {
      if (inputs_.Has(candidate)) {
        ref.input = candidate;
        return ref;
      }
    }
    ErrorLocation location;
    location.file = model_json_;
    throw Error(ErrorCode::kNotFound,
                model_json_ + ": " + where + ": weight shard '" + ref.path +
                    "' is missing (looked for " + inputs_.DisplayName(joined) + ")",
                location);
  }

  WeightSpec ReadWeight(const json& entry, const std::string& where) {
    if (!entry.is_object()) Fail(where, "is not an object");
    WeightSpec spec;
    spec.where = where;
    auto name = entry.find("name");
    if (name == entry.end() || !name->is_string()) Fail(where, "has no \"name\" string");
    spec.name = name->get<std::string>();
    std::string named = where + " ('" + spec.name + "')";
    auto dtype = entry.find("dtype");
    if (dtype == entry.end() || !dtype->is_string() ||
        !ParseWeightDtype(dtype->get<std::string>(), &spec.dtype)) {
      Fail(named, "has no \"dtype\" of float32, int32, bool, string or complex64");
    }
    auto shape = entry.find("shape");
    if (shape == entry.end() || !shape->is_array()) Fail(named, "has no \"shape\" array");
    for (const json& dim : *shape) {
      if (!dim.is_number_integer() || dim.get<int64_t>() < 0) {
        Fail(named, "has a shape element that is not a non-negative integer: " + dim.dump());
      }
      int64_t size = dim.get<int64_t>();
      spec.shape.push_back(size);
      if (size != 0 && spec.elements > std::numeric_limits<uint64_t>::max() / size) {
        Fail(named, "has a shape whose element count overflows 64 bits", ErrorCode::kTooLarge);
      }
      spec.elements *= static_cast<uint64_t>(size);
    }
    auto quantization = entry.find("quantization");
    if (quantization != entry.end() && !quantization->is_null()) {
      ReadQuantization(*quantization, named, &spec);
    } else if (spec.dtype == WeightDtype::kUint8 || spec.dtype == WeightDtype::kUint16 ||
               spec.dtype == WeightDtype::kFloat16) {
      // tfjs-core's decodeWeight refuses these unquantized; so do we.
      Fail(named, "has dtype " + dtype->get<std::string>() + " without \"quantization\"");
    }
    uint64_t bytes = WeightDtypeBytes(spec.stored_dtype());
    if (bytes != 0 && spec.elements > std::numeric_limits<uint64_t>::max() / bytes) {
      Fail(named, "has a byte size that overflows 64 bits", ErrorCode::kTooLarge);
    }
    spec.stored_bytes = spec.elements * bytes;
    return spec;
  }

  void ReadQuantization(const json& q, const std::string& named, WeightSpec* spec) {
    if (!q.is_object()) Fail(named, "has a \"quantization\" that is not an object");
    Quantization& out = spec->quantization;
    out.present = true;
    auto dtype = q.find("dtype");
    if (dtype == q.end() || !dtype->is_string() ||
        !ParseWeightDtype(dtype->get<std::string>(), &out.dtype) ||
        (out.dtype != WeightDtype::kUint8 && out.dtype != WeightDtype::kUint16 &&
         out.dtype != WeightDtype::kFloat16)) {
      Fail(named, "has a quantization dtype other than uint8, uint16 or float16");
    }
    auto original = q.find("original_dtype");
    if (original != q.end() && original->is_string()) {
      out.has_original_dtype = true;
      out.original_dtype = original->get<std::string>();
    }
    if (out.dtype == WeightDtype::kFloat16) {
      if (spec->dtype != WeightDtype::kFloat32) {
        Fail(named, "is float16-quantized but its dtype is not float32");
      }
      return;
    }
    if (spec->dtype != WeightDtype::kFloat32 && spec->dtype != WeightDtype::kInt32) {
      Fail(named, "is affine-quantized but its dtype is neither float32 nor int32");
    }
    auto scale = q.find("scale");
    auto min = q.find("min");
    if (scale == q.end() || !scale->is_number() || min == q.end() || !min->is_number()) {
      Fail(named,
           "is " + dtype->get<std::string>() + "-quantized without numbers \"scale\" and \"min\"");
    }
    out.scale = scale->get<double>();
    out.min = min->get<double>();
  }

  const std::string& model_json_;
  const InputSet& inputs_;
  std::string folder_;
};

}  // namespace

const char* WeightDtypeName(WeightDtype dtype) {
  for (const DtypeName& d : kDtypes) {
    if (d.dtype == dtype) return d.name;
  }
  return "?";
}

bool ParseWeightDtype(const std::string& name, WeightDtype* dtype) {
  for (const DtypeName& d : kDtypes) {
    if (name == d.name) {
      *dtype = d.dtype;
      return true;
    }
  }
  return false;
}

uint64_t WeightDtypeBytes(WeightDtype dtype) {
  for (const DtypeName& d : kDtypes) {
    if (d.dtype == dtype) return d.bytes;
  }
  return 0;
}

size_t Manifest::weight_count() const {
  size_t n = 0;
  for (const WeightGroup& g : groups) n += g.weights.size();
  return n;
}

Manifest ReadManifest(const nlohmann::json& manifest, const std::string& model_json,
                      const InputSet& inputs) {
  return ManifestReader(model_json, inputs).Read(manifest);
}

}  // namespace graphport::tfjs

#include "mge/opr_registry.h"

#include <map>
#include <memory>
#include <unordered_map>
#include <utility>

#include "mge/opr_tokens.h"
#include "mge/xxhash_digest.h"

namespace graphport::mge {
namespace {

constexpr uint64_t kTypeIdSeed = 20160701;

// Classes whose registration token is a `using X = XForward` alias of MegEngine's headers
// (src/opr/include/megbrain/opr/**): strip info names the class, not the alias.
const std::pair<const char*, const char*> kForwardAliases[] = {
    {"AdaptivePooling", "AdaptivePoolingForward"},
    {"Argsort", "ArgsortForward"},
    {"BatchConvBias", "BatchConvBiasForward"},
    {"BatchNorm", "BatchNormForward"},
    {"ConvBias", "ConvBiasForward"},
    {"Convolution", "ConvolutionForward"},
    {"Convolution3D", "Convolution3DForward"},
    {"Correlation", "CorrelationForward"},
    {"CvtColor", "CvtColorForward"},
    {"DctChannelSelect", "DctChannelSelectForward"},
    {"DeformableConv", "DeformableConvForward"},
    {"DeformablePSROIPooling", "DeformablePSROIPoolingForward"},
    {"FakeQuant", "FakeQuantForward"},
    {"Flip", "FlipForward"},
    {"GaussianBlur", "GaussianBlurForward"},
    {"GeneralNorm", "GeneralNormForward"},
    {"GroupLocal", "GroupLocalForward"},
    {"GroupNorm", "GroupNormForward"},
    {"Images2Neibs", "Images2NeibsForward"},
    {"InstanceNorm", "InstanceNormForward"},
    {"LRN", "LRNForward"},
    {"LSQ", "LSQForward"},
    {"LSTM", "LSTMForward"},
    {"LSTMCell", "LSTMCellForward"},
    {"LayerNorm", "LayerNormForward"},
    {"Local", "LocalForward"},
    {"LocalShare", "LocalShareForward"},
    {"Padding", "PaddingForward"},
    {"Pooling", "PoolingForward"},
    {"RNN", "RNNForward"},
    {"RNNCell", "RNNCellForward"},
    {"ROIAlign", "ROIAlignForward"},
    {"ROIPooling", "ROIPoolingForward"},
    {"RegionRestrictedConvolution", "RegionRestrictedConvolutionForward"},
    {"Remap", "RemapForward"},
    {"Resize", "ResizeForward"},
    {"Resize3D", "Resize3DForward"},
    {"Rotate", "RotateForward"},
    {"SlidingWindowTranspose", "SlidingWindowTransposeForward"},
    {"Softmax", "SoftmaxForward"},
    {"TQT", "TQTForward"},
    {"WarpAffine", "WarpAffineForward"},
    {"WarpPerspective", "WarpPerspectiveForward"},
    {"Where", "WhereForward"},
};

struct Registry {
  std::map<std::string, std::unique_ptr<OprClass>, std::less<>> by_key;
  std::unordered_map<uint64_t, const OprClass*> v1_persist;
  std::unordered_map<uint64_t, const OprClass*> v1_unversioned;
  std::unordered_map<uint64_t, const OprClass*> v2_at_1;
  std::unordered_map<uint64_t, const OprClass*> v2_at_2;

  Registry() {
    std::map<std::string, std::string> aliases;
    for (const auto& [from, to] : kForwardAliases) aliases[from] = to;
    for (size_t i = 0; i < kOprTokenCount; ++i) {
      const OprToken& t = kOprTokens[i];
      std::string key(StripVersionSuffix(t.token));
      auto& cls = by_key[key];
      if (!cls) {
        cls = std::make_unique<OprClass>();
        cls->key = key;
        auto alias = aliases.find(key);
        cls->cpp_class = alias == aliases.end() ? key : alias->second;
      }
      if (t.v1) {
        cls->v1_token = t.token;
        v1_persist[PersistTypeId(t.token)] = cls.get();
        v1_unversioned[UnversionedTypeId(t.token)] = cls.get();
        v2_at_1[UnversionedTypeId(t.token)] = cls.get();
      }
      if (t.v2_at_2) {
        cls->v2_token = t.token;
        v2_at_2[PersistTypeId(t.token)] = cls.get();
      }
    }
  }
};

const Registry& GetRegistry() {
  static const Registry* registry = new Registry();
  return *registry;
}

const OprClass* Find(const std::unordered_map<uint64_t, const OprClass*>& map, uint64_t id) {
  auto it = map.find(id);
  return it == map.end() ? nullptr : it->second;
}

}  // namespace

std::string_view StripVersionSuffix(std::string_view token) {
  size_t n = token.size();
  if (n >= 2 && token[n - 2] == 'V' && token[n - 1] >= '0' && token[n - 1] <= '9') {
    return token.substr(0, n - 2);
  }
  return token;
}

uint64_t PersistTypeId(std::string_view token) {
  std::string with_nul(token);
  with_nul.push_back('\0');
  return XxHashDigest(with_nul.data(), with_nul.size(), kTypeIdSeed);
}

uint64_t UnversionedTypeId(std::string_view token) {
  std::string_view stem = StripVersionSuffix(token);
  return XxHashDigest(stem.data(), stem.size(), kTypeIdSeed);
}

const OprClass* FindV1Class(uint64_t type_id, V1Ids ids) {
  const Registry& r = GetRegistry();
  return Find(ids == V1Ids::kPersist ? r.v1_persist : r.v1_unversioned, type_id);
}

const OprClass* FindV2Class(uint64_t type_id, uint32_t opr_version) {
  const Registry& r = GetRegistry();
  if (opr_version == 1) return Find(r.v2_at_1, type_id);
  if (opr_version == 2) return Find(r.v2_at_2, type_id);
  return nullptr;
}

const OprClass* FindClassByKey(std::string_view key) {
  const Registry& r = GetRegistry();
  auto it = r.by_key.find(key);
  return it == r.by_key.end() ? nullptr : it->second.get();
}

bool V2RegistrationOf(const OprClass& cls, V2Registration* out) {
  if (!cls.v2_token.empty()) {
    *out = {PersistTypeId(cls.v2_token), 2, cls.v2_token};
    return true;
  }
  if (!cls.v1_token.empty()) {
    *out = {UnversionedTypeId(cls.v1_token), 1, cls.v1_token};
    return true;
  }
  return false;
}

bool V1TypeIdOf(const OprClass& cls, V1Ids ids, uint64_t* type_id) {
  if (cls.v1_token.empty()) return false;
  *type_id = ids == V1Ids::kPersist ? PersistTypeId(cls.v1_token) : UnversionedTypeId(cls.v1_token);
  return true;
}

}  // namespace graphport::mge

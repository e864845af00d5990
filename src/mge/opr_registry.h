// MegEngine's operator registry as the files see it: which (type_id, opr_version) pairs name
// which operator class, in each format. MegEngine computes the ids at compile time with XXH64
// (seed 20160701) over the registration token; so do we, at first use.
#ifndef GRAPHPORT_MGE_OPR_REGISTRY_H_
#define GRAPHPORT_MGE_OPR_REGISTRY_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace graphport::mge {

// An operator class with its registrations: "ConvolutionV2" (v1) and "Convolution" (FBS_V2
// opr_version 2) are one class, keyed "Convolution".
struct OprClass {
  std::string key;        // the token without a V<digit> suffix
  std::string v1_token;   // "" when the class has no v1 registration
  std::string v2_token;   // the opr_version 2 token, "" when there is none
  std::string cpp_class;  // MegEngine's C++ class name, as strip info lists it
};

// How an FBS v1 file spells its type ids: MGBC files hash the token with its trailing NUL,
// MGBS files (and compat "8.14") hash it without, version suffix dropped.
enum class V1Ids { kPersist, kUnversioned };

// XXH64(token + NUL, 20160701), 0 -> 1.
uint64_t PersistTypeId(std::string_view token);
// XXH64(token without a trailing V<digit>, 20160701), 0 -> 1.
uint64_t UnversionedTypeId(std::string_view token);
std::string_view StripVersionSuffix(std::string_view token);

// nullptr when no registration has that id.
const OprClass* FindV1Class(uint64_t type_id, V1Ids ids);
const OprClass* FindV2Class(uint64_t type_id, uint32_t opr_version);
const OprClass* FindClassByKey(std::string_view key);

struct V2Registration {
  uint64_t type_id = 0;
  uint32_t opr_version = 0;
  std::string type;  // Operator.type: the registration token
};
// What MegEngine writes for the class in an FBS_V2 model of model_version 2: the version 2
// registration when there is one, else version 1 with the unversioned id. False when the
// class cannot be written to FBS_V2.
bool V2RegistrationOf(const OprClass& cls, V2Registration* out);
// The v1 type id, or false when the class has no v1 registration.
bool V1TypeIdOf(const OprClass& cls, V1Ids ids, uint64_t* type_id);

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_OPR_REGISTRY_H_

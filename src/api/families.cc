#include "api/families.h"

#include "core/error.h"
#include "tf/family.h"
#if GRAPHPORT_FAMILY_MGE
#include "mge/family.h"
#endif
#if GRAPHPORT_FAMILY_TFJS
#include "tfjs/family.h"
#endif

namespace graphport {
namespace {

// TensorFlow's exports, extended by the families built on it (TensorFlow.js: `to: 'tfjs'`).
const Family& Tensorflow() {
#if GRAPHPORT_FAMILY_TFJS
  static const auto* extension = new tf::TfExportExtension(tfjs::TfjsExportExtension());
  static const Family* family = tf::MakeTensorflowFamily(extension).release();
  return *family;
#else
  return tf::TensorflowFamily();
#endif
}

std::vector<const Family*>* MutableFamilies() {
  static auto* families = new std::vector<const Family*> {
    &Tensorflow(),
#if GRAPHPORT_FAMILY_MGE
        &mge::MegengineFamily(),
#endif
#if GRAPHPORT_FAMILY_TFJS
        &tfjs::TfjsFamily(),
#endif
  };
  return families;
}

}  // namespace

const std::vector<const Family*>& Families() { return *MutableFamilies(); }

const Family* FindFamily(const std::string& id) {
  for (const Family* family : Families()) {
    if (family->id() == id) return family;
  }
  return nullptr;
}

const Family& FamilyNamed(const std::string& id) {
  if (const Family* family = FindFamily(id)) return *family;
  std::string ids;
  for (const Family* family : Families()) ids += (ids.empty() ? "" : ", ") + family->id();
  throw Error(ErrorCode::kInvalidOption, "unknown family '" + id + "'; graphport has " + ids);
}

nlohmann::json FamilySchemaJson(const Family& family) {
  return {{"family", family.id()},
          {"title", family.title()},
          {"formats", family.formats()},
          {"load", family.load_options().ToJson()},
          {"export", family.export_options().ToJson()},
          {"results", family.results().ToJson()}};
}

nlohmann::json FamilySchemasJson() {
  nlohmann::json out = nlohmann::json::array();
  for (const Family* family : Families()) out.push_back(FamilySchemaJson(*family));
  return out;
}

void RegisterFamilyForTesting(const Family* family) { MutableFamilies()->push_back(family); }

}  // namespace graphport

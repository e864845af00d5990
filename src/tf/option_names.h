// The names of the TensorFlow family's options (tf/options.cc), declared once: the schema
// declares each option under its constant and every reader asks for it by the same constant,
// so a misspelt name is a compile error rather than an unknown option at run time.
#ifndef GRAPHPORT_TF_OPTION_NAMES_H_
#define GRAPHPORT_TF_OPTION_NAMES_H_

namespace graphport::tf::option {

inline constexpr char kTo[] = "to";
inline constexpr char kAsText[] = "asText";
inline constexpr char kFilename[] = "filename";
inline constexpr char kFreeze[] = "freeze";
inline constexpr char kSignature[] = "signature";
inline constexpr char kOptimize[] = "optimize";
inline constexpr char kExportScope[] = "exportScope";
inline constexpr char kClearDevices[] = "clearDevices";
inline constexpr char kClearExtraneousSavers[] = "clearExtraneousSavers";
inline constexpr char kStripDefaultAttrs[] = "stripDefaultAttrs";
inline constexpr char kOpRegistry[] = "opRegistry";
inline constexpr char kCollectionList[] = "collectionList";
inline constexpr char kMetaInfoDef[] = "metaInfoDef";
inline constexpr char kSaverDef[] = "saverDef";
inline constexpr char kGraphDef[] = "graphDef";
inline constexpr char kSaveDebugInfo[] = "saveDebugInfo";
inline constexpr char kTags[] = "tags";
inline constexpr char kMaxMemoryBytes[] = "maxMemoryBytes";

}  // namespace graphport::tf::option

#endif  // GRAPHPORT_TF_OPTION_NAMES_H_

// The names of the MegEngine family's options (mge/options.cc), declared once: the schema
// declares each option under its constant and every reader asks for it by the same constant,
// so a misspelt name is a compile error rather than an unknown option at run time.
#ifndef GRAPHPORT_MGE_OPTION_NAMES_H_
#define GRAPHPORT_MGE_OPTION_NAMES_H_

namespace graphport::mge::option {

inline constexpr char kDumpFormat[] = "dumpFormat";
inline constexpr char kCompatOlderVersion[] = "compatOlderVersion";
inline constexpr char kFilename[] = "filename";
inline constexpr char kAppend[] = "append";
inline constexpr char kKeepVarName[] = "keepVarName";
inline constexpr char kKeepOprName[] = "keepOprName";
inline constexpr char kKeepParamName[] = "keepParamName";
inline constexpr char kKeepOprPriority[] = "keepOprPriority";
inline constexpr char kUserInfo[] = "userInfo";
inline constexpr char kEnableMetadata[] = "enableMetadata";
inline constexpr char kStripInfoFile[] = "stripInfoFile";
inline constexpr char kAppendJson[] = "appendJson";
inline constexpr char kOptimizeForInference[] = "optimizeForInference";
inline constexpr char kAsLoaded[] = "asLoaded";
inline constexpr char kGraph[] = "graph";
inline constexpr char kEnableIo16xc32[] = "enableIo16xc32";
inline constexpr char kEnableIoc16[] = "enableIoc16";
inline constexpr char kEnableFuseConvBiasNonlinearity[] = "enableFuseConvBiasNonlinearity";
inline constexpr char kEnableFuseConvBiasWithZ[] = "enableFuseConvBiasWithZ";
inline constexpr char kEnableFusePreprocess[] = "enableFusePreprocess";
inline constexpr char kEnableFuseGrain[] = "enableFuseGrain";
inline constexpr char kEnableHwcd4[] = "enableHwcd4";
inline constexpr char kEnableNchw88[] = "enableNchw88";
inline constexpr char kEnableNchw44[] = "enableNchw44";
inline constexpr char kEnableNchw44Dot[] = "enableNchw44Dot";
inline constexpr char kEnableNchw4[] = "enableNchw4";
inline constexpr char kEnableNchw32[] = "enableNchw32";
inline constexpr char kEnableChwn4[] = "enableChwn4";
inline constexpr char kEnableNchw64[] = "enableNchw64";

}  // namespace graphport::mge::option

#endif  // GRAPHPORT_MGE_OPTION_NAMES_H_

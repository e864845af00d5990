// The names of the TensorFlow.js options (tfjs/options.cc), declared once: the schema
// declares each option under its constant and every reader asks for it by the same constant,
// so a misspelt name is a compile error rather than an unknown option at run time.
#ifndef GRAPHPORT_TFJS_OPTION_NAMES_H_
#define GRAPHPORT_TFJS_OPTION_NAMES_H_

namespace graphport::tfjs::option {

inline constexpr char kDequantize[] = "dequantize";
inline constexpr char kQuantize[] = "quantize";
inline constexpr char kQuantizeWeights[] = "quantizeWeights";
inline constexpr char kShardSize[] = "shardSize";
inline constexpr char kUnfuseOps[] = "unfuseOps";
inline constexpr char kAllowUnsupportedOps[] = "allowUnsupportedOps";

}  // namespace graphport::tfjs::option

#endif  // GRAPHPORT_TFJS_OPTION_NAMES_H_

// What Network.dump's optimize_for_inference kwargs ask for, as MegEngine's
// GraphOptimizeOptions holds it (research megengine_optimize.md §1.2-§1.3), and the word
// the Metadata stores.
#ifndef GRAPHPORT_MGE_OPTIMIZE_OPTIMIZE_OPTIONS_H_
#define GRAPHPORT_MGE_OPTIMIZE_OPTIMIZE_OPTIONS_H_

#include <cstdint>

namespace graphport::mge::opt {

// GraphOptimizeOptions::LayoutTransform, numbered as MegEngine serializes it.
enum class Layout : uint32_t {
  kDefault = 0,
  kNchw4 = 1,
  kNhwcd4 = 2,
  kNchw88 = 3,
  kNchw44 = 4,
  kNchw44Dot = 5,
  kNchw32 = 6,
  kChwn4 = 7,
  kNchw64 = 8,
};

struct OptimizeOptions {
  bool f16_io_f32_comp = false;  // enable_io16xc32
  bool f16_io_comp = false;      // enable_ioc16
  bool fuse_conv_bias_nonlinearity = false;
  bool fuse_conv_bias_with_z = false;
  bool fuse_preprocess = false;
  bool fuse_grain = true;  // Network.dump's enable_fuse_grain default
  Layout layout = Layout::kDefault;

  // Whether any pass of the options block runs, which is when MegEngine adds the third
  // ParamFuse after it (framework.cpp add_passes_for_optimize_options).
  bool AnyOptionPass() const {
    return f16_io_f32_comp || f16_io_comp || fuse_conv_bias_nonlinearity || fuse_conv_bias_with_z ||
           fuse_preprocess || fuse_grain || layout != Layout::kDefault;
  }

  // GraphOptimizeOptions::serialize(): the layout in the high 32 bits, one bit per flag
  // (bit 4, weight_preprocess, is no dump kwarg). 64 for a default dump.
  uint64_t Serialize() const {
    return uint64_t{static_cast<uint32_t>(layout)} << 32 | uint64_t{f16_io_f32_comp} << 0 |
           uint64_t{f16_io_comp} << 1 | uint64_t{fuse_conv_bias_nonlinearity} << 2 |
           uint64_t{fuse_conv_bias_with_z} << 3 | uint64_t{fuse_preprocess} << 5 |
           uint64_t{fuse_grain} << 6;
  }
};

}  // namespace graphport::mge::opt

#endif  // GRAPHPORT_MGE_OPTIMIZE_OPTIMIZE_OPTIONS_H_

// optimize_for_inference's kwargs read as megbrain_graph.py's optimize_for_inference reads
// them (research megengine_optimize.md §1.2): each flag any truthy value turns on,
// enable_fuse_grain on unless turned off, and of the layout kwargs the last one set in
// MegEngine's own order wins, silently (the export schema's `last_wins` set, mge/options.cc).
// enable_nchw44 and enable_nchw88 run EnableNchwxx; the other layout transforms are refused
// naming the backend they are for: graphport does not have those passes.
#include "core/error.h"
#include "mge/dump/dump_request.h"
#include "mge/option_names.h"
#include "mge/options.h"

namespace graphport::mge {
namespace {

struct LayoutKwarg {
  const char* name;
  const char* seed;
  opt::Layout layout;
  const char* backend;
};

// What each layout kwarg converts to, and for which backend.
constexpr LayoutKwarg kLayoutKwargs[] = {
    {option::kEnableHwcd4, "enable_hwcd4", opt::Layout::kNhwcd4,
     "OpenCL image2d devices (Mali GPUs)"},
    {option::kEnableNchw4, "enable_nchw4", opt::Layout::kNchw4, "NVIDIA GPUs (CUDA, cuDNN)"},
    {option::kEnableNchw88, "enable_nchw88", opt::Layout::kNchw88, "x86 CPUs with AVX2"},
    {option::kEnableNchw32, "enable_nchw32", opt::Layout::kNchw32,
     "NVIDIA tensor cores (int8, CUDA builds)"},
    {option::kEnableNchw44, "enable_nchw44", opt::Layout::kNchw44, "Arm CPUs (NEON)"},
    {option::kEnableNchw44Dot, "enable_nchw44_dot", opt::Layout::kNchw44Dot,
     "Armv8.2 CPUs with the dot-product instructions"},
    {option::kEnableChwn4, "enable_chwn4", opt::Layout::kChwn4, "NVIDIA GPUs (int8, CUDA builds)"},
    {option::kEnableNchw64, "enable_nchw64", opt::Layout::kNchw64,
     "NVIDIA GPUs (int4, CUDA builds)"},
};

[[noreturn]] void Refuse(const std::string& option, const std::string& message) {
  ErrorLocation where;
  where.option = option;
  throw Error(ErrorCode::kUnsupported, message, where);
}

}  // namespace

opt::OptimizeOptions ReadOptimizeKwargs(const OptionValues& options) {
  opt::OptimizeOptions o;
  o.f16_io_f32_comp = options.Bool(option::kEnableIo16xc32);
  o.f16_io_comp = options.Bool(option::kEnableIoc16);
  o.fuse_conv_bias_nonlinearity = options.Bool(option::kEnableFuseConvBiasNonlinearity);
  o.fuse_conv_bias_with_z = options.Bool(option::kEnableFuseConvBiasWithZ);
  o.fuse_preprocess = options.Bool(option::kEnableFusePreprocess);
  o.fuse_grain = options.Bool(option::kEnableFuseGrain);
  const LayoutKwarg* winner = nullptr;
  std::string last = options.LastSet(kLayoutSet);
  for (const LayoutKwarg& k : kLayoutKwargs) {
    if (last == k.name) winner = &k;
  }
  if (winner != nullptr) {
    o.layout = winner->layout;
    if (o.layout == opt::Layout::kNchw44 || o.layout == opt::Layout::kNchw88) return o;
    Refuse(winner->name, std::string(winner->seed) + " (" + winner->name +
                             ") converts the graph to a layout for " + winner->backend +
                             "; graphport does not implement that layout transform (the last "
                             "layout kwarg set wins, as in MegEngine)");
  }
  return o;
}

}  // namespace graphport::mge

// What MegEngine's Python `Network.load(IN).dump(OUT, **kwargs)` does, in C++ against MegEngine
// v1.13.4's core (built by scripts/build-megengine-reference.sh): the reference for graphport's
// optimize_for_inference (issue 33; research megengine_optimize.md §7.2). Not part of graphport.
//
//   network_dump IN OUT [--format FBS|FBS_V2] [--compat 8.14] [--keep-opr-priority]
//                [--no-optimize] [--kwarg NAME]... [--trace] [--trace-passes]
//
// --trace prints, once after loading and once after dumping, each operator reachable from the
// outputs in the dumper's order: its id, class and name, its input var ids, and per output var
// its id, shown name (* when set explicitly), static shape, and D when it holds a device
// tensor and V when volatile (not dumped). graphport's ids and middle tensors are read off it.
// --trace-passes prints the same after each optimization pass, running the passes of
// optimize_for_inference one by one as framework.cpp's add_preset_passes lists them (for the
// kwargs this driver takes; the dump is the same bytes as without it).
//
// --kwarg takes Network.dump's optimizer kwargs by name (enable_fuse_conv_bias_nonlinearity,
// enable_nchw44, ...); enable_fuse_grain is on unless --kwarg no_fuse_grain. The other
// arguments of Network.dump keep their defaults: keep_var_name 1, operator and param names
// dropped, metadata written with user_info None.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "megbrain/gopt/basic_arith.h"
#include "megbrain/gopt/inference.h"
#include "megbrain/gopt/misc.h"
#include "megbrain/graph/helper.h"
#include "megbrain/opr/io.h"
#include "megbrain/serialization/serializer.h"

using namespace mgb;
namespace ser = mgb::serialization;

namespace {

using Layout = cg::GraphCommonOptimizeOptions::LayoutTransform;

int Usage() {
  std::fprintf(stderr,
               "usage: network_dump IN OUT [--format FBS|FBS_V2] [--compat 8.14] "
               "[--keep-opr-priority] [--no-optimize] [--kwarg NAME]... [--trace] "
               "[--trace-passes]\n");
  return 2;
}

void Trace(const char* stage, const SymbolVarArray& outputs) {
  std::printf("# %s\n", stage);
  cg::DepOprIter print{[](cg::OperatorNodeBase* op) {
    std::printf("%zu %s \"%s\" in", op->id(), op->dyn_typeinfo()->name, op->cname());
    for (auto* in : op->input()) std::printf(" %zu", in->id());
    std::printf(" out");
    for (auto* out : op->output()) {
      std::printf(" %zu \"%s\"%s [", out->id(), out->cname(), out->has_name_set() ? "*" : "");
      for (size_t i = 0; i < out->shape().ndim; ++i) {
        std::printf("%s%zu", i ? "," : "", out->shape()[i]);
      }
      std::printf("]%s%s", out->dev_tensor_valid() ? " D" : "",
                  out->contain_flag(cg::VarNode::Flag::VOLATILE_CONTENT) ? " V" : "");
    }
    std::printf("\n");
  }};
  for (const auto& var : outputs) print.add(var);
  for (const auto& var : outputs) std::printf("endpoint %zu\n", var.node()->id());
}

// A pass wrapper that prints the graph after the pass it wraps.
class Traced final : public gopt::Pass {
 public:
  explicit Traced(std::unique_ptr<gopt::Pass> inner) : inner_(std::move(inner)) {}
  const char* name() const override { return inner_->name(); }
  void apply(gopt::OptState& opt) const override {
    inner_->apply(opt);
    Trace(inner_->name(), opt.graph().endpoint_vars());
  }

 private:
  std::unique_ptr<gopt::Pass> inner_;
};

// gopt::optimize_for_inference with each pass traced: add_preset_passes(false, &opt, ...) and
// add_passes_for_optimize_options of framework.cpp (no JIT, not an Arm build), in their order.
SymbolVarArray OptimizeTraced(const SymbolVarArray& outputs,
                              const gopt::OptimizeForInferenceOptions& opt) {
  gopt::GraphOptimizer go;
  auto add = [&](std::unique_ptr<gopt::Pass> pass) {
    go.add_pass(std::make_unique<Traced>(std::move(pass)));
  };
  using CVT = gopt::ConstVarType;
  add(std::make_unique<gopt::ConvertBatchNormToElemwisePass>());
  add(std::make_unique<gopt::CondExecConstPredicateFolding>());
  add(std::make_unique<gopt::RemoveNonComputingOprPass>());
  add(std::make_unique<gopt::DelayBroadcastPass>());
  add(std::make_unique<gopt::ExpandFusedArithPass>());
  add(std::make_unique<gopt::NormalizeArithChainPass>());
  add(std::make_unique<gopt::ParamRedistributePass>());
  add(std::make_unique<gopt::ParamFusePass>());
  add(std::make_unique<gopt::ArithMulDistributePass>());
  add(std::make_unique<gopt::ReorderArithChainPass>(CVT::IMMUTABLE_AND_PARAM));
  add(std::make_unique<gopt::ArithFusePass>());
  add(std::make_unique<gopt::ReorderArithChainPass>(CVT::IMMUTABLE_AND_PARAM));
  add(std::make_unique<gopt::FinalArithTransformPass>());
  add(std::make_unique<gopt::RemoveRedundantTypeCvtPass>());
  add(std::make_unique<gopt::RemoveRedundantCopyPass>());
  add(std::make_unique<gopt::CombineAstypeAndReducePass>());
  add(std::make_unique<gopt::ParamFusePass>());
  bool param_fuse = false;
  if (opt.fuse_grain) {
    add(std::make_unique<gopt::FoldingReduceMeanPass>());
    add(std::make_unique<gopt::FoldingGlobalPoolingPass>());
    param_fuse = true;
  }
  if (opt.fuse_preprocess) {
    add(gopt::FuseNCHW4Int8Preprocess::make());
    add(std::make_unique<gopt::FuseWarpPerspectiveDimshufflePass>());
    param_fuse = true;
  }
  if (opt.f16_io_comp) add(gopt::ConvertF32ToF16Pass::make(false));
  if (opt.f16_io_f32_comp) add(gopt::ConvertF32ToF16Pass::make(true));
  param_fuse |= opt.f16_io_comp || opt.f16_io_f32_comp;
  if (opt.layout_transform == Layout::NCHW44 || opt.layout_transform == Layout::NCHW88) {
    add(std::make_unique<gopt::FuseConvBiasNonlinPass>());
    add(gopt::PaddingChannelPass::make(opt.layout_transform, true));
    add(gopt::EnableNchwxxPass::make_nchwxx_converter(
        opt.layout_transform == Layout::NCHW44 ? 4 : 8));
    add(std::make_unique<gopt::ShuffleShuffleRemovePass>());
    param_fuse = true;
  } else if (opt.layout_transform != Layout::DEFAULT) {
    std::fprintf(stderr, "--trace-passes: only the nchw44 and nchw88 layouts\n");
    std::exit(2);
  }
  if (opt.fuse_conv_bias_nonlinearity) {
    add(std::make_unique<gopt::FuseConvBiasNonlinPass>());
    param_fuse = true;
  }
  if (opt.fuse_conv_bias_with_z) {
    add(std::make_unique<gopt::FuseConvBiasNonlinPass>());
    add(std::make_unique<gopt::FuseConvBiasZPass>());
    param_fuse = true;
  }
  if (param_fuse) add(std::make_unique<gopt::ParamFusePass>());
  add(std::make_unique<gopt::ParamMergePass>());
  add(std::make_unique<gopt::FuseDeconvCvtPass>());
  add(std::make_unique<gopt::RemoveShapeHintPass>());
  return go.apply({outputs}).endpoint_vars();
}

// G.optimize_for_inference(out, **kwargs): each kwarg sets one field (a layout kwarg replaces
// the one before it, as the Python loop does in its dict's order).
bool ApplyKwarg(const std::string& name, gopt::OptimizeForInferenceOptions* opt) {
  static const std::map<std::string, Layout> layouts = {
      {"enable_hwcd4", Layout::NHWCD4},  {"enable_nchw4", Layout::NCHW4},
      {"enable_nchw88", Layout::NCHW88}, {"enable_nchw32", Layout::NCHW32},
      {"enable_nchw44", Layout::NCHW44}, {"enable_nchw44_dot", Layout::NCHW44_DOT},
      {"enable_chwn4", Layout::CHWN4},   {"enable_nchw64", Layout::NCHW64}};
  auto layout = layouts.find(name);
  if (layout != layouts.end()) {
    opt->layout_transform = layout->second;
  } else if (name == "enable_io16xc32") {
    opt->f16_io_f32_comp = true;
  } else if (name == "enable_ioc16") {
    opt->f16_io_comp = true;
  } else if (name == "enable_fuse_conv_bias_nonlinearity") {
    opt->fuse_conv_bias_nonlinearity = true;
  } else if (name == "enable_fuse_conv_bias_with_z") {
    opt->fuse_conv_bias_with_z = true;
  } else if (name == "enable_fuse_preprocess") {
    opt->fuse_preprocess = true;
  } else if (name == "no_fuse_grain") {
    opt->fuse_grain = false;
  } else {
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) return Usage();
  ser::GraphDumpFormat format = ser::GraphDumpFormat::FLATBUFFERS_V2;
  bool optimize = true;
  bool keep_opr_priority = false;
  bool trace = false;
  bool trace_passes = false;
  std::string compat;
  gopt::OptimizeForInferenceOptions opt;
  opt.fuse_grain = true;  // Python's default
  for (int i = 3; i < argc; ++i) {
    if (std::strcmp(argv[i], "--format") == 0 && i + 1 < argc) {
      format = std::strcmp(argv[++i], "FBS") == 0 ? ser::GraphDumpFormat::FLATBUFFERS
                                                  : ser::GraphDumpFormat::FLATBUFFERS_V2;
    } else if (std::strcmp(argv[i], "--compat") == 0 && i + 1 < argc) {
      compat = argv[++i];
    } else if (std::strcmp(argv[i], "--keep-opr-priority") == 0) {
      keep_opr_priority = true;
    } else if (std::strcmp(argv[i], "--trace") == 0) {
      trace = true;
    } else if (std::strcmp(argv[i], "--trace-passes") == 0) {
      trace = trace_passes = true;
    } else if (std::strcmp(argv[i], "--no-optimize") == 0) {
      optimize = false;
    } else if (std::strcmp(argv[i], "--kwarg") == 0 && i + 1 < argc) {
      if (!ApplyKwarg(argv[++i], &opt)) return Usage();
    } else {
      return Usage();
    }
  }

  // G.load_graph: load, then name each Host2DeviceCopy's output after its tensor_map entry.
  auto file = ser::InputFile::make_fs(argv[1]);
  auto loaded_format = ser::GraphLoader::identify_graph_dump_format(*file);
  if (!loaded_format.valid()) {
    std::fprintf(stderr, "%s: not a MegEngine dump\n", argv[1]);
    return 1;
  }
  auto loader = ser::GraphLoader::make(std::move(file), loaded_format.val());
  ser::GraphLoader::LoadResult loaded = loader->load(ser::GraphLoader::LoadConfig{}, false);
  std::unordered_map<HostTensorND*, const std::string*> names;
  for (const auto& entry : loaded.tensor_map) names[entry.second.get()] = &entry.first;
  cg::DepOprIter name_inputs{[&](cg::OperatorNodeBase* op) {
    if (!op->same_type<opr::Host2DeviceCopy>()) return;
    auto it = names.find(op->cast_final_safe<opr::Host2DeviceCopy>().host_data().get());
    if (it != names.end()) op->output(0)->name(*it->second);
  }};
  for (const auto& var : loaded.output_var_list) name_inputs.add(var);

  // Network.load wraps every operator in a Python node holding a name: a Host2DeviceCopy's and
  // a constant's is their output var's (as shown then), any other's its own. Network._compile
  // gives each operator its node's name, and a constant's var that name explicitly.
  cg::DepOprIter compile_names{[](cg::OperatorNodeBase* op) {
    const bool constant =
        op->same_type<opr::ImmutableTensor>() || op->same_type<opr::SharedDeviceTensor>();
    if (constant || op->same_type<opr::Host2DeviceCopy>()) {
      const std::string name = op->output(0)->name();
      if (constant) op->output(0)->name(name);
      op->name(name);
    }
  }};
  for (const auto& var : loaded.output_var_list) compile_names.add(var);
  // dump's _set_var_name: each output var named explicitly with the name it shows.
  SymbolVarArray outputs = loaded.output_var_list;
  for (auto& var : outputs) var.node()->name(var.node()->name());

  if (trace) Trace("loaded", outputs);
  if (optimize) {
    outputs = trace_passes ? OptimizeTraced(outputs, opt)
                           : gopt::optimize_for_inference(outputs, opt);
  }
  // Value-initialized, as Python constructs it: optimize_options has no initializer and is
  // written (as 0) even when optimize_for_inference is off.
  ser::Metadata metadata{};
  metadata.is_valid = true;
  metadata.graph_modified = true;
  metadata.set_user_info(std::string("\x80\x04N.", 4));  // pickle.dumps(None), protocol 4
  if (optimize) metadata.set_optimize_options(opt.serialize());

  // G.set_priority_to_id.
  cg::DepOprIter prioritize{[](cg::OperatorNodeBase* op) {
    if (op->node_prop().attribute().priority == 0) {
      op->node_prop().attribute().priority = op->id();
    }
  }};
  for (const auto& var : outputs) prioritize.add(var);

  auto dumper = ser::GraphDumper::make(ser::OutputFile::make_fs(argv[2]), format, 2);
  ser::GraphDumper::DumpConfig config{1, false, keep_opr_priority, false};
  config.no_change_graph = false;
  config.compat_older_version = compat;
  auto result = dumper->dump(outputs, config, metadata);
  if (trace) Trace("dumped", outputs);
  std::printf("%s: %zu operators, %zu bytes\n", argv[2], result.nr_opr, result.tot_bytes);
  return 0;
}

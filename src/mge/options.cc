#include "mge/options.h"

#include "mge/option_names.h"

namespace graphport::mge {
namespace {

OptionSchema BuildExportOptions() {
  OptionSchema schema;
  schema.family = "megengine";
  schema.title = "MegEngine";
  schema.api = "megengine.utils.network.Network.dump";
  schema.groups = {{"output", "Output"},
                   {"names", "Names"},
                   {"metadata", "Metadata"},
                   {"strip", "Strip info"},
                   {"optimize", "Optimize for inference"}};
  auto& o = schema.options;

  OptionSpec format = MakeOption(option::kDumpFormat, "dump_format", OptionType::kChoice, "FBS_V2",
                                 "output", "Dump format",
                                 "Using different dump formats: FBS_V2 (the default of open-source "
                                 "MegEngine) or FBS (the older FlatBuffers format).");
  format.choices = {"FBS", "FBS_V2"};
  format.metavar = "FORMAT";
  o.push_back(format);
  OptionSpec compat =
      MakeOption(option::kCompatOlderVersion, "compat_older_version", OptionType::kString, nullptr,
                 "output", "Compatible with MegEngine",
                 "The specified megbrain version which is less than 8.16 for model forward "
                 "compatibility; only \"8.14\" is supported, and only with dumpFormat FBS.");
  compat.metavar = "VERSION";
  compat.choices = {kCompatOlderVersion};
  compat.rules = {{RuleKind::kNeeds,
                   {{option::kDumpFormat, {"FBS"}}},
                   "forward compatibility for older version only works when dump_format is FBS"}};
  o.push_back(compat);
  OptionSpec filename = MakeOption(option::kFilename, "file", OptionType::kString, "model.mge",
                                   "output", "File name", "The name of the written model file.");
  filename.cli = "";  // the CLI's -o names it
  filename.file_name = true;
  o.push_back(filename);
  OptionSpec append =
      MakeOption(option::kAppend, "append", OptionType::kBytes, nullptr, "output", "Append to",
                 "Whether output is appended to file: the bytes of the existing file; "
                 "the new dump follows them.");
  append.cli_value = CliValue::kFile;
  append.metavar = "FILE";
  o.push_back(append);

  OptionSpec var_name = MakeOption(
      option::kKeepVarName, "keep_var_name", OptionType::kInt, 1, "names", "Keep var names",
      "Level for keeping variable names: 0: none of the names are kept; "
      "1: (default) keep names of output vars; 2: keep names of all "
      "(output and internal) vars.");
  var_name.choices = {0, 1, 2};
  var_name.metavar = "N";
  o.push_back(var_name);
  o.push_back(MakeOption(option::kKeepOprName, "keep_opr_name", OptionType::kBool, false, "names",
                         "Keep operator names", "Whether to keep operator names."));
  o.push_back(MakeOption(option::kKeepParamName, "keep_param_name", OptionType::kBool, false,
                         "names", "Keep param names",
                         "Whether to keep param names, so param values can be easily manipulated "
                         "after loading model."));
  o.push_back(MakeOption(option::kKeepOprPriority, "keep_opr_priority", OptionType::kBool, false,
                         "names", "Keep operator priorities",
                         "Whether to keep priority setting for operators."));

  OptionSpec user_info = MakeOption(
      option::kUserInfo, "user_info", OptionType::kBytes, nullptr, "metadata", "User info",
      "Any type object, which will be pickled to bytes: here a string (pickled as str) or "
      "bytes (pickled as bytes), as Python 3.8+ pickles them.");
  user_info.metavar = "TEXT";
  o.push_back(user_info);
  o.push_back(MakeOption(option::kEnableMetadata, "enable_metadata", OptionType::kBool, true,
                         "metadata", "Save metadata",
                         "Whether to save metadata into output file."));

  OptionSpec strip =
      MakeOption(option::kStripInfoFile, "strip_info_file", OptionType::kString, nullptr, "strip",
                 "Strip info file",
                 "If set, the dump information for code strip is written to a second "
                 "output file of this name.");
  strip.metavar = "NAME";
  strip.file_name = true;
  strip.rules = {{RuleKind::kNeeds,
                  {{option::kFilename, {}, true}},
                  "stripInfoFile must be a file name other than the model's"}};
  o.push_back(strip);
  OptionSpec append_json =
      MakeOption(option::kAppendJson, "append_json", OptionType::kBytes, nullptr, "strip",
                 "Append to strip info",
                 "Checked when stripInfoFile is set: the existing strip-info JSON; the information "
                 "for code strip is appended to it (otherwise the file is rewritten).");
  append_json.cli_value = CliValue::kFile;
  append_json.metavar = "FILE";
  append_json.rules = {
      {RuleKind::kUsedWhen, {{option::kStripInfoFile}}, "is read only when stripInfoFile is set"}};
  o.push_back(append_json);

  o.push_back(MakeOption(option::kOptimizeForInference, "optimize_for_inference", OptionType::kBool,
                         true, "optimize", "Optimize for inference",
                         "Enable optimizations; will skip all optimize options if this is false. "
                         "info.optimized lists what each pass changed."));
  o.push_back(
      MakeOption(option::kAsLoaded, "", OptionType::kBool, false, "optimize", "Keep as loaded",
                 "graphport's own, not a Network.dump argument: write the graph as it was "
                 "loaded, with the loaded metadata (or none, when the input has none), "
                 "instead of optimizing it and writing fresh metadata as Network.dump does; "
                 "the other options still apply."));
  for (const OptimizeKwarg& k : OptimizeKwargs()) {
    o.push_back(
        MakeOption(k.name, k.seed, OptionType::kBool, k.default_value, "optimize", k.seed, k.help));
  }
  // optimize_for_inference pops the layout kwargs in this order, each one set overwriting the
  // layout before it: the last one set wins, silently (research megengine_optimize.md §1.2).
  schema.last_wins = {{kLayoutSet,
                       {option::kEnableHwcd4, option::kEnableNchw4, option::kEnableNchw88,
                        option::kEnableNchw32, option::kEnableNchw44, option::kEnableNchw44Dot,
                        option::kEnableChwn4, option::kEnableNchw64}}};
  return schema;
}

OptionSchema BuildLoadOptions() {
  OptionSchema schema;
  schema.family = "megengine";
  schema.title = "MegEngine";
  schema.api = "megengine.core.tensor.megbrain_graph.load_graph";
  schema.groups = {{"input", "Input"}};
  OptionSpec graph = MakeOption(option::kGraph, "", OptionType::kInt, 0, "input", "Graph",
                                "Which graph of a file holding several dumps one after another "
                                "(0 = the first).");
  graph.metavar = "N";
  schema.options.push_back(graph);
  return schema;
}

}  // namespace

const std::vector<OptimizeKwarg>& OptimizeKwargs() {
  static const auto* kwargs = new std::vector<OptimizeKwarg>{
      {option::kEnableIo16xc32, "enable_io16xc32", false,
       "Float16 tensors between operators, float32 computation inside convolutions, matrix "
       "multiplications and reductions (f16_io_f32_comp, ConvertF32ToF16); the outputs are "
       "converted back to their dtype."},
      {option::kEnableIoc16, "enable_ioc16", false,
       "Float16 for tensors and for computation alike (f16_io_comp, ConvertF32ToF16); the "
       "outputs are converted back to their dtype."},
      {option::kEnableHwcd4, "enable_hwcd4", false,
       "Convert to the NHWCD4 layout (fast on some OpenCL devices); not implemented by graphport."},
      {option::kEnableNchw88, "enable_nchw88", false,
       "Convert float32 convolutions and the operators around them to the NCHW88 layout "
       "(x86 CPUs with AVX2; EnableNchwxx, pack 8); the outputs stay NCHW."},
      {option::kEnableNchw44, "enable_nchw44", false,
       "Convert float32 convolutions and the operators around them to the NCHW44 layout "
       "(Arm CPUs with NEON; EnableNchwxx, pack 4); the outputs stay NCHW."},
      {option::kEnableNchw44Dot, "enable_nchw44_dot", false,
       "Convert to the NCHW44-dot layout (Armv8.2 with dot product); not implemented by "
       "graphport."},
      {option::kEnableNchw4, "enable_nchw4", false,
       "Convert to the NCHW4 layout (NVIDIA, cuDNN); not implemented by graphport."},
      {option::kEnableNchw32, "enable_nchw32", false,
       "Convert to the NCHW32 layout (NVIDIA tensor cores, cuDNN); not implemented by graphport."},
      {option::kEnableChwn4, "enable_chwn4", false,
       "Convert to the CHWN4 layout (NVIDIA tensor cores); not implemented by graphport."},
      {option::kEnableNchw64, "enable_nchw64", false,
       "Convert to the NCHW64 layout (int4 on NVIDIA); not implemented by graphport."},
      {option::kEnableFuseConvBiasNonlinearity, "enable_fuse_conv_bias_nonlinearity", false,
       "Fuse convolution, bias and the nonlinearity after them into one ConvBias operator."},
      {option::kEnableFuseConvBiasWithZ, "enable_fuse_conv_bias_with_z", false,
       "Also fuse an added z input into ConvBias (NVIDIA); inference results may then differ "
       "slightly from training."},
      {option::kEnableFusePreprocess, "enable_fuse_preprocess", false,
       "Fuse an int8 input preprocessing (astype, channel padding, dimshuffle) and a "
       "WarpPerspective before it into one operator; graphport accepts it for graphs "
       "without them, where it changes nothing."},
      {option::kEnableFuseGrain, "enable_fuse_grain", true,
       "Fold reduce-mean and global pooling patterns (FoldingReduceMean, "
       "FoldingGlobalPooling); on by default."},
  };
  return *kwargs;
}

const OptionSchema& MgeLoadOptions() {
  static const OptionSchema* schema = new OptionSchema(BuildLoadOptions());
  return *schema;
}

const OptionSchema& MgeExportOptions() {
  static const OptionSchema* schema = new OptionSchema(BuildExportOptions());
  return *schema;
}

}  // namespace graphport::mge

#include "tfjs/options.h"

#include "core/error.h"
#include "tf/option_names.h"
#include "tfjs/option_names.h"

namespace graphport::tfjs {
namespace {

// Only a TF.js export reads the weights' encoding and layout; any other refuses them.
OptionRule NeedsTfjs(const std::string& name) {
  return {RuleKind::kNeeds,
          {{tf::option::kTo, {"tfjs"}}},
          "export option '" + name +
              "' needs to: 'tfjs' (it is used only when writing a "
              "TensorFlow.js model)"};
}

}  // namespace

OptionGroup TfjsOptionGroup() { return {kOptionGroup, "TensorFlow.js"}; }

std::vector<OptionSpec> TfjsLoadOptionSpecs() {
  return {MakeOption(
      option::kDequantize, "", OptionType::kBool, true, kOptionGroup, "Dequantize weights",
      "On by default (--dequantize): quantized weights (uint8, uint16, float16) become the "
      "Const's own dtype exactly as TF.js dequantizes them. --no-dequantize keeps their codes, "
      "so a TF.js export writes them back unchanged.")};
}

std::vector<OptionSpec> TfjsExportOptionSpecs() {
  std::vector<OptionSpec> specs;
  OptionSpec quantize = MakeOption(
      option::kQuantize, "quantize_{float16,uint8,uint16}", OptionType::kChoice, nullptr,
      kOptionGroup, "Quantize weights",
      "With to: 'tfjs', store float32 weights as float16, or as uint8/uint16 codes with a scale "
      "and a minimum, with tfjs-converter's formulas. TF.js dequantizes them when it loads the "
      "model.");
  quantize.choices = {"float16", "uint8", "uint16"};
  quantize.metavar = "DTYPE";
  quantize.rules = {NeedsTfjs(quantize.name)};
  specs.push_back(quantize);

  OptionSpec patterns = MakeOption(
      option::kQuantizeWeights, "quantize_{float16,uint8,uint16}=PATTERNS", OptionType::kStringList,
      nullptr, kOptionGroup, "Weights to quantize",
      "Quantize only the weights whose names match one of these fnmatch patterns ('*' matches "
      "across '/'), as tfjs-converter's --quantize_* flags take them. Needs quantize.");
  patterns.metavar = "PATTERN";
  patterns.rules = {NeedsTfjs(patterns.name),
                    {RuleKind::kNeeds,
                     {{option::kQuantize}},
                     "quantizeWeights needs quantize (the dtype to use)"}};
  specs.push_back(patterns);

  OptionSpec shard = MakeOption(
      option::kShardSize, "weight_shard_size_bytes", OptionType::kInt, kDefaultShardSize,
      kOptionGroup, "Shard size (bytes)",
      "With to: 'tfjs', the size of each weight file (group1-shard1ofN.bin); the last holds the "
      "rest. tfjs-converter's default is 4 MiB.");
  shard.metavar = "BYTES";
  shard.minimum = 1;
  shard.rules = {NeedsTfjs(shard.name)};
  specs.push_back(shard);

  specs.push_back(MakeOption(
      option::kUnfuseOps, "", OptionType::kBool, false, kOptionGroup, "Unfuse TF.js ops",
      "Rewrite _FusedConv2D, _FusedMatMul, FusedDepthwiseConv2dNative, Prelu and the other ops "
      "TensorFlow's registry lacks or keeps for Grappler into standard TensorFlow ops, so "
      "TensorFlow can import the graph; info lists every rewrite."));

  OptionSpec allow = MakeOption(
      option::kAllowUnsupportedOps, "skip_op_check", OptionType::kBool, false, kOptionGroup,
      "Allow ops TF.js lacks",
      "With to: 'tfjs', write the model even when it holds ops the TF.js runtime cannot run "
      "(for a runtime with custom ops, tf.registerOp); with unfuseOps and a TensorFlow "
      "format, even when it holds ops TensorFlow's registry lacks. info.unsupportedOps lists "
      "them. Off: such an export fails with UNSUPPORTED, naming each op and its nodes.");
  allow.rules = {{RuleKind::kUsedWhen,
                  {{tf::option::kTo, {"tfjs"}}, {option::kUnfuseOps, {true}}},
                  "is used only when writing a TensorFlow.js model, or a TensorFlow format "
                  "with unfuseOps"}};
  specs.push_back(allow);
  return specs;
}

const OptionSchema& TfjsLoadSchema() {
  static const OptionSchema* schema = [] {
    auto* s = new OptionSchema;
    s->family = "tfjs";
    s->title = "TensorFlow.js";
    s->api = "tf.loadGraphModel";
    s->groups = {TfjsOptionGroup()};
    s->options = TfjsLoadOptionSpecs();
    return s;
  }();
  return *schema;
}

void ReadTfjsLoadOptions(const OptionValues& values, ReadOptions* options) {
  options->dequantize = values.Bool(option::kDequantize);
}

void ReadTfjsWriteOptions(const OptionValues& values, WriteOptions* options) {
  options->quantize = values.Has(option::kQuantize) ? values.String(option::kQuantize) : "";
  if (values.Has(option::kQuantizeWeights))
    options->quantize_weights = values.StringList(option::kQuantizeWeights);
  // At least 1: the schema's minimum, which OptionValues::Read enforces.
  options->shard_size = static_cast<uint64_t>(values.Int(option::kShardSize));
}

}  // namespace graphport::tfjs

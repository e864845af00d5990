#include "tfjs/options.h"

#include "core/error.h"

namespace graphport::tfjs {
namespace {

// Only a TF.js export reads the weights' encoding and layout; any other refuses them.
OptionRule NeedsTfjs(const std::string& name) {
  return {RuleKind::kNeeds,
          {{"to", {"tfjs"}}},
          "export option '" + name +
              "' needs to: 'tfjs' (it is used only when writing a "
              "TensorFlow.js model)"};
}

}  // namespace

OptionGroup TfjsOptionGroup() { return {kOptionGroup, "TensorFlow.js"}; }

std::vector<OptionSpec> TfjsLoadOptionSpecs() {
  OptionSpec dequantize;
  dequantize.name = "dequantize";
  dequantize.cli = "dequantize";
  dequantize.type = OptionType::kBool;
  dequantize.default_value = true;
  dequantize.group = kOptionGroup;
  dequantize.label = "Dequantize weights";
  dequantize.help =
      "On by default (--dequantize): quantized weights (uint8, uint16, float16) become the "
      "Const's own dtype exactly as TF.js dequantizes them. --no-dequantize keeps their codes, "
      "so a TF.js export writes them back unchanged.";
  return {dequantize};
}

std::vector<OptionSpec> TfjsExportOptionSpecs() {
  std::vector<OptionSpec> specs;
  OptionSpec quantize;
  quantize.name = "quantize";
  quantize.cli = "quantize";
  quantize.seed = "quantize_{float16,uint8,uint16}";
  quantize.type = OptionType::kChoice;
  quantize.choices = {"float16", "uint8", "uint16"};
  quantize.group = kOptionGroup;
  quantize.label = "Quantize weights";
  quantize.metavar = "DTYPE";
  quantize.help =
      "With to: 'tfjs', store float32 weights as float16, or as uint8/uint16 codes with a scale "
      "and a minimum, with tfjs-converter's formulas. TF.js dequantizes them when it loads the "
      "model.";
  quantize.rules = {NeedsTfjs(quantize.name)};
  specs.push_back(quantize);

  OptionSpec patterns;
  patterns.name = "quantizeWeights";
  patterns.cli = "quantize-weights";
  patterns.seed = "quantize_{float16,uint8,uint16}=PATTERNS";
  patterns.type = OptionType::kStringList;
  patterns.group = kOptionGroup;
  patterns.label = "Weights to quantize";
  patterns.metavar = "PATTERN";
  patterns.help =
      "Quantize only the weights whose names match one of these fnmatch patterns ('*' matches "
      "across '/'), as tfjs-converter's --quantize_* flags take them. Needs quantize.";
  patterns.rules = {
      NeedsTfjs(patterns.name),
      {RuleKind::kNeeds, {{"quantize"}}, "quantizeWeights needs quantize (the dtype to use)"}};
  specs.push_back(patterns);

  OptionSpec shard;
  shard.name = "shardSize";
  shard.cli = "shard-size";
  shard.seed = "weight_shard_size_bytes";
  shard.type = OptionType::kInt;
  shard.default_value = kDefaultShardSize;
  shard.group = kOptionGroup;
  shard.label = "Shard size (bytes)";
  shard.metavar = "BYTES";
  shard.minimum = 1;
  shard.help =
      "With to: 'tfjs', the size of each weight file (group1-shard1ofN.bin); the last holds the "
      "rest. tfjs-converter's default is 4 MiB.";
  shard.rules = {NeedsTfjs(shard.name)};
  specs.push_back(shard);

  OptionSpec unfuse;
  unfuse.name = "unfuseOps";
  unfuse.cli = "unfuse-ops";
  unfuse.type = OptionType::kBool;
  unfuse.default_value = false;
  unfuse.group = kOptionGroup;
  unfuse.label = "Unfuse TF.js ops";
  unfuse.help =
      "Rewrite _FusedConv2D, _FusedMatMul, FusedDepthwiseConv2dNative, Prelu and the other ops "
      "TensorFlow's registry lacks or keeps for Grappler into standard TensorFlow ops, so "
      "TensorFlow can import the graph; info lists every rewrite.";
  specs.push_back(unfuse);

  OptionSpec allow;
  allow.name = "allowUnsupportedOps";
  allow.cli = "allow-unsupported-ops";
  allow.seed = "skip_op_check";
  allow.type = OptionType::kBool;
  allow.default_value = false;
  allow.group = kOptionGroup;
  allow.label = "Allow ops TF.js lacks";
  allow.help =
      "With to: 'tfjs', write the model even when it holds ops the TF.js runtime cannot run "
      "(for a runtime with custom ops, tf.registerOp); with unfuseOps and a TensorFlow "
      "format, even when it holds ops TensorFlow's registry lacks. info.unsupportedOps lists "
      "them. Off: such an export fails with UNSUPPORTED, naming each op and its nodes.";
  allow.rules = {{RuleKind::kUsedWhen,
                  {{"to", {"tfjs"}}, {"unfuseOps", {true}}},
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
  options->dequantize = values.Bool("dequantize");
}

void ReadTfjsWriteOptions(const OptionValues& values, WriteOptions* options) {
  options->quantize = values.Has("quantize") ? values.String("quantize") : "";
  if (values.Has("quantizeWeights"))
    options->quantize_weights = values.StringList("quantizeWeights");
  // At least 1: the schema's minimum, which OptionValues::Read enforces.
  options->shard_size = static_cast<uint64_t>(values.Int("shardSize"));
}

}  // namespace graphport::tfjs

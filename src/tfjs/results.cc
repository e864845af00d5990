#include "tfjs/results.h"

#include "tf/results.h"
#include "tfjs/family.h"

namespace graphport::tfjs {

std::vector<ResultType> TfjsExportResultTypes() {
  return {
      {"TfjsExportInfo",
       "What an export to: 'tfjs' wrote: a TensorFlow.js graph model.",
       {{"format", Literals({"tfjs"}), "The format written."},
        {"encoding", Literals({"json"}), "model.json and binary shards."},
        {"files", "string[]", "Names of the files written, model.json first."},
        {"weights", "number", "Weights in the manifest."},
        {"shards", "number", "Shard files written."},
        {"weightBytes", "number", "Bytes of every weight as written."},
        {"quantized", "string[]", "The weights written quantized, by name."},
        {"renamedFunctionConsts", "number",
         "Consts of function bodies renamed so that their weight names are unique."},
        Optional({"quantization", "WeightQuantizationChange",
                  "A TF.js model written again with quantize: its weights' bytes as read and "
                  "as written, when quantization changed them (float16 of uint8 weights "
                  "doubles them)."}),
        Optional({"unsupportedOps", "UnsupportedOp[]",
                  "With allowUnsupportedOps: the ops written that the TF.js runtime lacks."}),
        Optional({"frozen", "FreezeReport", "What the freeze did."}),
        Optional({"unfusedOps", "UnfusedOp[]", "With unfuseOps: what it rewrote."})}},
      {"WeightQuantizationChange",
       "ExportInfo.quantization: how quantize changed a TF.js model's weights.",
       {{"quantize", "string", "The quantize option: 'float16', 'uint8' or 'uint16'."},
        {"sourceQuantized", "Record<string, number>",
         "The source's quantized weights, by their dtype ('uint8', 'uint16', 'float16'): how "
         "many."},
        {"sourceWeightBytes", "number", "Bytes of every weight as the source stored them."},
        {"writtenWeightBytes", "number", "Bytes of every weight as written."},
        {"note", "string | null", "For people: why the model grew."}}},
  };
}

namespace {

std::vector<ResultType> TfjsSummaryTypes() {
  return {
      {"TfjsModelJson",
       "The fields of a model.json besides its graph, and where its weights lie.",
       {{"format", "unknown", "model.json's format (\"graph-model\"), as written."},
        {"generatedBy", "unknown", "model.json's generatedBy (the TensorFlow that made it)."},
        {"convertedBy", "unknown", "model.json's convertedBy (the converter)."},
        {"userDefinedMetadata", "unknown", "model.json's userDefinedMetadata, as written."},
        {"initializerSignature", "unknown", "model.json's initializerSignature, as written."},
        {"signatureSource", "string | null",
         "Where the signature came from (\"signature\", \"userDefinedMetadata.signature\"); "
         "null when the model has none."},
        {"modelInitializer", "TfjsModelInitializer | null",
         "The initializer graph (lookup tables), merged into the TensorFlow graph; null when "
         "the model has none."},
        {"dequantized", "boolean",
         "The dequantize load option: quantized weights read as float32."},
        {"weights", "TfjsWeight[]", "Every weight of the manifest, in order."},
        {"shards", "TfjsShard[]", "Every shard file, in order."},
        {"unusedWeights", "string[]", "Weights no node of the graph reads."}}},
      {"TfjsModelInitializer",
       "How modelInitializer's nodes joined the TensorFlow graph.",
       {{"nodes", "number", "Nodes of the initializer graph."},
        {"shared", "number",
         "Of them, identical to a node of the model's graph (its tables): kept once."},
        {"renamed", "Record<string, string>",
         "Initializer nodes whose name a different node of the graph has: old -> new name."},
        {"initOps", "string[]", "The table initializers (the table_initializer collection)."},
        {"mainOp", "string", "The NoOp the loader runs."},
        {"linkedInputs", "string[]",
         "Placeholders that became an Identity of the initializer's output (resourceId)."}}},
      {"TfjsWeight",
       "A weight of the manifest.",
       {{"name", "string", "The Const it fills."},
        {"dtype", "string", "Its dtype as the graph sees it (\"float32\", \"int32\", ...)."},
        {"shape", "number[]", "Its shape."},
        Optional({"quantization", "TfjsQuantization", "How it is stored quantized."}),
        {"group", "number", "Its weight group in the manifest."},
        {"offset", "number", "Where it starts in its group's bytes."},
        {"bytes", "number", "Its stored bytes."},
        {"shards", "string[]", "The shard files it lies in."}}},
      {"TfjsQuantization",
       "A weight's quantization entry.",
       {{"dtype", "string", "The stored dtype: 'uint8', 'uint16' or 'float16'."},
        Optional({"scale", "number", "The step between two stored values (uint8, uint16)."}),
        Optional({"min", "number", "The value of stored 0 (uint8, uint16)."}),
        Optional({"original_dtype", "string", "The dtype before quantization."})}},
      {"TfjsShard",
       "A shard file of the manifest.",
       {{"path", "string", "Its path as the manifest names it."},
        {"input", "string", "The input it was read from."},
        {"group", "number", "Its weight group."},
        {"bytes", "number", "Its size (-1 when the input set cannot tell)."},
        Optional({"trailingBytes", "number",
                  "Bytes after the group's last weight, which no weight reads."})}},
  };
}

ResultSchema MakeTfjsResultSchema() {
  ResultSchema schema = tf::TfResultSchema(TfjsExportResultTypes(), "TfjsExportInfo");
  schema.summary = "TfjsSummary";
  ResultType summary{"TfjsSummary",
                     "What inspect() tells of a TensorFlow.js graph model: TensorFlow's graph "
                     "fields for its topology, and the model.json's own."};
  summary.fields =
      SummaryHeader("tfjs", "TensorFlow.js", Literals({kFormatName}), Literals({"json"}));
  summary.fields.push_back({"tfjs", "TfjsModelJson", "What model.json holds besides the graph."});
  summary.extends = {tf::kTfGraphSummaryType};
  schema.Add(summary);
  schema.Add(TfjsSummaryTypes());
  return schema;
}

}  // namespace

const ResultSchema& TfjsResultSchema() {
  static const ResultSchema* schema = new ResultSchema(MakeTfjsResultSchema());
  return *schema;
}

}  // namespace graphport::tfjs

#include "mge/results.h"

#include "core/export_preview.h"

namespace graphport::mge {
namespace {

// 64-bit ids and hashes are hex text ("0x9e62dbf156949217"): a JSON number loses their bits.
constexpr char kHexNote[] = " (hex text: a JavaScript number cannot hold 64 bits)";

// MegEngine's CompGraphDumpResult, which inspect() shows of the file and export() returns.
std::vector<ResultField> DumpResultFields() {
  return {
      {"nr_opr", "number", "Operators written."},
      {"tot_bytes", "number", "Bytes of the dump."},
      {"tensor_value_bytes", "number", "Bytes of tensor values."},
      {"content_hash", "string", std::string("The content hash") + kHexNote},
      {"inputs", "string[]", "The input (Host2DeviceCopy) var names, sorted."},
      {"outputs", "string[]", "The output var names, in order (\"unnamed<i>\" without names)."},
      {"params", "string[]", "The param names."},
  };
}

ResultType Summary() {
  ResultType summary{"MegEngineSummary", "What inspect() tells of a MegEngine model."};
  summary.fields =
      SummaryHeader("megengine", "MegEngine", Literals({"mge-fbs", "mge-fbs-v2", "mge-test"}),
                    Literals({"binary"}));
  summary.fields.push_back({"megengine", "MegEngineDetails", "The graph read, in detail."});
  return summary;
}

std::vector<ResultType> SummaryTypes() {
  return {
      {"MegEngineDetails",
       "The MegEngine graph read and the file around it.",
       {{"graph", "number", "The graph read, by its index in `graphs` (load option graph)."},
        {"graphs", "MegEngineGraphEntry[]", "Every dump in the file, in order."},
        Optional({"testCases", "MegEngineTestCase[]",
                  "An mgbtest0 container's test cases (the dumps after the model)."}),
        {"header", "MegEngineHeader", "The dump's header."},
        {"ops", "Record<string, number>", "Operators by type, sorted by type."},
        {"operators", "MegEngineOperator[]",
         "The first 100 operators, in order: model.summaryPage({list: 'operators'}) pages "
         "through all of them."},
        {"operatorCount", "number", "All the graph's operators."},
        {"outputs", "MegEngineVar[]", "The graph's outputs, in order."},
        Optional({"outputAliases", "MegEngineOutputAlias[]", "FBS_V2 output aliases."}),
        {"metadata", "MegEngineMetadata | null", "The dump's metadata; null when it has none."},
        {"dumpInfo", "MegEngineDumpInfo",
         "What MegEngine's dump returned when it wrote this file, as far as the file tells."}}},
      {"MegEngineGraphEntry",
       "A dump in the file.",
       {{"index", "number", "Its index."},
        {"format", Literals({"mge-fbs", "mge-fbs-v2"}), "Its format."},
        {"offset", "number", "Where it starts in the file."},
        {"bytes", "number", "Its size."},
        {"operators", "number", "Its operators."},
        {"role", Literals({"model", "test case"}), "The model, or a test case of mgbtest0."}}},
      {"MegEngineTestCase",
       "A test case of an mgbtest0 container.",
       {{"index", "number", "Its index among the test cases."},
        {"graph", "number", "Its index in `graphs`."},
        {"operators", "number", "Its operators."},
        {"valueBytes", "number", "Bytes of its tensor values."},
        {"outputs", "(string | null)[]", "Its output var names (null when unnamed)."}}},
      {"MegEngineHeader",
       "The dump's header fields.",
       {{"format", Literals({"FBS", "FBS_V2"}), "MegEngine's name of the dump format."},
        Optional({"magic", Literals({"MGBS", "MGBC"}), "FBS: the magic."}),
        Optional({"typeIds", Literals({"unversioned", "persist"}),
                  "FBS: how operator types are identified."}),
        Optional({"featureBits", "string", std::string("FBS MGBC: the feature bits") + kHexNote}),
        Optional({"hash", "string", std::string("FBS: the graph hash") + kHexNote}),
        Optional({"unusedValueBytes", "number", "FBS: value bytes no tensor reads."}),
        Optional({"modelVersion", "number", "FBS_V2: the model version."}),
        Optional({"middleTensors", "boolean", "FBS_V2: the dump stores middle tensors."}),
        {"version", "number", "mgb_version (FBS) or mge_version (FBS_V2)."},
        {"nrSharedTensor", "number", "Tensors shared between operators."}}},
      {"MegEngineOperator",
       "An operator of the graph.",
       {{"blobs", "number[]", "The sizes of its blobs."},
        {"class", "string | null", "Its C++ class; null for a type graphport does not know."},
        {"compNodes", "string[]", "Its comp nodes (\"\" for the default)."},
        {"index", "number", "Its index in the graph."},
        {"inputs", "MegEngineVar[]", "Its input vars."},
        {"name", "string | null", "Its name; null when the file stores none."},
        Optional({"oprVersion", "number", "FBS_V2: its operator version."}),
        {"outputDtype", "MegEngineDtype | null", "Its output dtype, when stored."},
        {"outputs", "MegEngineVar[]", "Its output vars."},
        {"params", "MegEngineParam[]", "Its params, in order."},
        {"priority", "number", "Its priority."},
        {"tensors", "MegEngineTensor[]", "Its tensors (values of params and constants)."},
        {"type", "string", "Its type, as `ops` counts it."},
        {"typeId", "string", std::string("Its type id") + kHexNote}}},
      {"MegEngineVar",
       "A var of the graph.",
       {Optional({"compNode", "string | null", "Its comp node (FBS_V2 middle tensors)."}),
        Optional({"dtype", "string", "Its dtype (FBS_V2 middle tensors)."}),
        {"id", "number", "Its id."},
        {"name", "string | null", "Its name; null when the file stores none."},
        Optional({"originalId", "number", "A graph output's id in the original graph."}),
        Optional({"shape", "number[]", "Its shape (FBS_V2 middle tensors)."})}},
      {"MegEngineTensor",
       "A tensor an operator stores.",
       {{"compNode", "string | null", "Its comp node."},
        {"dtype", "MegEngineDtype | null", "Its dtype."},
        {"name", "string | null", "Its name."},
        {"shape", "number[] | null", "Its shape."},
        {"valueBytes", "number", "Bytes of its value (0 without one)."}}},
      {"MegEngineDtype",
       "A dtype, with the parameters of a quantized one.",
       {{"dtype", "string", "Its name (\"Float32\", \"QuantizedS8\", ...)."},
        Optional({"scale", "number", "A quantized dtype's scale."}),
        Optional({"zero_point", "number", "An asymmetric quantized dtype's zero point."})}},
      {"MegEngineParam",
       "A MegEngine operator param as inspect() shows it: the union member's number, its "
       "table's name (null for a member newer than graphport's schema, which a re-dump keeps "
       "byte for byte), and its fields by name (enums by name). 64-bit integers: a field of "
       "type long or ulong (a seed, ExecutionPolicy.workspace_limit) whose value lies beyond "
       "Number.MAX_SAFE_INTEGER (2^53 - 1) in magnitude is its decimal string, since a "
       "JavaScript number cannot hold it exactly; every other value is a number. "
       "BigInt(value) reads both forms exactly. The same rule holds for the metadata's "
       "optimizeOptions word.",
       {{"union", "number", "The union member's number."},
        {"type", "string | null", "Its table's name; null for a member graphport does not know."},
        Optional({"fields", "Record<string, unknown>", "Its fields by name (enums by name)."}),
        Optional({"layout", "string", "The table layout read, when it is not the type's own."}),
        Optional({"ambiguous", "boolean", "More than one layout fits the bytes."})}},
      {"MegEngineOutputAlias",
       "An output alias of an FBS_V2 dump.",
       {{"id", "number", "The var."}, {"name", "string | null", "Its alias."}}},
      {"MegEngineMetadata",
       "The dump's metadata.",
       {{"isValid", "boolean", "metadata.is_valid."},
        {"graphModified", "boolean", "metadata.graph_modified."},
        {"optimizeOptions", "number | string",
         "The optimize_options word (a decimal string beyond 2^53 - 1)."},
        {"optimizedForInference", "boolean", "The word is not 0."},
        {"optimizeFlags", "string[]", "The word's flags by their option names."},
        {"userInfo", "MegEngineUserInfo | null", "metadata.user_info; null without one."}}},
      {"MegEngineUserInfo",
       "The user_info a dump's metadata carries (a pickle).",
       {{"base64", "string", "Its bytes, in base64."},
        {"size", "number", "Its bytes."},
        {"value", "unknown", "The pickle's plain values; null when it is not such a pickle."},
        Optional({"note", "string", "Why `value` is null."})}},
      {"MegEngineDumpInfo", "MegEngine's CompGraphDumpResult.", DumpResultFields()},
  };
}

std::vector<ResultType> ExportTypes() {
  ResultType info{"MegEngineExportInfo",
                  "What a MegEngine export (Network.dump) wrote: MegEngine's dump result "
                  "(MegEngineDumpInfo's fields), and more.",
                  {},
                  "",
                  {"MegEngineDumpInfo"}};
  for (ResultField& field : std::vector<ResultField>{
           {"files", "string[]", "Names of the files written, the model first."},
           {"format", Literals({"FBS", "FBS_V2"}), "The dump format written."},
           Optional({"header", Literals({"MGBS", "MGBC"}), "FBS: the magic written."}),
           {"optimized", "MegEngineOptimized | 'as loaded' | 'no'",
            "What optimize_for_inference did; 'as loaded' with asLoaded, 'no' with "
            "optimizeForInference false."},
           Optional(
               {"notes", "string[]", "`optimized` in a line, for people (the CLIs print it)."}),
           {"kept", "MegEngineKept", "What the dump kept or could not keep, for people."}}) {
    info.fields.push_back(std::move(field));
  }
  return {
      info,
      {"MegEngineOptimized",
       "What optimize_for_inference did to the graph before the dump.",
       {{"optimizeOptions", "number", "The optimize_options word written (64: fuse_grain)."},
        {"flags", "string[]", "The kwargs that word holds, by name."},
        {"operators", "MegEngineOperatorCounts", "Operators before and after."},
        {"passes", "MegEnginePassReport[]",
         "Each pass that changed the graph, in order; empty when the graph written is the "
         "loaded one."}}},
      {"MegEngineOperatorCounts",
       "Operator counts.",
       {{"before", "number", "In the loaded graph."},
        {"after", "number", "In the graph written."}}},
      {"MegEnginePassReport",
       "One pass of the optimizer.",
       {{"pass", "string", "Its name, as MegEngine names it."}, {"did", "string", "What it did."}}},
      {"MegEngineKept",
       "Notes on what a dump kept, for people.",
       {{"metadata", "string", "What became of the metadata."},
        Optional({"varNames", "string", "Var names written as var<id>."}),
        Optional({"oprNames", "string", "Operators without a name."}),
        Optional({"testCases", "number", "An mgbtest0 container's test cases, kept."}),
        Optional({"compatRewrite", "string", "Operators the compatibility rewrite replaced."}),
        Optional({"compatRewriteKept", "string[]", "What the compatibility rewrite kept."}),
        Optional({"stripInfoDtypes", "string", "Vars whose dtype strip info cannot tell."})}},
  };
}

ResultSchema MakeMgeResultSchema() {
  ResultSchema schema;
  schema.summary = "MegEngineSummary";
  schema.export_info = "MegEngineExportInfo";
  schema.Add(Summary());
  schema.Add(SummaryTypes());
  schema.Add(ExportTypes());
  schema.preview = "MegEngineExportPreview";
  schema.Add(
      PreviewResultTypes("MegEngine", {{"passes", "MegEnginePassReport[]",
                                        "optimizeForInference: each pass that changed the graph."},
                                       {"operators", "MegEngineOperatorCounts",
                                        "optimizeForInference: operators before and after."}}));
  return schema;
}

}  // namespace

const ResultSchema& MgeResultSchema() {
  static const ResultSchema* schema = new ResultSchema(MakeMgeResultSchema());
  return *schema;
}

}  // namespace graphport::mge

#include "tf/results.h"

#include "core/export_preview.h"

namespace graphport::tf {

namespace {

std::vector<ResultField> TfGraphSummaryFields() {
  return {
      {"producer", "TensorflowProducer", "Who wrote the graph: GraphDef versions, TensorFlow's."},
      {"nodeCount", "number", "Nodes of the graph, function bodies left out."},
      {"ops", "Record<string, number>", "Nodes by op, sorted by op name."},
      {"constants", "ConstantTotals", "The graph's Const nodes and the bytes of their values."},
      {"scopes", "NameScope[]",
       "Name scopes for exportScope, sorted by name: each with the nodes inside it. At most "
       "2,000, the shallowest first; `scopeCount` counts them all."},
      {"scopeCount", "number", "Every name scope of the graph, listed or not."},
      {"functions", "GraphFunction[]", "The functions of the graph's library."},
      {"collections", "CollectionSummary[]", "The MetaGraphDef's collections, by name."},
      {"signatures", "SignatureSummary[]", "The MetaGraphDef's signatures, by name."},
      {"tags", "string[]", "The MetaGraphDef's tags."},
      {"hasSaver", "boolean", "The MetaGraphDef has a saver_def."},
      {"metaGraphs", "MetaGraphSummary[]", "Every MetaGraphDef of a SavedModel, in order."},
      {"selectedMetaGraph", "number",
       "The MetaGraphDef read, by its index in `metaGraphs` (-1 when the input has none)."},
      {"savedModelFiles", "SavedModelFile[]",
       "The files of a SavedModel folder besides saved_model.pb that a SavedModel export "
       "passes through."},
      Optional({"variables", "CheckpointVariable[]",
                "A SavedModel folder's checkpoint (variables/variables.index), listed from its "
                "index alone, in key order. A TF2 checkpoint's object graph is left out. Absent "
                "when the folder has no checkpoint."}),
      Optional({"variableBytes", "number", "The bytes of all `variables`."}),
      Optional({"variableShards", "number", "How many data files the checkpoint has."}),
      Optional({"variablesError", "string",
                "Why the folder's checkpoint could not be read, in place of `variables`."}),
      {"needsFreeze", "boolean",
       "The graph holds variables or function calls: an export to TF.js freezes it."},
      {"freezeOps", "Record<string, number>",
       "Those ops (variables, their reads, calls) with their counts."},
  };
}

}  // namespace

std::vector<ResultType> TfSharedResultTypes() {
  return {
      {kTfGraphSummaryType,
       "What inspect() tells of a TensorFlow graph after the common header: of a TensorFlow "
       "model, and of a TensorFlow.js model's topology.",
       TfGraphSummaryFields()},
      {"TensorflowProducer",
       "The versions a TensorFlow graph records.",
       {{"graphProducer", "number", "GraphDef versions.producer."},
        {"minConsumer", "number", "GraphDef versions.min_consumer."},
        Optional({"tensorflowVersion", "string",
                  "meta_info_def.tensorflow_version (a MetaGraphDef or SavedModel)."}),
        Optional({"tensorflowGitVersion", "string", "meta_info_def.tensorflow_git_version."})}},
      {"ConstantTotals",
       "Const nodes and their values' bytes.",
       {{"count", "number", "Const nodes."},
        {"bytes", "number", "Bytes of their values (a splatted value counts its full shape)."}}},
      {"NameScope",
       "A name scope of the graph.",
       {{"name", "string", "The scope, without a trailing '/'."},
        {"nodeCount", "number", "Nodes inside it, at any depth."}}},
      {"GraphFunction",
       "A function of the graph's library.",
       {{"name", "string", "Its signature's name."},
        {"nodeCount", "number", "Nodes of its body."}}},
      {"CollectionSummary",
       "A collection of the MetaGraphDef.",
       {{"name", "string", "Its key."},
        {"kind",
         Literals({"node_list", "bytes_list", "int64_list", "float_list", "any_list", "none"}),
         "Which list it holds."},
        {"size", "number", "Values in the list."}}},
      {"SignatureSummary",
       "A signature of the MetaGraphDef.",
       {{"name", "string", "Its key (serving_default, ...)."},
        {"methodName", "string", "Its method_name."},
        {"inputs", "Record<string, TensorSummary>", "Its inputs by key."},
        {"outputs", "Record<string, TensorSummary>", "Its outputs by key."}}},
      {"TensorSummary",
       "A tensor a signature names.",
       {{"name", "string", "The tensor (a sparse one's values tensor)."},
        {"dtype", "string", "TensorFlow's name of its dtype, e.g. \"DT_FLOAT\"."},
        {"shape", "number[] | null", "Its dimensions (-1 unknown); null for an unknown rank."},
        Optional({"sparse", "boolean", "A COO sparse tensor."})}},
      {"MetaGraphSummary",
       "A MetaGraphDef of a SavedModel.",
       {{"tags", "string[]", "Its tags, by which a loader selects it."},
        {"nodeCount", "number", "Nodes of its graph."},
        {"signatureCount", "number", "Its signatures."}}},
      {"SavedModelFile",
       "A file of a SavedModel folder besides saved_model.pb.",
       {{"name", "string", "Its path in the folder."},
        {"bytes", "number | null", "Its size, null when the input set cannot tell."}}},
      {"CheckpointVariable",
       "A tensor of a checkpoint, from its index.",
       {{"key", "string", "Its checkpoint key."},
        {"dtype", "string", "TensorFlow's name of its dtype, e.g. \"DT_FLOAT\"."},
        {"shape", "number[]", "Its full shape."},
        {"bytes", "number", "Its stored bytes."},
        {"shard", "number", "The data file that holds it."},
        {"readBy", "VariableReader[]",
         "The signatures that read it, with the node that the freeze makes its Const."}}},
      {"VariableReader",
       "A signature that reads a variable.",
       {{"signature", "string", "The signature's key."},
        {"node", "string", "The node that the freeze makes a Const of the value."}}},
      {"UnsupportedOp",
       "An op the target runtime cannot run: how many nodes, the first few, and what fixes it.",
       {{"op", "string", "The op."},
        {"count", "number", "Nodes of that op, function bodies included."},
        {"nodes", "string[]", "The first five, as \"node\" or \"function/node\"."},
        {"hint", "string | null",
         "\"freeze fixes this\", \"unfuseOps fixes this\", ...; null when graphport knows no "
         "fix."}}},
      {"UnfusedOp",
       "A fused node that unfuseOps rewrote into TensorFlow's ops.",
       {{"node", "string", "The fused node."},
        {"op", "string", "Its op (_FusedConv2D, FusedDepthwiseConv2dNative, ...)."},
        {"fusedOps", "string[]", "Its fused_ops attr."},
        Optional({"function", "string", "The function whose body holds it."}),
        {"into", "UnfusedNode[]", "The nodes it became."}}},
      {"UnfusedNode",
       "A node an unfused node became.",
       {{"name", "string", "The node."}, {"op", "string", "Its op."}}},
      {"FreezeReport",
       "What a freeze did (freeze: true, or to: 'tfjs' of a graph with variables or calls).",
       {{"signature", "string", "The signature frozen."},
        {"function", "string | null",
         "The signature's function (TF2), null for a TF1 graph frozen in place."},
        {"inlinedCalls", "number", "Function calls inlined."},
        {"variables", "number", "Variables made Consts."},
        {"variableBytes", "number", "The bytes of their values."},
        {"readsMadeIdentity", "number", "Variable reads made Identity nodes."},
        {"gathersRewritten", "number", "ResourceGathers made GatherV2 of a Const."},
        {"nodesPruned", "number", "Nodes the signature's outputs do not need, removed."},
        {"nodes", "number", "Nodes of the frozen graph."},
        {"nodesBeforePrune", "number", "Nodes before the pruning."},
        Optional({"unusedInputsDropped", "string[]",
                  "Signature inputs dropped because the outputs do not need them."}),
        {"optimized", "Record<string, unknown> | null",
         "With optimize (to: 'tfjs'): what each of tfjs-converter's passes did; else null."},
        {"tables", "FreezeTables | null",
         "The lookup tables the freeze initializes in the graph; null when the graph has "
         "none."},
        {"constants", "FrozenConstant[]",
         "Each Const the freeze made, named as the freeze made it: optimize may then rename "
         "it (an Identity chain folds onto its last node)."},
        {"checkpoint", "string | null",
         "The checkpoint the values came from, null when the graph had none to read."}}},
      {"FreezeTables",
       "The lookup tables of a frozen signature, made again by an initializer graph: a TF2 "
       "model's from its resources, a TF1 model's from its table initializers.",
       {{"tables", "(FrozenTable | FrozenTf1Table)[]", "Each table the initializer makes."},
        Optional({"resourcesLeftOut", "LeftOutResource[]",
                  "TF2: resources it could not make, and why."}),
        Optional({"initOpsLeftOut", "LeftOutInitOp[]",
                  "TF1: init ops left out because they fill no table the signature reads."}),
        Optional({"tablesNotFilled", "string[]",
                  "TF1: tables the signature reads that no init "
                  "op fills (empty in TensorFlow too)."}),
        {"shared", "number",
         "Initializer nodes identical to a node of the graph (its tables), kept once."},
        Optional({"fromTextFiles", "TextFileTable[]",
                  "Tables filled from an asset's text file, made LookupTableImportV2 of "
                  "its entries."}),
        Optional({"initializerNodes", "number", "Nodes of the initializer graph."}),
        {"initOps", "string[]", "The table initializers (the table_initializer collection)."},
        {"mainOp", "string", "The NoOp the loader runs."},
        {"renamed", "Record<string, string>",
         "Initializer nodes whose name a node of the graph has: old -> new name."}}},
      {"FrozenTable",
       "A table the initializer makes.",
       {{"object", "number", "Its object in the SavedModel's object graph."},
        {"output", "string", "The initializer's output that hands out its handle."},
        {"resourceId", "number", "The id TF.js pairs the signature input with it by."},
        {"createResource", "string", "The function that creates it."},
        {"initialize", "string", "The function that fills it."},
        {"input", "string | null",
         "The signature input (a Placeholder) fed with it; null when none reads it."}}},
      {"FrozenTf1Table",
       "A TF1 table the initializer makes.",
       {{"node", "string", "The table's node."},
        {"op", "string", "Its op (HashTableV2, ...)."},
        {"filledBy", "string[]", "The init ops that fill it."},
        {"readBySignature", "boolean", "Whether the signature reads it."}}},
      {"LeftOutInitOp",
       "A TF1 init op the freeze left out.",
       {{"initOp", "string", "The init op."}, {"why", "string", "Why."}}},
      {"LeftOutResource",
       "A resource the freeze could not make again.",
       {{"object", "number", "Its object in the object graph."}, {"why", "string", "Why."}}},
      {"TextFileTable",
       "A table filled from a text file.",
       {{"node", "string", "The node made."},
        {"asset", "string", "The asset file read."},
        {"keyIndex", "number", "The column of the keys (-1 the line number, -2 the line)."},
        {"valueIndex", "number", "The column of the values (as keyIndex)."},
        {"lines", "number", "Lines read."},
        {"entries", "number", "Entries made (duplicate keys once)."},
        {"madeOp", "string", "The op made of them."}}},
      {"FrozenConstant",
       "A Const the freeze made.",
       {{"node", "string", "The node."},
        {"key", "string", "The checkpoint key of its value (\"\" for a constant)."}}},
  };
}

std::vector<ResultType> TfExportResultTypes() {
  return {
      {"TensorflowFormatExportInfo",
       "What an export to a TensorFlow format (meta-graph, graph-def, saved-model) wrote.",
       {{"format", Literals({"meta-graph", "graph-def", "saved-model"}), "The format written."},
        {"encoding", Literals({"binary", "text"}), "Binary or text format."},
        {"files", "string[]", "Names of the files written, main output first."},
        {"nodeCount", "number", "Nodes of the exported graph."},
        {"strippedOpList", "string[]", "The op names of the exported stripped_op_list."},
        {"unregisteredOps", "string[]",
         "Ops the graph uses that no registry defines (left out of stripped_op_list)."},
        {"collections", "string[]", "The collections exported."},
        {"unboundInputs", "string[]", "Inputs of an exportScope export that name nodes outside."},
        {"excludedNodes", "string[]", "Nodes removed by clearExtraneousSavers."},
        Optional({"strippedDefaultAttrs", "number", "Attrs stripDefaultAttrs removed."}),
        Optional({"unknownDefaultOps", "string[]",
                  "Ops whose defaults were unknown, so their attrs were kept."}),
        Optional({"debugInfoNodes", "number", "Nodes saveDebugInfo traced."}),
        Optional({"notes", "string[]",
                  "What a SavedModel export passed through or left out, for people."}),
        Optional({"unknownFieldsLeftOut", "UnknownFieldsLeftOut",
                  "A text export leaves out the fields the schema does not know (as TensorFlow "
                  "does)."}),
        Optional({"droppedReferences", "DroppedReference[]",
                  "With exportScope: the signatures and the saver dropped because they name "
                  "tensors outside."}),
        Optional({"frozen", "FreezeReport", "What the freeze did."}),
        Optional({"unsupportedOps", "UnsupportedOp[]",
                  "The ops written that TensorFlow's op registry lacks (a TF.js model's graph, "
                  "or any graph with unfuseOps and allowUnsupportedOps)."}),
        Optional({"warnings", "string[]",
                  "What was written that its target cannot take (the CLI prints each line on "
                  "stdout)."}),
        Optional({"unfusedOps", "UnfusedOp[]", "With unfuseOps: what it rewrote."})}},
      {"UnknownFieldsLeftOut",
       "The fields a text export left out.",
       {{"count", "number", "How many."},
        {"fields", "string[]", "The first of them, as \"file: field path\"."}}},
      {"DroppedReference",
       "A signature or the saver an exportScope export dropped.",
       {{"what", "string", "What was dropped."}, {"reason", "string", "Why."}}},
  };
}

ResultSchema TfResultSchema(const std::vector<ResultType>& extension_types,
                            const std::string& extension_export_info) {
  ResultSchema schema;
  schema.summary = "TensorflowSummary";
  schema.export_info = "TensorflowExportInfo";
  ResultType summary{"TensorflowSummary", "What inspect() tells of a TensorFlow model."};
  summary.fields = SummaryHeader("tensorflow", "TensorFlow",
                                 Literals({"graph-def", "meta-graph", "saved-model"}),
                                 Literals({"binary", "text"}));
  summary.extends = {kTfGraphSummaryType};
  schema.Add(summary);
  std::string info = "TensorflowFormatExportInfo";
  if (!extension_export_info.empty()) info += " | " + extension_export_info;
  schema.Add({"TensorflowExportInfo", "What an export of a TensorFlow model wrote.", {}, info});
  schema.Add(TfExportResultTypes());
  schema.Add(TfSharedResultTypes());
  schema.Add(extension_types);
  schema.preview = "TensorflowExportPreview";
  schema.Add(PreviewResultTypes(
      "Tensorflow",
      {{"signaturesDropped", "number",
        "exportScope: signatures dropped (they name tensors outside)."},
       {"saverDropped", "boolean", "exportScope: the saver dropped."},
       {"signature", "string", "freeze: the signature frozen."},
       {"variables", "number", "freeze: variables made Consts."},
       {"nodesPruned", "number", "freeze: nodes the signature's outputs do not need."},
       {"inlinedCalls", "number", "freeze: function calls inlined."},
       {"readsMadeIdentity", "number", "freeze: variable reads made Identity nodes."},
       {"gathersRewritten", "number", "freeze: ResourceGathers made GatherV2 of a Const."},
       {"optimized", "boolean", "freeze: tfjs-converter's optimizations ran too."}}));
  return schema;
}

}  // namespace graphport::tf

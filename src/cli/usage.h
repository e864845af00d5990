// The --help text. The Node CLI (bindings/js/cli.mjs) prints the same text from its build.
#ifndef GRAPHPORT_CLI_USAGE_H_
#define GRAPHPORT_CLI_USAGE_H_

namespace graphport::cli {

inline constexpr const char kUsage[] = R"(graphport: export TensorFlow graphs, with no server

usage:
  graphport inspect FILE [--json] [--from FORMAT] [--tags T1,T2]
  graphport export FILE -o OUT [options]
  graphport --help

commands:
  inspect   print a summary of the graph: format, producer, nodes, op histogram,
            constants, collections, signatures, functions, tags (--json: as JSON)
  export    write the graph to OUT, as tf.train.export_meta_graph does; more outputs
            (the debug info) go beside it

input options:
  --from FORMAT   input format instead of detecting it: graph-def, meta-graph or
                  saved-model, optionally with -text or -binary (default: auto)
  --tags T1,T2    the tag set of the SavedModel MetaGraphDef to use (default: serve)

export options (the export_meta_graph argument each one sets is in brackets):
  -o, --output OUT           the output file [filename]
  --to KIND                  meta-graph (default), graph-def or saved-model
  --as-text                  protobuf text format instead of binary [as_text]
  --export-scope S           export only the subgraph under name scope S, with names
                             stripped of it [export_scope]
  --clear-devices            empty the device of every node [clear_devices]
  --clear-extraneous-savers  drop save/restore ops of other savers
                             [clear_extraneous_savers]
  --strip-default-attrs      drop attrs whose value is the op's default
                             [strip_default_attrs]
  --op-registry FILE         an OpList (text, binary or JSON, e.g. TensorFlow's
                             ops.pbtxt) to take op definitions from first
  --collection-list A,B      export only these collections; "" for none
                             [collection_list]
  --save-debug-info          also write the GraphDebugInfo of the exported nodes,
                             as OUT with _debug before the extension [save_debug_info]
  --meta-info-def FILE       a MetaInfoDef (JSON, text or binary) merged into the
                             exported one [meta_info_def]
  --saver-def FILE           the SaverDef to export (JSON, text or binary) [saver_def]
  --graph-def FILE           export this GraphDef instead of the loaded graph [graph_def]
  --json                     inspect: the summary as JSON; export: the info record

Errors go to stderr as "graphport: error CODE: message", with a non-zero exit.
)";

}  // namespace graphport::cli

#endif  // GRAPHPORT_CLI_USAGE_H_

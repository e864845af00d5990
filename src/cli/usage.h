// The --help text. The Node CLI (bindings/js/cli.mjs) prints the same text from its build.
#ifndef GRAPHPORT_CLI_USAGE_H_
#define GRAPHPORT_CLI_USAGE_H_

namespace graphport::cli {

inline constexpr const char kUsage[] = R"(graphport: export TensorFlow graphs, with no server

usage:
  graphport inspect FILE [--json] [--from FORMAT] [--tags T1,T2]
  graphport export FILE -o OUT [--to KIND] [--as-text] [--from FORMAT] [--tags T1,T2] [--json]
  graphport --help

commands:
  inspect   print a summary of the graph: format, producer, nodes, op histogram,
            constants, collections, signatures, functions, tags (--json: as JSON)
  export    write the graph to OUT; more outputs, if any, go beside it

options:
  --from FORMAT   input format instead of detecting it: graph-def, meta-graph or
                  saved-model, optionally with -text or -binary (default: auto)
  --tags T1,T2    the tag set of the SavedModel MetaGraphDef to use (default: serve)
  --to KIND       what to write: meta-graph (default), graph-def or saved-model
  --as-text       write protobuf text format (export_meta_graph's as_text); binary
                  otherwise
  -o, --output OUT  the output file (export_meta_graph's filename)
  --json          inspect: print the summary as JSON; export: print the info record

Errors go to stderr as "graphport: error CODE: message", with a non-zero exit.
)";

}  // namespace graphport::cli

#endif  // GRAPHPORT_CLI_USAGE_H_

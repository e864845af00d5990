// Writes a TensorFlow.js graph model (model.json and its weight shards) for the benchmarks,
// by converting a GraphDef with graphport's own TF.js writer.
//
//   graphport_make_tfjs GRAPH.pb OUT_DIR
//
// bench/run.sh gives it the weights-heavy GraphDef (bench/out/weights.pb): about 200 MB of
// float32 weights in 4 MiB shards, tfjs-converter's default. The output is the same for the
// same input; files are renamed into place only once all of them are whole.
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <string>

#include "api/model.h"
#include "cli/file_io.h"
#include "core/error.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: graphport_make_tfjs GRAPH.pb OUT_DIR\n");
    return 2;
  }
  try {
    graphport::cli::FileSource source(argv[1]);
    graphport::LoadOptions options;
    options.name = argv[1];
    auto model = graphport::Model::Load(&source, options);
    if (::mkdir(argv[2], 0755) != 0 && errno != EEXIST) {
      std::perror(argv[2]);
      return 1;
    }
    graphport::cli::DirectoryOutputSet out(argv[2]);
    model->ExportJson(R"({"to":"tfjs"})", &out);
    size_t files = out.Commit().size();
    std::fprintf(stderr, "%s: %zu files\n", argv[2], files);
    return 0;
  } catch (const graphport::Error& e) {
    std::fprintf(stderr, "graphport_make_tfjs: %s\n", e.what());
    return 1;
  }
}

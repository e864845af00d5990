// The TensorFlow export path with its options. The input is loaded with format "auto"; a hash
// of it picks the options of a few exports (each export_meta_graph option, a scope taken from a
// node's name), and every output must load back as what it is.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/targets/fuzz_targets.h"
#include "harness/exercise.h"

namespace graphport::fuzz {
namespace {

uint64_t Fnv1a(std::string_view bytes) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : bytes) h = (h ^ c) * 1099511628211ull;
  return h;
}

}  // namespace

std::string TfExport(std::string_view bytes) {
  std::unique_ptr<tf::TfModel> model;
  try {
    MemorySource source(bytes);
    model = tf::TfModel::Load(&source, {});
  } catch (const Error& e) {
    if (e.code() == ErrorCode::kInternal) return std::string("INTERNAL on load: ") + e.what();
    return "";
  }
  uint64_t bits = Fnv1a(bytes);
  for (int round = 0; round < 4; ++round, bits = bits * 6364136223846793005ull + 1) {
    tf::TfExportOptions options;
    options.to = static_cast<tf::TfKind>((bits >> 1) % 3);
    options.as_text = bits & 1;
    options.clear_devices = bits & 8;
    options.clear_extraneous_savers = bits & 16;
    options.strip_default_attrs = bits & 32;
    options.save_debug_info = bits & 64;
    if (bits & 128) options.collection_list = std::vector<std::string>();
    const tensorflow::GraphDef& graph = model->graph();
    if ((bits & 256) && graph.node_size() > 0) {
      // A real scope of the graph (the first name's first component), or all of a name.
      const std::string& name =
          graph.node(static_cast<int>((bits >> 10) % graph.node_size())).name();
      options.export_scope = (bits & 512) ? name : name.substr(0, name.find('/'));
    }
    MemoryOutputSet out;
    try {
      nlohmann::json info = tf::Export(model.get(), options, &out);
      (void)info.dump();
    } catch (const Error& e) {
      if (e.code() == ErrorCode::kInternal) return std::string("INTERNAL on export: ") + e.what();
      continue;
    } catch (const std::exception& e) {
      return std::string("export threw a non-graphport exception: ") + e.what();
    }
    // The main output (a debug info file beside it is not a graph).
    const MemoryOutputSet::File& file = out.files().at(0);
    std::string format =
        std::string(tf::KindName(options.to)) + (options.as_text ? "-text" : "-binary");
    harness::Outcome again = harness::Exercise(file.bytes, /*check_exports=*/false, format);
    if (!again.failure.empty()) return file.name + " reloads with a failure: " + again.failure;
    if (again.result != "ok" && !(file.bytes.empty() && again.result == "EMPTY_INPUT")) {
      return file.name + " does not load back: " + again.result;
    }
  }
  return "";
}

}  // namespace graphport::fuzz

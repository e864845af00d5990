// Prints graphport's pass graph after each optimize_for_inference pass, in the format of the
// reference driver's --trace-passes (scripts/megengine-reference/network_dump.cpp): per
// operator reachable from the outputs, in the dumper's order, its id, class and name, its
// input var ids, and per output its id, shown name (* when set) and static shape. A
// development tool, not a test: diff its output with the reference's to find the first pass
// whose ids, names or shapes differ.
//
//   graphport_mge_trace_passes FILE [--kwarg NAME]...
//
// --kwarg takes the names the reference driver takes (enable_nchw44, enable_io16xc32, ...).
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "mge/dump/compat_rewrite.h"
#include "mge/optimize/opr_name.h"
#include "mge/optimize/optimize_for_inference.h"
#include "mge/read.h"

namespace {

namespace opt = graphport::mge::opt;

bool ApplyKwarg(const std::string& name, opt::OptimizeOptions* o) {
  if (name == "enable_nchw44") {
    o->layout = opt::Layout::kNchw44;
  } else if (name == "enable_nchw88") {
    o->layout = opt::Layout::kNchw88;
  } else if (name == "enable_io16xc32") {
    o->f16_io_f32_comp = true;
  } else if (name == "enable_ioc16") {
    o->f16_io_comp = true;
  } else if (name == "enable_fuse_conv_bias_nonlinearity") {
    o->fuse_conv_bias_nonlinearity = true;
  } else if (name == "enable_fuse_conv_bias_with_z") {
    o->fuse_conv_bias_with_z = true;
  } else if (name == "enable_fuse_preprocess") {
    o->fuse_preprocess = true;
  } else if (name == "no_fuse_grain") {
    o->fuse_grain = false;
  } else {
    return false;
  }
  return true;
}

void Trace(const opt::PassReport& report, const opt::OptGraph& g) {
  std::printf("# %s%s\n", report.pass.c_str(), report.changed ? " (changed)" : "");
  for (uint32_t node : g.TopoOrder()) {
    const opt::OptNode& n = g.node(node);
    std::printf("%llu %s \"%s\" in", static_cast<unsigned long long>(n.id),
                std::string(g.Key(node)).c_str(), n.op().name.value_or("").c_str());
    for (const opt::VarRef& in : n.inputs) {
      std::printf(" %llu", static_cast<unsigned long long>(g.var(in).id));
    }
    std::printf(" out");
    for (uint32_t k = 0; k < n.outputs.size(); ++k) {
      const opt::VarRef v{node, k};
      std::printf(" %llu \"%s\"%s [", static_cast<unsigned long long>(g.var(v).id),
                  opt::VarName(g, v).c_str(), opt::HasNameSet(g, v) ? "*" : "");
      if (const opt::VarShape& s = g.var(v).shape) {
        for (size_t i = 0; i < s->size(); ++i) std::printf("%s%u", i ? "," : "", (*s)[i]);
      }
      std::printf("]");
    }
    std::printf("\n");
  }
  for (const opt::VarRef& v : g.endpoints()) {
    std::printf("endpoint %llu\n", static_cast<unsigned long long>(g.var(v).id));
  }
  std::printf("next_id %llu\n", static_cast<unsigned long long>(g.next_id()));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: graphport_mge_trace_passes FILE [--kwarg NAME]...\n");
    return 2;
  }
  opt::OptimizeOptions options;
  for (int i = 2; i < argc; ++i) {
    if (std::strcmp(argv[i], "--kwarg") != 0 || i + 1 >= argc || !ApplyKwarg(argv[++i], &options)) {
      std::fprintf(stderr, "unknown argument %s\n", argv[i]);
      return 2;
    }
  }
  std::ifstream in(argv[1], std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  const std::string bytes = buffer.str();
  std::unique_ptr<graphport::mge::MgeFile> file = graphport::mge::ReadMgeFile(bytes, argv[1]);
  graphport::mge::RewrittenGraph out;
  opt::OptimizeForInference(file->graphs[0], options, &out, Trace);
  return 0;
}

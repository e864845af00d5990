// Native benchmark of graphport's load and export on one GraphDef file, beside its anchor
// (plain libprotobuf parsing and serialising the same GraphDef). A benchmark, not a test: it
// prints figures and ratios measured in this one run, and asserts nothing about time.
//
//   graphport_bench FILE [--repeat N] [--text | --no-text] [--scope S] [--label NAME]
//                   [--json OUT]
//
// Measures, for the file's bytes already in memory:
//   memcpy            the bytes into a pre-faulted buffer (best of N): the floor; and into a
//                     new buffer each time (page faults included)
//   libprotobuf       GraphDef::ParseFromArray (heap, and on an Arena) and SerializeToString
//                     of the same bytes: the anchor, what a plain C++ program does
//   load              Model::Load from a MemorySource (contiguous: parsed in place)
//   load (stream)     Model::Load from a source that hides its contiguity, so the bytes go
//                     through graphport's 1 MiB chunk path, as they do in WebAssembly
//   inspect           Model::InspectJson of a loaded model
//   export            binary graph-def into a sink that only counts bytes (no copy)
//   export options    the same with clearDevices, stripDefaultAttrs and (--scope) exportScope
//   export text       the same as protobuf text format (by default only below 100 MiB)
//   load+export       end to end, from memory: with clearDevices to the counting sink (issue 10's
//                     target), with the options to it, and plain to bytes in memory
// and the memory: the resident set a loaded model holds, and the peak during load and export,
// each relative to the model (file) size. Peaks come from VmHWM, reset before each step
// through /proc/self/clear_refs where the kernel allows it; memory is measured on the first
// (cold) load and export, before the timing loops reuse freed memory.
#include <google/protobuf/arena.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "api/model.h"
#include "bench/bench_util.h"
#include "core/byte_stream.h"
#include "core/error.h"
#include "core/output_set.h"
#include "tensorflow/graph.pb.h"

namespace {

using graphport::ByteSource;
using graphport::LoadOptions;
using graphport::MemoryOutputSet;
using graphport::MemorySource;
using graphport::Model;
using namespace graphport::bench;  // NOLINT: the benchmark's own helpers

// A MemorySource that does not say it is contiguous: the reader streams it in chunks.
class StreamedSource : public ByteSource {
 public:
  explicit StreamedSource(std::string_view bytes) : inner_(bytes) {}
  size_t Read(uint8_t* dst, size_t max) override { return inner_.Read(dst, max); }
  bool SizeHint(uint64_t* size) const override { return inner_.SizeHint(size); }
  bool Rewind() override { return inner_.Rewind(); }

 private:
  MemorySource inner_;
};

bool g_peak_resettable = false;
void ResetPeakNow() { g_peak_resettable = ResetPeak(); }

std::unique_ptr<Model> LoadFrom(ByteSource* source) {
  LoadOptions options;
  options.name = "bench";
  return Model::Load(source, options);
}

uint64_t ExportTo(Model* model, const std::string& options) {
  CountingOutputSet out;
  model->ExportJson(options, &out);
  return out.bytes();
}

// The anchor: plain libprotobuf on the same bytes.
struct Anchor {
  double parse_ms = 0;
  double arena_parse_ms = 0;
  double serialize_ms = 0;
  int64_t peak_bytes = 0;  // parse + serialize, above the resident set before
  bool same_bytes = false;
};

Anchor MeasureAnchor(const std::string& file, int repeat) {
  Anchor a;
  const int size = static_cast<int>(std::min<size_t>(file.size(), INT32_MAX));
  {
    ResetPeakNow();
    int64_t before = Rss();
    auto graph = std::make_unique<tensorflow::GraphDef>();
    if (!graph->ParseFromArray(file.data(), size)) {
      std::fprintf(stderr, "graphport_bench: libprotobuf cannot parse the file\n");
      std::exit(1);
    }
    std::string out;
    graph->SerializeToString(&out);
    a.peak_bytes = Peak() - before;
    a.same_bytes = out == file;
  }
  a.parse_ms = BestOf(repeat, [&] {
    tensorflow::GraphDef graph;
    graph.ParseFromArray(file.data(), size);
  });
  a.arena_parse_ms = BestOf(repeat, [&] {
    google::protobuf::Arena arena;
    auto* graph = google::protobuf::Arena::CreateMessage<tensorflow::GraphDef>(&arena);
    graph->ParseFromArray(file.data(), size);
  });
  tensorflow::GraphDef graph;
  graph.ParseFromArray(file.data(), size);
  // Into the same string each time, as the WebAssembly anchor does: the serializer's own
  // cost, not the page faults of a fresh 200 MiB buffer (memcpy's "into a new buffer" has those).
  std::string out;
  a.serialize_ms = BestOf(repeat, [&] {
    out.clear();
    graph.SerializeToString(&out);
  });
  return a;
}

void Row(const char* what, double ms, double bytes, double memcpy_ms) {
  std::printf("  %-24s %10.2f ms %10.1f MB/s %9.1fx memcpy\n", what, ms, bytes / 1e6 / (ms / 1e3),
              ms / memcpy_ms);
}

int Usage() {
  std::fprintf(stderr,
               "usage: graphport_bench FILE [--repeat N] [--text|--no-text] [--scope S] "
               "[--label NAME] [--json OUT]\n");
  return 2;
}

int Run(int argc, char** argv) {
  const char* path = nullptr;
  int repeat = 3;
  int text = -1;  // -1: only for files under 100 MiB
  std::string label;
  std::string json_path;
  std::string scope;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--repeat" && i + 1 < argc) {
      repeat = std::max(1, std::atoi(argv[++i]));
    } else if (a == "--text") {
      text = 1;
    } else if (a == "--no-text") {
      text = 0;
    } else if (a == "--scope" && i + 1 < argc) {
      scope = argv[++i];
    } else if (a == "--label" && i + 1 < argc) {
      label = argv[++i];
    } else if (a == "--json" && i + 1 < argc) {
      json_path = argv[++i];
    } else if (!a.empty() && a[0] != '-' && path == nullptr) {
      path = argv[i];
    } else {
      return Usage();
    }
  }
  if (path == nullptr) return Usage();
  if (label.empty()) label = path;

  nlohmann::json options_json = {
      {"to", "graph-def"}, {"clearDevices", true}, {"stripDefaultAttrs", true}};
  if (!scope.empty()) options_json["exportScope"] = scope;
  const std::string binary = R"({"to":"graph-def"})";
  // The end-to-end case issue 10 sets its target on.
  const std::string clear_devices = R"({"to":"graph-def","clearDevices":true})";
  const std::string with_options = options_json.dump();
  const std::string as_text = R"({"to":"graph-def","asText":true})";

  int64_t rss_start = Rss();
  const std::string file = ReadWholeFile(path);
  const double size = static_cast<double>(file.size());
  if (text < 0) text = file.size() < (size_t{100} << 20);
  nlohmann::json result = {{"impl", "native"}, {"graph", label}, {"bytes", file.size()}};

  const int floor_repeat = std::max(repeat, 5);
  MemcpyFloor floor = MeasureMemcpy(file.data(), file.size(), floor_repeat);
  const double memcpy_ms = floor.warm_ms;

  // Cold load and export: memory figures.
  ResetPeakNow();
  int64_t rss_before_load = Rss();
  std::unique_ptr<Model> model;
  MemorySource first_source(file);
  double first_load_ms = TimeOnce([&] { model = LoadFrom(&first_source); });
  int64_t load_peak = Peak();
  int64_t rss_model = Rss();
  std::string summary_text;
  double inspect_ms = TimeOnce([&] { summary_text = model->InspectJson(); });
  nlohmann::json summary = nlohmann::json::parse(summary_text);
  int64_t nodes = summary.value("nodeCount", int64_t{-1});

  ResetPeakNow();
  int64_t rss_before_export = Rss();
  uint64_t exported = 0;
  double first_export_ms = TimeOnce([&] { exported = ExportTo(model.get(), binary); });
  int64_t export_peak = Peak();

  // Text before the export with options: that one parses the nodes (scope, default attrs)
  // and the model keeps them parsed, so a text export after it would not print from bytes.
  double text_ms = 0;
  uint64_t text_bytes = 0;
  int64_t text_peak = 0;
  if (text) {
    ResetPeakNow();
    text_ms = TimeOnce([&] { text_bytes = ExportTo(model.get(), as_text); });
    text_peak = Peak();
  }

  ResetPeakNow();
  uint64_t options_bytes = 0;
  double first_options_ms = TimeOnce([&] { options_bytes = ExportTo(model.get(), with_options); });
  int64_t options_peak = Peak();

  // Timing loops (warm allocator).
  if (inspect_ms < 3000) {
    inspect_ms = std::min(inspect_ms, BestOf(repeat, [&] { model->InspectJson(); }));
  }
  double export_ms =
      std::min(first_export_ms, BestOf(repeat, [&] { ExportTo(model.get(), binary); }));
  double options_ms =
      std::min(first_options_ms, BestOf(repeat, [&] { ExportTo(model.get(), with_options); }));
  model.reset();
  double load_ms = std::min(first_load_ms, BestOf(repeat, [&] {
                              MemorySource source(file);
                              LoadFrom(&source);
                            }));
  double load_stream_ms = BestOf(repeat, [&] {
    StreamedSource source(file);
    LoadFrom(&source);
  });
  double e2e_ms = BestOf(repeat, [&] {
    MemorySource source(file);
    std::unique_ptr<Model> m = LoadFrom(&source);
    ExportTo(m.get(), clear_devices);
  });
  double e2e_options_ms = BestOf(repeat, [&] {
    MemorySource source(file);
    std::unique_ptr<Model> m = LoadFrom(&source);
    ExportTo(m.get(), with_options);
  });
  double e2e_bytes_ms = BestOf(repeat, [&] {
    MemorySource source(file);
    std::unique_ptr<Model> m = LoadFrom(&source);
    MemoryOutputSet out;
    m->ExportJson(binary, &out);
  });
  // The destructor of the model is part of the loops above; its cost on its own:
  std::unique_ptr<Model> to_free;
  {
    MemorySource source(file);
    to_free = LoadFrom(&source);
  }
  double free_ms = TimeOnce([&] { to_free.reset(); });
  // Last: the memory libprotobuf frees stays with the allocator and would hide graphport's
  // from the resident set.
  Anchor anchor = MeasureAnchor(file, repeat);

  std::printf("native: %s: %.1f MiB, %lld nodes (peak resets %s)\n", label.c_str(), size / kMiB,
              static_cast<long long>(nodes), g_peak_resettable ? "on" : "unavailable");
  std::printf("  %-24s %10.2f ms %10.1f MB/s (best of %d)\n", "memcpy", memcpy_ms,
              size / 1e6 / (memcpy_ms / 1e3), floor_repeat);
  Row("  into a new buffer", floor.fresh_ms, size, memcpy_ms);
  Row("libprotobuf parse", anchor.parse_ms, size, memcpy_ms);
  Row("  parse on an arena", anchor.arena_parse_ms, size, memcpy_ms);
  Row("libprotobuf serialize", anchor.serialize_ms, size, memcpy_ms);
  Row("libprotobuf parse+ser.", anchor.parse_ms + anchor.serialize_ms, size, memcpy_ms);
  Row("load (memory)", load_ms, size, memcpy_ms);
  Row("  first load (cold)", first_load_ms, size, memcpy_ms);
  Row("load (1 MiB stream)", load_stream_ms, size, memcpy_ms);
  std::printf("  %-24s %10.2f ms\n", "inspect", inspect_ms);
  Row("export graph-def", export_ms, size, memcpy_ms);
  Row("  first export (cold)", first_export_ms, size, memcpy_ms);
  Row("export with options", options_ms, size, memcpy_ms);
  if (text) {
    std::printf("  %-24s %10.2f ms %10.1f MB/s %9.1fx memcpy  (%.1f MiB of text)\n", "export text",
                text_ms, text_bytes / 1e6 / (text_ms / 1e3), text_ms / memcpy_ms,
                text_bytes / kMiB);
  }
  Row("load+export cd -> sink", e2e_ms, size, memcpy_ms);
  Row("load+export opts -> sink", e2e_options_ms, size, memcpy_ms);
  Row("load+export -> bytes", e2e_bytes_ms, size, memcpy_ms);
  std::printf("  %-24s %10.2f ms\n", "free model", free_ms);
  std::printf(
      "  export bytes %s input bytes (%llu vs %zu); libprotobuf's %s (its default serializer "
      "does not sort maps)\n",
      exported == file.size() ? "==" : "!=", static_cast<unsigned long long>(exported), file.size(),
      anchor.same_bytes ? "==" : "!=");
  double held = static_cast<double>(rss_model - rss_before_load);
  double load_extra = static_cast<double>(load_peak - rss_before_load);
  double export_extra = static_cast<double>(export_peak - rss_before_export);
  double options_extra = static_cast<double>(options_peak - rss_before_export);
  std::printf("  memory (model = file size %.1f MiB; the file's own bytes are not counted):\n",
              size / kMiB);
  std::printf("    libprotobuf parse+ser. %8.1f MiB = %.2fx model\n", anchor.peak_bytes / kMiB,
              anchor.peak_bytes / size);
  std::printf("    loaded model holds    %8.1f MiB = %.2fx model\n", held / kMiB, held / size);
  std::printf("    peak during load      %8.1f MiB = %.2fx model\n", load_extra / kMiB,
              load_extra / size);
  std::printf("    peak during export    %8.1f MiB above the loaded model = %.3fx model\n",
              export_extra / kMiB, export_extra / size);
  std::printf("    peak, export options  %8.1f MiB above the loaded model = %.3fx model\n",
              options_extra / kMiB, options_extra / size);
  if (text) {
    double text_extra = static_cast<double>(text_peak - rss_before_export);
    std::printf("    peak during text      %8.1f MiB above the loaded model = %.3fx model\n",
                text_extra / kMiB, text_extra / size);
  }
  std::printf("    process peak RSS      %8.1f MiB (start %.1f MiB, + file %.1f MiB)\n",
              std::max({load_peak, export_peak, options_peak, text_peak}) / kMiB, rss_start / kMiB,
              size / kMiB);

  result["nodes"] = nodes;
  result["memcpy_ms"] = memcpy_ms;
  result["fresh_memcpy_ms"] = floor.fresh_ms;
  result["anchor"] = {{"parse_ms", anchor.parse_ms},
                      {"arena_parse_ms", anchor.arena_parse_ms},
                      {"serialize_ms", anchor.serialize_ms},
                      {"peak_bytes", anchor.peak_bytes},
                      {"same_bytes", anchor.same_bytes}};
  result["load_ms"] = load_ms;
  result["first_load_ms"] = first_load_ms;
  result["first_export_ms"] = first_export_ms;
  result["load_stream_ms"] = load_stream_ms;
  result["inspect_ms"] = inspect_ms;
  result["export_ms"] = export_ms;
  result["export_options"] = with_options;
  result["export_options_ms"] = options_ms;
  result["export_options_bytes"] = options_bytes;
  result["e2e_ms"] = e2e_ms;
  result["e2e_options_ms"] = e2e_options_ms;
  result["e2e_bytes_ms"] = e2e_bytes_ms;
  result["free_ms"] = free_ms;
  result["export_bytes"] = exported;
  if (text) {
    result["text_ms"] = text_ms;
    result["text_bytes"] = text_bytes;
    result["text_peak_bytes"] = text_peak - rss_before_export;
  }
  result["model_held_bytes"] = rss_model - rss_before_load;
  result["load_peak_bytes"] = load_peak - rss_before_load;
  result["export_peak_bytes"] = export_peak - rss_before_export;
  result["export_options_peak_bytes"] = options_peak - rss_before_export;
  result["peak_resettable"] = g_peak_resettable;
  if (!json_path.empty()) {
    std::ofstream(json_path) << result.dump(2) << "\n";
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return Run(argc, argv);
  } catch (const graphport::Error& e) {
    std::fprintf(stderr, "graphport_bench: %s\n", e.what());
    return 1;
  }
}

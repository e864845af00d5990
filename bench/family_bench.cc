// Native benchmark of one model of any family (a MegEngine file, a TF.js model.json with its
// shards in a folder): load, inspect and each export given, timed against a memcpy of all
// the model's bytes, with the memory each step needs. A benchmark, not a test.
//
//   graphport_family_bench PATH [--export NAME=OPTIONS_JSON]... [--repeat N] [--label L]
//                          [--json OUT]
//
// PATH is a file, or a folder whose files (all of them, subfolders included: a SavedModel's
// variables/) are the model's inputs.
// Every file is read into memory first; the model loads from a MemoryInputSet over those
// bytes, and each export writes into a sink that only counts bytes. "load → export" is the
// first --export end to end.
#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "api/model.h"
#include "bench/bench_util.h"
#include "core/error.h"
#include "core/input_set.h"

namespace {

using graphport::MemoryInputSet;
using graphport::Model;
using namespace graphport::bench;  // NOLINT: the benchmark's own helpers

// The files of `dir` and its subfolders (a SavedModel's variables/) under their relative
// names, in memory.
void ReadFolder(const std::string& dir, const std::string& relative,
                std::map<std::string, std::string>* files) {
  DIR* handle = opendir(dir.c_str());
  if (handle == nullptr) return;
  while (dirent* entry = readdir(handle)) {
    std::string name = entry->d_name;
    if (name.empty() || name[0] == '.') continue;
    std::string full = dir + "/" + name;
    struct stat st {};
    if (stat(full.c_str(), &st) != 0) continue;
    if (S_ISREG(st.st_mode)) (*files)[relative + name] = ReadWholeFile(full);
    if (S_ISDIR(st.st_mode)) ReadFolder(full, relative + name + "/", files);
  }
  closedir(handle);
}

// The model's files by name, in memory.
std::map<std::string, std::string> ReadModelFiles(const std::string& path) {
  std::map<std::string, std::string> files;
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) {
    std::perror(path.c_str());
    std::exit(1);
  }
  if (!S_ISDIR(st.st_mode)) {
    std::string name = path.substr(path.find_last_of('/') + 1);
    files[name] = ReadWholeFile(path);
    return files;
  }
  ReadFolder(path, "", &files);
  return files;
}

std::unique_ptr<Model> LoadFrom(const std::map<std::string, std::string>& files,
                                const std::string& label) {
  auto inputs = std::make_unique<MemoryInputSet>(label);
  for (const auto& [name, bytes] : files) inputs->Add(name, bytes);
  return Model::Load(std::move(inputs), nlohmann::json{{"name", label}});
}

// Operators or nodes, whichever the family's summary counts.
int64_t CountNodes(const nlohmann::json& summary) {
  if (summary.contains("nodeCount")) return summary["nodeCount"].get<int64_t>();
  for (const auto& pair : summary.value("counts", nlohmann::json::array())) {
    if (pair.size() == 2 && pair[0] == "operators") return pair[1].get<int64_t>();
  }
  return -1;
}

struct ExportCase {
  std::string name;
  std::string options;
  double ms = 0;
  double cpu_ms = 0;  // the least CPU time of --repeat more runs
  int64_t peak_bytes = 0;
  uint64_t bytes = 0;
  int files = 0;
};

int Usage() {
  std::fprintf(stderr,
               "usage: graphport_family_bench PATH [--export NAME=OPTIONS_JSON]... [--repeat N] "
               "[--label L] [--json OUT]\n");
  return 2;
}

int Run(int argc, char** argv) {
  std::string path;
  std::string label;
  std::string json_path;
  int repeat = 3;
  std::vector<ExportCase> exports;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--repeat" && i + 1 < argc) {
      repeat = std::max(1, std::atoi(argv[++i]));
    } else if (a == "--label" && i + 1 < argc) {
      label = argv[++i];
    } else if (a == "--json" && i + 1 < argc) {
      json_path = argv[++i];
    } else if (a == "--export" && i + 1 < argc) {
      std::string spec = argv[++i];
      size_t eq = spec.find('=');
      if (eq == std::string::npos) return Usage();
      exports.push_back({spec.substr(0, eq), spec.substr(eq + 1)});
    } else if (!a.empty() && a[0] != '-' && path.empty()) {
      path = a;
    } else {
      return Usage();
    }
  }
  if (path.empty()) return Usage();
  if (label.empty()) label = path;

  const auto files = ReadModelFiles(path);
  uint64_t total = 0;
  std::string concatenated;  // the floor: a memcpy of every byte of the model at once
  for (const auto& [name, bytes] : files) total += bytes.size();
  concatenated.reserve(total);
  for (const auto& [name, bytes] : files) concatenated += bytes;
  const double size = static_cast<double>(total);
  const int floor_repeat = std::max(repeat, 5);
  MemcpyFloor floor = MeasureMemcpy(concatenated.data(), concatenated.size(), floor_repeat);
  std::string().swap(concatenated);

  // Cold load, inspect and exports: the memory figures.
  bool resettable = ResetPeak();
  int64_t rss_before_load = Rss();
  std::unique_ptr<Model> model;
  double load_ms = TimeOnce([&] { model = LoadFrom(files, label); });
  int64_t load_peak = Peak() - rss_before_load;
  int64_t held = Rss() - rss_before_load;
  std::string summary_text;
  ResetPeak();
  int64_t before_inspect = Rss();
  double inspect_ms = TimeOnce([&] { summary_text = model->InspectJson(); });
  // What inspect needs besides the JSON it returns.
  int64_t inspect_peak = Peak() - before_inspect - static_cast<int64_t>(summary_text.size());
  nlohmann::json summary = nlohmann::json::parse(summary_text);
  const std::string family = model->family().id();
  for (ExportCase& e : exports) {
    ResetPeak();
    int64_t before = Rss();
    CountingOutputSet out;
    e.ms = TimeOnce([&] { model->ExportJson(e.options, &out); });
    e.peak_bytes = Peak() - before;
    e.bytes = out.bytes();
    e.files = out.files();
  }

  // Timing loops.
  if (inspect_ms < 3000) {
    inspect_ms = std::min(inspect_ms, BestOf(repeat, [&] { model->InspectJson(); }));
  }
  for (ExportCase& e : exports) {
    e.ms = std::min(e.ms, BestOf(repeat, [&] {
                      CountingOutputSet out;
                      model->ExportJson(e.options, &out);
                    }));
    e.cpu_ms = BestCpuTimeOf(repeat, [&] {
      CountingOutputSet out;
      model->ExportJson(e.options, &out);
    });
  }
  model.reset();
  load_ms = std::min(load_ms, BestOf(repeat, [&] { LoadFrom(files, label); }));
  double e2e_ms = 0;
  double e2e_cpu_ms = 0;
  if (!exports.empty()) {
    auto e2e = [&] {
      std::unique_ptr<Model> m = LoadFrom(files, label);
      CountingOutputSet out;
      m->ExportJson(exports[0].options, &out);
    };
    e2e_ms = BestOf(repeat, e2e);
    e2e_cpu_ms = BestCpuTimeOf(repeat, e2e);
  }

  const double memcpy_ms = floor.warm_ms;
  auto row = [&](const std::string& what, double ms) {
    std::printf("  %-28s %10.2f ms %10.1f MB/s %9.1fx memcpy\n", what.c_str(), ms,
                size / 1e6 / (ms / 1e3), ms / memcpy_ms);
  };
  std::printf("native: %s (%s): %.1f MiB in %zu files, %lld operators/nodes\n", label.c_str(),
              family.c_str(), size / kMiB, files.size(),
              static_cast<long long>(CountNodes(summary)));
  std::printf("  %-28s %10.2f ms %10.1f MB/s (best of %d)\n", "memcpy", memcpy_ms,
              size / 1e6 / (memcpy_ms / 1e3), floor_repeat);
  row("  into a new buffer", floor.fresh_ms);
  row("load (memory)", load_ms);
  std::printf("  %-28s %10.2f ms\n", "inspect", inspect_ms);
  for (const ExportCase& e : exports) {
    std::printf("  %-28s %10.2f ms %10.1f MB/s %9.1fx memcpy  (%d files, %.1f MiB; cpu %.1f ms)\n",
                ("export " + e.name).c_str(), e.ms, size / 1e6 / (e.ms / 1e3), e.ms / memcpy_ms,
                e.files, e.bytes / kMiB, e.cpu_ms);
  }
  if (!exports.empty()) {
    row("load+export " + exports[0].name, e2e_ms);
    std::printf("  %-28s %10.2f ms of CPU (best of %d)\n", "  (CPU time)", e2e_cpu_ms, repeat);
  }
  std::printf("  memory (model = its files, %.1f MiB; their own bytes are not counted)%s:\n",
              size / kMiB, resettable ? "" : " (peaks are process-wide: no VmHWM reset)");
  std::printf("    loaded model holds        %8.1f MiB = %.2fx model\n", held / kMiB, held / size);
  std::printf("    peak during load          %8.1f MiB = %.2fx model\n", load_peak / kMiB,
              load_peak / size);
  std::printf(
      "    peak during inspect       %8.1f MiB above the loaded model and the %.1f MiB "
      "of JSON = %.3fx model\n",
      inspect_peak / kMiB, summary_text.size() / kMiB, inspect_peak / size);
  for (const ExportCase& e : exports) {
    std::printf("    peak during export %-7s %7.1f MiB above the loaded model = %.3fx model\n",
                e.name.c_str(), e.peak_bytes / kMiB, e.peak_bytes / size);
  }

  if (!json_path.empty()) {
    nlohmann::json result = {{"impl", "native"},
                             {"graph", label},
                             {"family", family},
                             {"bytes", total},
                             {"files", files.size()},
                             {"nodes", CountNodes(summary)},
                             {"memcpy_ms", memcpy_ms},
                             {"fresh_memcpy_ms", floor.fresh_ms},
                             {"load_ms", load_ms},
                             {"inspect_ms", inspect_ms},
                             {"inspect_peak_bytes", inspect_peak},
                             {"inspect_json_bytes", summary_text.size()},
                             {"e2e_ms", e2e_ms},
                             {"e2e_cpu_ms", e2e_cpu_ms},
                             {"model_held_bytes", held},
                             {"load_peak_bytes", load_peak},
                             {"peak_resettable", resettable}};
    nlohmann::json list = nlohmann::json::array();
    for (const ExportCase& e : exports) {
      list.push_back({{"name", e.name},
                      {"options", e.options},
                      {"ms", e.ms},
                      {"cpu_ms", e.cpu_ms},
                      {"peak_bytes", e.peak_bytes},
                      {"bytes", e.bytes},
                      {"files", e.files}});
    }
    result["exports"] = list;
    std::ofstream(json_path) << result.dump(2) << "\n";
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return Run(argc, argv);
  } catch (const graphport::Error& e) {
    std::fprintf(stderr, "graphport_family_bench: %s\n", e.what());
    return 1;
  }
}

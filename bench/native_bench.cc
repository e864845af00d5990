// Native benchmark of graphport's load and export on one GraphDef file. A benchmark, not a test:
// it prints figures and ratios measured in this one run, and asserts nothing about time.
//
//   graphport_bench FILE [--repeat N] [--text | --no-text] [--label NAME] [--json OUT]
//
// Measures, for the file's bytes already in memory:
//   memcpy            the bytes into a pre-faulted buffer (best of N): the floor; and into a
//                     new buffer each time (page faults included)
//   load              Model::Load from a MemorySource (contiguous: parsed in place)
//   load (stream)     Model::Load from a source that hides its contiguity, so the bytes go
//                     through graphport's 1 MiB chunk path, as they do in WebAssembly
//   export            binary graph-def into a sink that only counts bytes (no copy)
//   export text       the same as protobuf text format (by default only below 100 MiB)
//   load+export       end to end, from memory to the counting sink
// and the memory: the resident set a loaded model holds, and the peak during load and export,
// each relative to the model (file) size. Peaks come from VmHWM, reset before each step
// through /proc/self/clear_refs where the kernel allows it; memory is measured on the first
// (cold) load and export, before the timing loops reuse freed memory.
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "api/model.h"
#include "core/byte_stream.h"
#include "core/error.h"
#include "core/output_set.h"

namespace {

using graphport::ByteSink;
using graphport::ByteSource;
using graphport::LoadOptions;
using graphport::MemorySource;
using graphport::Model;
using graphport::OutputSet;
using Clock = std::chrono::steady_clock;

constexpr double kMiB = 1024.0 * 1024.0;

// Counts what an export writes; keeps nothing.
class CountingOutputSet : public OutputSet {
 public:
  ByteSink* Open(const std::string&) override {
    sink_.count = 0;
    return &sink_;
  }
  void Close() override {}
  uint64_t bytes() const { return sink_.count; }

 private:
  struct Sink : ByteSink {
    void Write(const uint8_t*, size_t size) override { count += size; }
    uint64_t count = 0;
  } sink_;
};

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

// /proc/self/status fields in bytes (VmRSS, VmHWM), or -1.
int64_t StatusBytes(const char* field) {
  std::ifstream status("/proc/self/status");
  std::string line;
  size_t n = std::strlen(field);
  while (std::getline(status, line)) {
    if (line.compare(0, n, field) == 0 && line.size() > n && line[n] == ':') {
      return std::atoll(line.c_str() + n + 1) * 1024;
    }
  }
  return -1;
}

int64_t Rss() { return StatusBytes("VmRSS"); }

// The peak since the last ResetPeak(); falls back to the process peak (ru_maxrss).
bool g_peak_resettable = false;
void ResetPeak() {
  std::ofstream clear("/proc/self/clear_refs");
  clear << "5";
  clear.flush();
  g_peak_resettable = clear.good();
}
int64_t Peak() {
  int64_t hwm = StatusBytes("VmHWM");
  if (hwm >= 0) return hwm;
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return int64_t{usage.ru_maxrss} * 1024;
}

double Ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

double TimeOnce(const std::function<void()>& fn) {
  auto start = Clock::now();
  fn();
  return Ms(Clock::now() - start);
}

double BestOf(int n, const std::function<void()>& fn) {
  double best = 1e300;
  for (int i = 0; i < n; ++i) best = std::min(best, TimeOnce(fn));
  return best;
}

std::string ReadFile(const char* path) {
  int fd = ::open(path, O_RDONLY);
  if (fd < 0) {
    std::perror(path);
    std::exit(1);
  }
  struct stat st {};
  fstat(fd, &st);
  std::string bytes(static_cast<size_t>(st.st_size), '\0');
  size_t filled = 0;
  while (filled < bytes.size()) {
    ssize_t n = ::read(fd, &bytes[filled], bytes.size() - filled);
    if (n <= 0) {
      std::perror(path);
      std::exit(1);
    }
    filled += static_cast<size_t>(n);
  }
  ::close(fd);
  return bytes;
}

std::unique_ptr<Model> LoadFrom(ByteSource* source) {
  LoadOptions options;
  options.name = "bench";
  return Model::Load(source, options);
}

uint64_t ExportTo(Model* model, bool as_text) {
  CountingOutputSet out;
  model->ExportJson(as_text ? R"({"to":"graph-def","asText":true})" : R"({"to":"graph-def"})",
                    &out);
  return out.bytes();
}

void Row(const char* what, double ms, double bytes, double memcpy_ms) {
  std::printf("  %-22s %10.2f ms %10.1f MB/s %9.1fx memcpy\n", what, ms, bytes / 1e6 / (ms / 1e3),
              ms / memcpy_ms);
}

int Usage() {
  std::fprintf(stderr,
               "usage: graphport_bench FILE [--repeat N] [--text|--no-text] [--label NAME] "
               "[--json OUT]\n");
  return 2;
}

int Run(int argc, char** argv) {
  const char* path = nullptr;
  int repeat = 3;
  int text = -1;  // -1: only for files under 100 MiB
  std::string label;
  std::string json_path;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--repeat" && i + 1 < argc) {
      repeat = std::max(1, std::atoi(argv[++i]));
    } else if (a == "--text") {
      text = 1;
    } else if (a == "--no-text") {
      text = 0;
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

  int64_t rss_start = Rss();
  const std::string file = ReadFile(path);
  const double size = static_cast<double>(file.size());
  if (text < 0) text = file.size() < (size_t{100} << 20);
  nlohmann::json result = {{"impl", "native"}, {"graph", label}, {"bytes", file.size()}};

  // memcpy into a buffer whose pages are already faulted in: the copy alone.
  double memcpy_ms;
  {
    std::unique_ptr<char[]> dst(new char[file.size()]);
    std::memset(dst.get(), 1, file.size());
    memcpy_ms = BestOf(std::max(repeat, 5), [&] {
      std::memcpy(dst.get(), file.data(), file.size());
      asm volatile("" : : "r"(dst.get()) : "memory");
    });
  }

  // memcpy into a new buffer each time: the copy plus first-touch page faults, the floor for
  // anything that hands back a fresh copy of the bytes.
  double fresh_memcpy_ms = BestOf(std::max(repeat, 5), [&] {
    std::unique_ptr<char[]> fresh(new char[file.size()]);
    std::memcpy(fresh.get(), file.data(), file.size());
    asm volatile("" : : "r"(fresh.get()) : "memory");
  });

  // Cold load and export: memory figures.
  int64_t rss_before_load = Rss();
  ResetPeak();
  std::unique_ptr<Model> model;
  MemorySource first_source(file);
  double first_load_ms = TimeOnce([&] { model = LoadFrom(&first_source); });
  int64_t load_peak = Peak();
  int64_t rss_model = Rss();
  nlohmann::json summary = nlohmann::json::parse(model->InspectJson());
  int64_t nodes = summary.value("nodeCount", int64_t{-1});

  ResetPeak();
  int64_t rss_before_export = Rss();
  uint64_t exported = 0;
  double first_export_ms = TimeOnce([&] { exported = ExportTo(model.get(), false); });
  int64_t export_peak = Peak();

  double text_ms = 0;
  uint64_t text_bytes = 0;
  int64_t text_peak = 0;
  if (text) {
    ResetPeak();
    text_ms = TimeOnce([&] { text_bytes = ExportTo(model.get(), true); });
    text_peak = Peak();
  }

  // Timing loops (warm allocator).
  double export_ms =
      std::min(first_export_ms, BestOf(repeat, [&] { ExportTo(model.get(), false); }));
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
    ExportTo(m.get(), false);
  });
  // The destructor of the model is part of the loops above; its cost on its own:
  std::unique_ptr<Model> to_free;
  {
    MemorySource source(file);
    to_free = LoadFrom(&source);
  }
  double free_ms = TimeOnce([&] { to_free.reset(); });

  std::printf("native: %s: %.1f MiB, %lld nodes (peak resets %s)\n", label.c_str(), size / kMiB,
              static_cast<long long>(nodes), g_peak_resettable ? "on" : "unavailable");
  std::printf("  %-22s %10.2f ms %10.1f MB/s (best of %d)\n", "memcpy", memcpy_ms,
              size / 1e6 / (memcpy_ms / 1e3), std::max(repeat, 5));
  Row("  into a new buffer", fresh_memcpy_ms, size, memcpy_ms);
  Row("load (memory)", load_ms, size, memcpy_ms);
  Row("  first load (cold)", first_load_ms, size, memcpy_ms);
  Row("load (1 MiB stream)", load_stream_ms, size, memcpy_ms);
  Row("export graph-def", export_ms, size, memcpy_ms);
  Row("  first export (cold)", first_export_ms, size, memcpy_ms);
  if (text) {
    std::printf("  %-22s %10.2f ms %10.1f MB/s %9.1fx memcpy  (%.1f MiB of text)\n", "export text",
                text_ms, text_bytes / 1e6 / (text_ms / 1e3), text_ms / memcpy_ms,
                text_bytes / kMiB);
  }
  Row("load+export", e2e_ms, size, memcpy_ms);
  std::printf("  %-22s %10.2f ms\n", "free model", free_ms);
  std::printf("  export bytes %s input bytes (%llu vs %zu)\n",
              exported == file.size() ? "==" : "!=", static_cast<unsigned long long>(exported),
              file.size());
  double held = static_cast<double>(rss_model - rss_before_load);
  double load_extra = static_cast<double>(load_peak - rss_before_load);
  double export_extra = static_cast<double>(export_peak - rss_before_export);
  std::printf("  memory (model = file size %.1f MiB; the file's own bytes are not counted):\n",
              size / kMiB);
  std::printf("    loaded model holds    %8.1f MiB = %.2fx model\n", held / kMiB, held / size);
  std::printf("    peak during load      %8.1f MiB = %.2fx model\n", load_extra / kMiB,
              load_extra / size);
  std::printf("    peak during export    %8.1f MiB above the loaded model = %.3fx model\n",
              export_extra / kMiB, export_extra / size);
  if (text) {
    double text_extra = static_cast<double>(text_peak - rss_before_export);
    std::printf("    peak during text      %8.1f MiB above the loaded model = %.3fx model\n",
                text_extra / kMiB, text_extra / size);
  }
  std::printf("    process peak RSS      %8.1f MiB (start %.1f MiB, + file %.1f MiB)\n",
              std::max({load_peak, export_peak, text_peak}) / kMiB, rss_start / kMiB, size / kMiB);

  result["nodes"] = nodes;
  result["memcpy_ms"] = memcpy_ms;
  result["fresh_memcpy_ms"] = fresh_memcpy_ms;
  result["load_ms"] = load_ms;
  result["first_load_ms"] = first_load_ms;
  result["first_export_ms"] = first_export_ms;
  result["load_stream_ms"] = load_stream_ms;
  result["export_ms"] = export_ms;
  result["e2e_ms"] = e2e_ms;
  result["free_ms"] = free_ms;
  result["export_bytes"] = exported;
  if (text) {
    result["text_ms"] = text_ms;
    result["text_bytes"] = text_bytes;
  }
  result["model_held_bytes"] = rss_model - rss_before_load;
  result["load_peak_bytes"] = load_peak - rss_before_load;
  result["export_peak_bytes"] = export_peak - rss_before_export;
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

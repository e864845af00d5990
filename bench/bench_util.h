// What the native benchmarks share: clocks, best-of-N timing, the process's memory figures
// (resident set and its peak since a reset) and an output set that only counts bytes.
// Header-only: each benchmark is one executable.
#ifndef GRAPHPORT_BENCH_BENCH_UTIL_H_
#define GRAPHPORT_BENCH_BENCH_UTIL_H_

#include <fcntl.h>
#include <malloc.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <functional>
#include <memory>
#include <string>

#include "core/byte_stream.h"
#include "core/output_set.h"

namespace graphport::bench {

using Clock = std::chrono::steady_clock;
constexpr double kMiB = 1024.0 * 1024.0;

// Counts what an export writes, over all its files; keeps nothing.
class CountingOutputSet : public OutputSet {
 public:
  ByteSink* Open(const std::string&) override {
    ++files_;
    return &sink_;
  }
  void Close() override {}
  uint64_t bytes() const { return sink_.total(); }
  int files() const { return files_; }

 private:
  CountingSink sink_;
  int files_ = 0;
};

// /proc/self/status fields in bytes (VmRSS, VmHWM), or -1.
inline int64_t StatusBytes(const char* field) {
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

inline int64_t Rss() { return StatusBytes("VmRSS"); }

// Resets the peak (VmHWM) to the current resident set where the kernel allows it; returns
// whether it could. Without it, Peak() is the process's peak so far.
// Freed memory goes back to the system first (malloc_trim), so that what a step allocates
// shows in the resident set instead of reusing what an earlier step freed.
inline bool ResetPeak() {
  malloc_trim(0);
  std::ofstream clear("/proc/self/clear_refs");
  clear << "5";
  clear.flush();
  return clear.good();
}

inline int64_t Peak() {
  int64_t hwm = StatusBytes("VmHWM");
  if (hwm >= 0) return hwm;
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return int64_t{usage.ru_maxrss} * 1024;
}

inline double Ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

inline double TimeOnce(const std::function<void()>& fn) {
  auto start = Clock::now();
  fn();
  return Ms(Clock::now() - start);
}

// The process's CPU time (all threads) that `fn` takes: on a machine shared with other jobs
// the wall time stretches with the wait for a core, this does not.
inline double CpuTimeOnce(const std::function<void()>& fn) {
  auto cpu_ms = [] {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
  };
  double start = cpu_ms();
  fn();
  return cpu_ms() - start;
}

// The least CPU time of n runs.
inline double BestCpuTimeOf(int n, const std::function<void()>& fn) {
  double best = 1e300;
  for (int i = 0; i < n; ++i) best = std::min(best, CpuTimeOnce(fn));
  return best;
}

// Best of n runs; a step slower than `single_ms` runs once, so that a run of the benchmarks
// stays within minutes even where a step is pathologically slow.
inline double BestOf(int n, const std::function<void()>& fn, double single_ms = 3000) {
  double best = 1e300;
  for (int i = 0; i < n && (i == 0 || best <= single_ms); ++i) best = std::min(best, TimeOnce(fn));
  return best;
}

// The whole file, or exits with a message: a benchmark has no use for a missing input.
inline std::string ReadWholeFile(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) {
    std::perror(path.c_str());
    std::exit(1);
  }
  struct stat st {};
  fstat(fd, &st);
  std::string bytes(static_cast<size_t>(st.st_size), '\0');
  size_t filled = 0;
  while (filled < bytes.size()) {
    ssize_t n = ::read(fd, &bytes[filled], bytes.size() - filled);
    if (n <= 0) {
      std::perror(path.c_str());
      std::exit(1);
    }
    filled += static_cast<size_t>(n);
  }
  ::close(fd);
  return bytes;
}

// memcpy of `size` bytes into a buffer whose pages are already faulted in (the floor), and
// into a new buffer each time (page faults included: the floor for fresh bytes).
struct MemcpyFloor {
  double warm_ms = 0;
  double fresh_ms = 0;
};

inline MemcpyFloor MeasureMemcpy(const char* src, size_t size, int repeat) {
  MemcpyFloor floor;
  {
    std::unique_ptr<char[]> dst(new char[size]);
    std::memset(dst.get(), 1, size);
    floor.warm_ms = BestOf(repeat, [&] {
      std::memcpy(dst.get(), src, size);
      asm volatile("" : : "r"(dst.get()) : "memory");
    });
  }
  floor.fresh_ms = BestOf(repeat, [&] {
    std::unique_ptr<char[]> fresh(new char[size]);
    std::memcpy(fresh.get(), src, size);
    asm volatile("" : : "r"(fresh.get()) : "memory");
  });
  return floor;
}

}  // namespace graphport::bench

#endif  // GRAPHPORT_BENCH_BENCH_UTIL_H_

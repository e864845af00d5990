// A TensorFlow checkpoint index (variables.index). Opened with a small memory budget; what
// opens is checked (keys strictly increasing, each found by Find) and every value is read
// from data files of zeros long enough for the index's byte ranges (up to 1 MiB each), so
// ranges past their file, checksums and string layouts are all reached. Every failure must be
// a located PARSE_ERROR or NOT_FOUND, or UNSUPPORTED / TOO_LARGE, never anything else.
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/input_set.h"
#include "fuzz/targets/fuzz_targets.h"
#include "tf/checkpoint/bundle_index.h"
#include "tf/checkpoint/checkpoint.h"
#include "tf/checkpoint/shard_reader.h"

namespace graphport::fuzz {
namespace {

namespace ckpt = tf::checkpoint;

constexpr uint64_t kBudget = 64 << 20;
constexpr uint64_t kMaxShardBytes = 1 << 20;
constexpr char kPrefix[] = "variables/variables";

// "" when `e` is an error the reader may throw for bad input, else what is wrong with it.
std::string CheckError(const Error& e, const std::string& step) {
  switch (e.code()) {
    case ErrorCode::kParseError:
    case ErrorCode::kNotFound:
      if (e.where().file.empty()) return step + ": " + e.what() + " names no file";
      return "";
    case ErrorCode::kUnsupported:
    case ErrorCode::kTooLarge:
      return "";
    default:
      return step + ": " + ErrorCodeName(e.code()) + " " + e.what();
  }
}

std::string ReadEveryValue(ckpt::Checkpoint* checkpoint) {
  for (const ckpt::VariableEntry& entry : checkpoint->entries()) {
    try {
      if (entry.dtype == tensorflow::DT_STRING) {
        std::vector<std::string> strings = checkpoint->ReadStrings(entry);
        if (static_cast<int64_t>(strings.size()) != ckpt::ShapeElements(entry.shape)) {
          return "\"" + entry.key + "\": wrong string count";
        }
      } else if (ckpt::FixedWidthBytes(entry.dtype) > 0) {
        std::string content = checkpoint->ReadContent(entry);
        if (content.size() != entry.size) return "\"" + entry.key + "\": wrong content size";
        StringSink sink;
        checkpoint->StreamContent(entry, &sink);
        if (sink.bytes() != content) return "\"" + entry.key + "\": streamed bytes differ";
      }
    } catch (const Error& e) {
      std::string failure = CheckError(e, "reading \"" + entry.key + "\"");
      if (!failure.empty()) return failure;
    }
  }
  tensorflow::TrackableObjectGraph graph;
  try {
    checkpoint->ReadObjectGraph(&graph);
  } catch (const Error& e) {
    return CheckError(e, "the object graph");
  }
  return "";
}

}  // namespace

std::string TfCheckpoint(std::string_view bytes) {
  MemoryInputSet inputs("fuzz");
  inputs.Add(std::string(kPrefix) + ".index", bytes);
  std::unique_ptr<ckpt::Checkpoint> checkpoint;
  try {
    checkpoint = ckpt::Checkpoint::Open(&inputs, kPrefix, kBudget);
  } catch (const Error& e) {
    return CheckError(e, "open");
  } catch (const std::exception& e) {
    return std::string("open: ") + e.what();
  }
  const auto& entries = checkpoint->entries();
  for (size_t i = 0; i < entries.size(); ++i) {
    if (i > 0 && !(entries[i - 1].key < entries[i].key)) return "keys out of order";
    if (checkpoint->Find(entries[i].key) != &entries[i]) return "Find misses " + entries[i].key;
  }
  // Zeros up to the furthest byte an entry names in each data file, capped.
  std::vector<uint64_t> lengths(static_cast<size_t>(checkpoint->num_shards()), 0);
  for (const auto& entry : entries) {
    if (!entry.slices.empty()) continue;
    uint64_t end = entry.offset + entry.size;
    lengths[entry.shard_id] = std::max(lengths[entry.shard_id], std::min(end, kMaxShardBytes));
  }
  std::vector<std::string> shards;
  shards.reserve(std::min<size_t>(lengths.size(), 16));
  for (size_t i = 0; i < lengths.size() && i < 16; ++i) {
    shards.emplace_back(lengths[i], '\0');
    inputs.Add(ckpt::ShardFileName(kPrefix, static_cast<int32_t>(i), checkpoint->num_shards()),
               shards.back());
  }
  try {
    return ReadEveryValue(checkpoint.get());
  } catch (const std::exception& e) {
    return std::string("reading: ") + e.what();
  }
}

}  // namespace graphport::fuzz

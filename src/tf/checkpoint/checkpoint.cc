#include "tf/checkpoint/checkpoint.h"

#include <algorithm>
#include <map>

#include "core/error.h"
#include "core/limits.h"
#include "core/resize_for_overwrite.h"
#include "tf/checkpoint/bundle_index.h"
#include "tf/checkpoint/crc32c.h"
#include "tf/checkpoint/shard_reader.h"
#include "tf/checkpoint/slice_key.h"
#include "tf/checkpoint/slice_layout.h"
#include "tf/checkpoint/string_tensor.h"

namespace graphport::tf::checkpoint {

class Checkpoint::Impl {
 public:
  Impl(InputSet* inputs, std::string prefix, int32_t num_shards)
      : shards(inputs, std::move(prefix), num_shards) {}
  ShardReader shards;
  std::map<std::string, VariableEntry> slices;
};

namespace {

// A tensor's bytes that fail the crc32c the index records for them.
Error CrcMismatch(const std::string& file, const VariableEntry& entry) {
  return Error(ErrorCode::kParseError,
               file + ": the checkpoint tensor \"" + entry.key + "\" (" +
                   std::to_string(entry.size) + " bytes at byte " + std::to_string(entry.offset) +
                   ") fails its crc32c check",
               ErrorLocation::InFile(file, static_cast<int64_t>(entry.offset)));
}

std::string ReadWholeIndex(InputSet* inputs, const std::string& name, uint64_t max_bytes,
                           std::string* held, std::string_view* bytes) {
  std::string display = inputs->DisplayName(name);
  if (!inputs->Has(name)) {
    throw Error(ErrorCode::kNotFound, display + ": the checkpoint index is missing",
                ErrorLocation::InFile(display));
  }
  ByteSource* source = inputs->Open(name);
  if (source->Contiguous(bytes)) {
    if (bytes->size() > max_bytes) {
      throw Error(ErrorCode::kTooLarge,
                  display + ": the checkpoint index (" + std::to_string(bytes->size()) +
                      " bytes) exceeds the memory budget of " + std::to_string(max_bytes) +
                      " bytes",
                  ErrorLocation::InFile(display));
    }
    return display;
  }
  // One byte past the budget tells a file at the budget from a larger one.
  AppendPrefix(source, static_cast<size_t>(std::min<uint64_t>(max_bytes + 1, SIZE_MAX)), held);
  if (held->size() > max_bytes) {
    throw Error(ErrorCode::kTooLarge,
                display + ": the checkpoint index exceeds the memory budget of " +
                    std::to_string(max_bytes) + " bytes",
                ErrorLocation::InFile(display));
  }
  *bytes = *held;
  return display;
}

}  // namespace

Checkpoint::Checkpoint(uint64_t max_memory_bytes) : max_memory_bytes_(max_memory_bytes) {}

Checkpoint::~Checkpoint() = default;

std::unique_ptr<Checkpoint> Checkpoint::Open(InputSet* inputs, const std::string& prefix) {
  return Open(inputs, prefix, kDefaultMaxMemoryBytes);
}

std::unique_ptr<Checkpoint> Checkpoint::Open(InputSet* inputs, const std::string& prefix,
                                             uint64_t max_memory_bytes) {
  std::unique_ptr<Checkpoint> checkpoint(new Checkpoint(max_memory_bytes));
  std::string held;
  std::string_view bytes;
  checkpoint->index_display_ =
      ReadWholeIndex(inputs, prefix + ".index", max_memory_bytes, &held, &bytes);
  BundleIndex index =
      ReadBundleIndex(bytes, checkpoint->index_display_, max_memory_bytes - bytes.size());
  checkpoint->num_shards_ = index.num_shards;
  checkpoint->entries_ = std::move(index.entries);
  checkpoint->impl_ = std::make_unique<Impl>(inputs, prefix, index.num_shards);
  checkpoint->impl_->slices = std::move(index.slices);
  return checkpoint;
}

const VariableEntry* Checkpoint::Find(std::string_view key) const {
  auto it = std::lower_bound(
      entries_.begin(), entries_.end(), key,
      [](const VariableEntry& entry, std::string_view k) { return entry.key < k; });
  return it != entries_.end() && it->key == key ? &*it : nullptr;
}

void Checkpoint::CheckReadable(const VariableEntry& entry, bool strings) const {
  bool is_string = entry.dtype == tensorflow::DT_STRING;
  if (strings != is_string || (!strings && FixedWidthBytes(entry.dtype) == 0)) {
    throw Error(ErrorCode::kUnsupported,
                "the checkpoint tensor \"" + entry.key + "\" is " +
                    tensorflow::DataType_Name(entry.dtype) +
                    (is_string ? ": its elements are read as strings"
                     : strings ? ", not DT_STRING"
                               : ", whose values graphport does not read"),
                ErrorLocation::InFile(index_display_));
  }
  uint64_t budget_need = entry.size;
  if (budget_need > max_memory_bytes_) {
    throw Error(ErrorCode::kTooLarge,
                "the checkpoint tensor \"" + entry.key + "\" (" + std::to_string(entry.size) +
                    " bytes) exceeds the memory budget of " + std::to_string(max_memory_bytes_) +
                    " bytes",
                ErrorLocation::InFile(index_display_));
  }
}

// An unpartitioned entry's stored bytes, whole; fixed-width ones crc-checked here.
// A streamed shard is read straight into the value: its bytes were copied twice (source to
// chunk, chunk to value), which was 38% of the WebAssembly export of the 200 MiB benchmark
// model to TF.js (node --cpu-prof).
std::string Checkpoint::ReadStoredBytes(const VariableEntry& entry) {
  std::string bytes;
  uint32_t crc = 0;
  auto check = [&](std::string_view piece) { crc = Crc32cExtend(crc, piece); };
  bool direct = impl_->shards.ReadRangeInto(
      entry.shard_id, entry.offset, entry.size, entry.key,
      [&] {
        ResizeForOverwrite(&bytes, entry.size);
        return bytes.data();
      },
      check);
  if (!direct) {
    impl_->shards.ReadRange(entry.shard_id, entry.offset, entry.size, entry.key,
                            [&](std::string_view piece) {
                              // Reserved once the range is known to lie inside the file.
                              if (bytes.empty()) bytes.reserve(entry.size);
                              bytes.append(piece);
                              check(piece);
                            });
  }
  if (entry.dtype != tensorflow::DT_STRING && crc != UnmaskCrc(entry.masked_crc32c)) {
    throw CrcMismatch(impl_->shards.DisplayName(entry.shard_id), entry);
  }
  return bytes;
}

std::string Checkpoint::ReadContent(const VariableEntry& entry) {
  CheckReadable(entry, /*strings=*/false);
  if (entry.slices.empty()) return ReadStoredBytes(entry);
  uint64_t width = FixedWidthBytes(entry.dtype);
  std::string whole(entry.size, '\0');
  for (const auto& extents : entry.slices) {
    const VariableEntry& slice = impl_->slices.at(EncodeSliceKey(entry.key, extents));
    std::string part = ReadStoredBytes(slice);
    ForEachSliceRun(entry.shape, extents, [&](uint64_t to, uint64_t from, uint64_t count) {
      std::copy_n(part.data() + from * width, count * width, whole.data() + to * width);
    });
  }
  return whole;
}

std::vector<std::string> Checkpoint::ReadStrings(const VariableEntry& entry) {
  CheckReadable(entry, /*strings=*/true);
  auto read = [&](const VariableEntry& stored) {
    std::string bytes = ReadStoredBytes(stored);
    std::vector<std::string> elements;
    StringTensorFault fault;
    if (!DecodeStringTensor(bytes, static_cast<uint64_t>(ShapeElements(stored.shape)),
                            stored.masked_crc32c, &elements, &fault)) {
      std::string file = impl_->shards.DisplayName(stored.shard_id);
      uint64_t at = stored.offset + fault.at;
      throw Error(ErrorCode::kParseError,
                  file + ": the checkpoint string tensor \"" + stored.key + "\" (" +
                      std::to_string(stored.size) + " bytes at byte " +
                      std::to_string(stored.offset) + ") " + fault.why + " (byte " +
                      std::to_string(at) + ")",
                  ErrorLocation::InFile(file, static_cast<int64_t>(at)));
    }
    return elements;
  };
  if (entry.slices.empty()) return read(entry);
  uint64_t count = static_cast<uint64_t>(ShapeElements(entry.shape));
  if (count > max_memory_bytes_ / sizeof(std::string)) {
    throw Error(ErrorCode::kTooLarge,
                "the checkpoint string tensor \"" + entry.key + "\" has " + std::to_string(count) +
                    " elements, more than the memory budget holds",
                ErrorLocation::InFile(index_display_));
  }
  std::vector<std::string> whole(static_cast<size_t>(count));
  for (const auto& extents : entry.slices) {
    std::vector<std::string> part = read(impl_->slices.at(EncodeSliceKey(entry.key, extents)));
    ForEachSliceRun(entry.shape, extents, [&](uint64_t to, uint64_t from, uint64_t count) {
      for (uint64_t i = 0; i < count; ++i) whole[to + i] = std::move(part[from + i]);
    });
  }
  return whole;
}

void Checkpoint::ReadTensor(const VariableEntry& entry, tensorflow::TensorProto* out) {
  out->Clear();
  out->set_dtype(entry.dtype);
  for (int64_t d : entry.shape) out->mutable_tensor_shape()->add_dim()->set_size(d);
  if (entry.dtype == tensorflow::DT_STRING) {
    for (std::string& s : ReadStrings(entry)) out->add_string_val(std::move(s));
  } else {
    out->set_tensor_content(ReadContent(entry));
  }
}

void Checkpoint::StreamContent(const VariableEntry& entry, ByteSink* sink) {
  CheckReadable(entry, /*strings=*/false);
  if (!entry.slices.empty()) {
    std::string whole = ReadContent(entry);
    sink->SizeHint(whole.size());
    const auto* data = reinterpret_cast<const uint8_t*>(whole.data());
    for (size_t at = 0; at < whole.size(); at += kStreamChunkBytes) {
      sink->Write(data + at, std::min<size_t>(kStreamChunkBytes, whole.size() - at));
    }
    return;
  }
  sink->SizeHint(entry.size);
  uint32_t crc = 0;
  impl_->shards.ReadRange(entry.shard_id, entry.offset, entry.size, entry.key,
                          [&](std::string_view piece) {
                            crc = Crc32cExtend(crc, piece);
                            // A piece of a file held in memory can be long: the sink gets
                            // chunks of the usual size.
                            for (size_t at = 0; at < piece.size(); at += kStreamChunkBytes) {
                              size_t n = std::min<size_t>(kStreamChunkBytes, piece.size() - at);
                              sink->Write(reinterpret_cast<const uint8_t*>(piece.data()) + at, n);
                            }
                          });
  if (crc != UnmaskCrc(entry.masked_crc32c)) {
    throw CrcMismatch(impl_->shards.DisplayName(entry.shard_id), entry);
  }
}

bool Checkpoint::ReadObjectGraph(tensorflow::TrackableObjectGraph* out) {
  const VariableEntry* entry = Find(kObjectGraphKey);
  if (entry == nullptr) return false;
  std::vector<std::string> elements = ReadStrings(*entry);
  if (elements.size() != 1 || elements[0].size() > kMaxProtoBytes ||
      !out->ParseFromArray(elements[0].data(), static_cast<int>(elements[0].size()))) {
    std::string file = impl_->shards.DisplayName(entry->shard_id);
    throw Error(ErrorCode::kParseError,
                file + ": the checkpoint's \"" + std::string(kObjectGraphKey) + "\" (at byte " +
                    std::to_string(entry->offset) + ") is not one TrackableObjectGraph",
                ErrorLocation::InFile(file, static_cast<int64_t>(entry->offset)));
  }
  return true;
}

}  // namespace graphport::tf::checkpoint

#include "tf/checkpoint/bundle_index.h"

#include <algorithm>

#include "core/error.h"
#include "tensorflow/tensor_bundle.pb.h"
#include "tf/checkpoint/slice_key.h"
#include "tf/checkpoint/slice_layout.h"
#include "tf/checkpoint/table.h"
#include "tf/dtype.h"

namespace graphport::tf::checkpoint {
namespace {

Error EntryError(const BlockPlace& place, const std::string& key, const std::string& why) {
  return Error(ErrorCode::kParseError,
               place.file + ": the checkpoint entry \"" + key + "\" (in the block at byte " +
                   std::to_string(place.offset) + ") " + why,
               ErrorLocation::InFile(place.file, static_cast<int64_t>(place.offset)));
}

void CheckHeader(const tensorflow::BundleHeaderProto& header, const BlockPlace& place) {
  auto unsupported = [&](const std::string& why) {
    return Error(ErrorCode::kUnsupported, place.file + ": " + why,
                 ErrorLocation::InFile(place.file, static_cast<int64_t>(place.offset)));
  };
  if (header.num_shards() < 1 || header.num_shards() > kMaxShards) {
    throw EntryError(place, "",
                     "(the header) gives " + std::to_string(header.num_shards()) + " data files");
  }
  if (header.endianness() == tensorflow::BundleHeaderProto::BIG) {
    throw unsupported(
        "the checkpoint's tensors are stored big-endian; graphport reads little-endian ones");
  }
  if (header.endianness() != tensorflow::BundleHeaderProto::LITTLE) {
    throw EntryError(place, "",
                     "(the header) gives an unknown byte order " +
                         std::to_string(static_cast<int>(header.endianness())));
  }
  const auto& version = header.version();
  if (version.min_consumer() > kBundleVersion) {
    throw unsupported("the checkpoint needs a reader of version " +
                      std::to_string(version.min_consumer()) + " or later; graphport's is " +
                      std::to_string(kBundleVersion));
  }
  for (int bad : version.bad_consumers()) {
    if (bad == kBundleVersion) {
      throw unsupported("the checkpoint's writer ruled out readers of version " +
                        std::to_string(kBundleVersion) + ", graphport's");
    }
  }
}

// dtype, shape and range of one entry, checked against each other.
VariableEntry MakeEntry(const std::string& key, const tensorflow::BundleEntryProto& proto,
                        int32_t num_shards, const BlockPlace& place) {
  VariableEntry entry;
  entry.key = key;
  if (!tensorflow::DataType_IsValid(proto.dtype()) || proto.dtype() == tensorflow::DT_INVALID ||
      proto.dtype() > tensorflow::DT_INT2) {
    throw EntryError(place, key, "has no valid dtype (" + std::to_string(proto.dtype()) + ")");
  }
  entry.dtype = proto.dtype();
  if (proto.shape().unknown_rank()) throw EntryError(place, key, "has a shape of unknown rank");
  for (const auto& dim : proto.shape().dim()) {
    if (dim.size() < 0) {
      throw EntryError(place, key,
                       "has a dimension of size " + std::to_string(dim.size()) + " in its shape");
    }
    entry.shape.push_back(dim.size());
  }
  int64_t elements = ShapeElements(entry.shape);
  if (elements < 0) throw EntryError(place, key, "has a shape whose element count overflows");
  if (proto.slices_size() > kMaxSlicesPerVariable) {
    throw Error(ErrorCode::kUnsupported,
                place.file + ": the checkpoint entry \"" + key + "\" is partitioned into " +
                    std::to_string(proto.slices_size()) + " slices; graphport reads at most " +
                    std::to_string(kMaxSlicesPerVariable),
                ErrorLocation::InFile(place.file, static_cast<int64_t>(place.offset)));
  }
  for (const auto& slice : proto.slices()) {
    std::vector<SliceExtent> extents;
    for (const auto& e : slice.extent()) {
      extents.push_back({e.start(), e.has_length() ? e.length() : -1});
    }
    entry.slices.push_back(std::move(extents));
  }
  uint64_t width = FixedWidthBytes(entry.dtype);
  if (!entry.slices.empty()) {
    if (width > 0) {
      if (static_cast<uint64_t>(elements) > UINT64_MAX / width) {
        throw EntryError(place, key, "is too large to hold");
      }
      entry.size = static_cast<uint64_t>(elements) * width;
    }
    return entry;
  }
  if (proto.shard_id() < 0 || proto.shard_id() >= num_shards) {
    throw EntryError(place, key,
                     "is in data file " + std::to_string(proto.shard_id()) + " of " +
                         std::to_string(num_shards));
  }
  if (proto.offset() < 0 || proto.size() < 0 ||
      static_cast<uint64_t>(proto.offset()) >
          static_cast<uint64_t>(INT64_MAX) - static_cast<uint64_t>(proto.size())) {
    throw EntryError(place, key,
                     "has a byte range (" + std::to_string(proto.size()) + " bytes at byte " +
                         std::to_string(proto.offset()) + ") that cannot be");
  }
  entry.shard_id = proto.shard_id();
  entry.offset = static_cast<uint64_t>(proto.offset());
  entry.size = static_cast<uint64_t>(proto.size());
  entry.masked_crc32c = proto.crc32c();
  if (width > 0) {
    bool fits = static_cast<uint64_t>(elements) <= UINT64_MAX / width;
    if (!fits || entry.size != static_cast<uint64_t>(elements) * width) {
      throw EntryError(place, key,
                       "holds " + std::to_string(entry.size) + " bytes where a " +
                           tensorflow::DataType_Name(entry.dtype) + " tensor of " +
                           std::to_string(elements) + " elements has " +
                           (fits ? std::to_string(static_cast<uint64_t>(elements) * width)
                                 : std::string("more than 2^64")));
    }
  } else if (entry.dtype == tensorflow::DT_STRING && entry.size < static_cast<uint64_t>(elements)) {
    throw EntryError(place, key,
                     "holds " + std::to_string(entry.size) + " bytes, too few for " +
                         std::to_string(elements) + " strings' lengths");
  }
  return entry;
}

}  // namespace

uint64_t FixedWidthBytes(tensorflow::DataType dtype) { return DtypeBytes(dtype); }

int64_t ShapeElements(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0) return -1;
    if (d != 0 && n > INT64_MAX / d) return -1;
    n *= d;
  }
  return n;
}

BundleIndex ReadBundleIndex(std::string_view file, const std::string& display, uint64_t max_bytes) {
  BundleIndex index;
  bool have_header = false;
  std::vector<BlockPlace> slice_owner_places;
  ReadTable(file, display, max_bytes,
            [&](const std::string& key, std::string_view value, const BlockPlace& place) {
              if (!have_header) {
                // Keys increase and the header's is the empty one, so it comes first.
                if (!key.empty()) {
                  throw EntryError(place, key, "comes first, where the header belongs");
                }
                tensorflow::BundleHeaderProto header;
                if (!header.ParseFromArray(value.data(), static_cast<int>(value.size()))) {
                  throw EntryError(place, "", "(the header) is not a BundleHeaderProto");
                }
                CheckHeader(header, place);
                index.num_shards = header.num_shards();
                have_header = true;
                return;
              }
              tensorflow::BundleEntryProto proto;
              if (!proto.ParseFromArray(value.data(), static_cast<int>(value.size()))) {
                throw EntryError(place, key, "is not a BundleEntryProto");
              }
              VariableEntry entry = MakeEntry(key, proto, index.num_shards, place);
              // Slice keys start with OrderedCode's 0; no ordinary name does.
              if (key[0] == '\0') {
                if (!entry.slices.empty()) throw EntryError(place, key, "is a slice with slices");
                index.slices.emplace(key, std::move(entry));
              } else {
                if (!entry.slices.empty()) slice_owner_places.push_back(place);
                index.entries.push_back(std::move(entry));
              }
            });
  if (!have_header) {
    throw Error(ErrorCode::kParseError, display + ": the checkpoint index has no header",
                ErrorLocation::InFile(display, 0));
  }
  size_t owner = 0;
  for (const VariableEntry& entry : index.entries) {
    if (entry.slices.empty()) continue;
    const BlockPlace& place = slice_owner_places[owner++];
    std::string why = CheckSliceCover(entry.shape, entry.slices);
    if (!why.empty()) throw EntryError(place, entry.key, why);
    for (const auto& extents : entry.slices) {
      auto found = index.slices.find(EncodeSliceKey(entry.key, extents));
      if (found == index.slices.end()) {
        throw EntryError(place, entry.key, "names a slice the checkpoint does not hold");
      }
      const VariableEntry& slice = found->second;
      if (slice.dtype != entry.dtype || slice.shape != SliceShape(entry.shape, extents)) {
        throw EntryError(place, entry.key,
                         "has a slice whose dtype or shape differs from the slice's extents");
      }
    }
  }
  return index;
}

}  // namespace graphport::tf::checkpoint

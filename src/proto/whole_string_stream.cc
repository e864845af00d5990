#include "proto/whole_string_stream.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "proto/wire_reader.h"

namespace graphport::proto {
namespace {

// A long field's own chunk starts this many bytes before its payload, so that libprotobuf
// reads the field's key and length inside that chunk too and takes the whole payload at once
// (on a chunk boundary it would go through its patch buffer and append in two pieces).
constexpr uint64_t kLead = 64;

}  // namespace

WireFollower::WireFollower(const MessageSchema& type, uint64_t input_size, uint64_t whole_above)
    : input_size_(input_size), whole_above_(whole_above) {
  frames_.push_back({&type, input_size > 0 ? input_size : std::numeric_limits<uint64_t>::max()});
}

size_t WireFollower::Feed(const uint8_t* bytes, size_t n, uint64_t at) {
  found_ = false;
  size_t i = 0;
  while (i < n) {
    switch (state_) {
      case State::kLost:
        return n;
      case State::kSkip: {
        uint64_t step = std::min<uint64_t>(skip_, n - i);
        i += step;
        skip_ -= step;
        if (skip_ == 0) state_ = State::kKey;
        break;
      }
      case State::kKey:
      case State::kVarint:
      case State::kLength: {
        if (state_ == State::kKey && !varint_.started()) {
          // A field starts here: first close the messages that end here.
          uint64_t pos = at + i;
          while (frames_.size() > 1 && frames_.back().end == pos) frames_.pop_back();
          if (pos >= frames_.back().end) {
            state_ = State::kLost;
            break;
          }
        }
        const VarintBuilder::Step step = varint_.Add(bytes[i++]);
        if (step == VarintBuilder::kOverlong) {
          state_ = State::kLost;
          break;
        }
        if (step == VarintBuilder::kMore) break;
        const uint64_t value = varint_.value();
        if (state_ == State::kVarint) {
          state_ = State::kKey;
        } else if (state_ == State::kLength) {
          OnLength(at + i, value);
          if (found_) return i;
        } else {
          OnTag(value);
        }
        break;
      }
    }
  }
  return i;
}

void WireFollower::OnTag(uint64_t tag) {
  field_number_ = static_cast<int>(std::min<uint64_t>(tag >> 3, kMaxFieldNumber + 1));
  const int wire_type = static_cast<int>(tag & 7);
  switch (wire_type) {
    case kWireVarint:
      state_ = State::kVarint;
      break;
    case kWireFixed64:
    case kWireFixed32:
      skip_ = static_cast<uint64_t>(FixedWidth(wire_type));
      state_ = State::kSkip;
      break;
    case kWireLength:
      state_ = State::kLength;
      break;
    default:  // groups, or not protobuf: TensorFlow's schemas have no groups
      state_ = State::kLost;
  }
  if (field_number_ == 0) state_ = State::kLost;
}

void WireFollower::OnLength(uint64_t at, uint64_t length) {
  if (length > frames_.back().end - at) {
    state_ = State::kLost;
    return;
  }
  const FieldSchema* field = frames_.back().type->FindFieldByNumber(field_number_);
  // A message shorter than a long field cannot hold one: skipped whole, so a graph of many
  // small nodes costs one step per node.
  // frames_ holds the top message (depth 0) and the ones entered since.
  const int depth = static_cast<int>(frames_.size());
  if (field != nullptr && field->type == FieldType::kMessage && length >= whole_above_ &&
      WithinNesting(depth)) {
    frames_.push_back({field->message, at + length});
    state_ = State::kKey;
    return;
  }
  bool text = field != nullptr && field->is_text();
  if (text && length >= whole_above_ && at + length <= input_size_) {
    found_ = true;
    long_start_ = at;
    long_size_ = length;
  }
  skip_ = length;
  state_ = length > 0 ? State::kSkip : State::kKey;
}

WholeStringStream::WholeStringStream(ByteSource* source, const MessageSchema& type,
                                     uint64_t input_size, const MemoryBudget* budget, size_t chunk,
                                     uint64_t whole_above)
    : source_(source),
      budget_(budget),
      chunk_(chunk),
      follower_(type, input_size, whole_above),
      follow_(input_size >= whole_above && whole_above > 0) {}

bool WholeStringStream::Next(const void** data, int* size) {
  if (out_ == limit_ && !Refill()) return false;
  *data = buffer_.data() + out_;
  last_ = limit_ - out_;
  *size = static_cast<int>(last_);
  out_ = limit_;
  return true;
}

void WholeStringStream::BackUp(int count) {
  size_t n = std::min(static_cast<size_t>(count), last_);
  out_ -= n;
  last_ -= n;
}

bool WholeStringStream::Skip(int count) {
  while (count > 0) {
    const void* data;
    int n;
    if (!Next(&data, &n)) return false;
    if (n > count) {
      BackUp(n - count);
      return true;
    }
    count -= n;
  }
  return true;
}

// Reads up to `want` bytes into dst: all of them (or up to the input's end) when `fill`, else
// whatever one read of the source gives. False when the source failed or the budget is spent.
bool WholeStringStream::ReadInto(uint8_t* dst, size_t want, size_t* got, bool fill) {
  *got = 0;
  while (*got < want) {
    if (budget_ != nullptr && budget_->Exceeded(consumed_)) {
      over_budget_ = true;
      return false;
    }
    size_t n;
    try {
      n = source_->Read(dst + *got, std::min(want - *got, chunk_));
    } catch (const std::exception& e) {
      error_ = e.what();
      return false;
    }
    consumed_ += n;
    *got += n;
    if (n == 0 || !fill) break;
  }
  return true;
}

bool WholeStringStream::Refill() {
  // What the parser took goes; what was read past it (a long field's head) stays.
  size_t keep = filled_ - limit_;
  start_ += limit_;
  filled_ = keep;
  out_ = 0;
  last_ = 0;
  if (long_end_ != 0) {
    size_t total = static_cast<size_t>(long_end_ - start_);
    long_end_ = 0;
    if (keep >= total) {
      // The whole field was read already, in a plain chunk: it is handed over as a chunk.
      std::memmove(buffer_.data(), buffer_.data() + limit_, keep);
      limit_ = total;
      return FollowLong();
    }
    if (budget_ != nullptr && budget_->Exceeded(consumed_ + (total - keep))) {
      over_budget_ = true;
      return false;
    }
    std::vector<uint8_t> whole;
    try {
      whole.resize(total);
    } catch (const std::bad_alloc&) {
      // No room for the field in one piece (or a size hint that lied): plain chunks, and the
      // parser meets the same shortage, or the input's end, in its own way.
      follow_ = false;
    }
    if (follow_) {
      std::memcpy(whole.data(), buffer_.data() + limit_, keep);
      buffer_.swap(whole);
      whole = std::vector<uint8_t>();
      size_t got = 0;
      if (!ReadInto(buffer_.data() + keep, total - keep, &got, true)) return false;
      filled_ = keep + got;
      limit_ = filled_;
      if (filled_ == 0) return false;
      return FollowLong();
    }
  }
  // A plain chunk, in a buffer of the plain size again after a long field's.
  if (buffer_.size() != chunk_ && keep == 0) {
    buffer_ = std::vector<uint8_t>(chunk_);
  } else if (keep > 0) {
    std::memmove(buffer_.data(), buffer_.data() + limit_, keep);
  }
  if (keep == 0) {
    size_t got = 0;
    if (!ReadInto(buffer_.data(), buffer_.size(), &got, false)) return false;
    filled_ = got;
  }
  limit_ = filled_;
  if (filled_ == 0) return false;
  if (!follow_) return true;
  size_t from = static_cast<size_t>(followed_ - start_);
  followed_ += follower_.Feed(buffer_.data() + from, filled_ - from, followed_);
  if (!follower_.following()) follow_ = false;
  if (!follower_.found_long()) return true;
  // This chunk ends before the long field's head; the next one holds all of the field.
  uint64_t lead = std::min(kLead, follower_.long_start());
  uint64_t head = std::max(start_, follower_.long_start() - lead);
  long_end_ = follower_.long_start() + follower_.long_size();
  limit_ = static_cast<size_t>(head - start_);
  return limit_ > 0 || Refill();
}

// The chunk buffer_[0, limit_) ends where a long field does: the follower skips its payload.
bool WholeStringStream::FollowLong() {
  ++whole_chunks_;
  size_t from = static_cast<size_t>(followed_ - start_);
  followed_ += follower_.Feed(buffer_.data() + from, limit_ - from, followed_);
  return true;
}

}  // namespace graphport::proto

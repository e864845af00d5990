#include "mge/pickle/pickle_writer.h"

#include <cstdint>

#include "mge/little_endian.h"

namespace graphport::mge {
namespace {

constexpr char kProto4[] = {'\x80', '\x04'};
constexpr size_t kFrameSizeMin = 4;         // shorter frames are written without FRAME
constexpr size_t kFrameSizeTarget = 65536;  // payloads this big bypass the frame

// PROTO 4, then `header` + `payload` + MEMOIZE + STOP framed as the C pickler frames one
// object: in a FRAME when the frame reaches 4 bytes, and a payload of 64 KiB or more outside
// any frame (the frame before it is empty, the one after holds MEMOIZE STOP: too short).
std::string PickleOneValue(const std::string& header, std::string_view payload) {
  std::string out(kProto4, 2);
  if (payload.size() >= kFrameSizeTarget) {
    out += header;
    out.append(payload);
    out += "\x94.";
    return out;
  }
  std::string frame = header;
  frame.append(payload);
  frame += "\x94.";
  if (frame.size() >= kFrameSizeMin) {
    out.push_back('\x95');
    AppendLe(&out, frame.size(), 8);
  }
  return out + frame;
}

std::string LengthHeader(std::string_view payload, char op1, char op4, char op8) {
  std::string h;
  if (payload.size() < 256) {
    h.push_back(op1);
    AppendLe(&h, payload.size(), 1);
  } else if (payload.size() <= 0xffffffffu) {
    h.push_back(op4);
    AppendLe(&h, payload.size(), 4);
  } else {
    h.push_back(op8);
    AppendLe(&h, payload.size(), 8);
  }
  return h;
}

}  // namespace

std::string PickleNone() { return std::string(kProto4, 2) + "N."; }

std::string PickleStr(std::string_view utf8) {
  return PickleOneValue(LengthHeader(utf8, '\x8c', 'X', '\x8d'), utf8);
}

std::string PickleBytes(std::string_view raw) {
  return PickleOneValue(LengthHeader(raw, 'C', 'B', '\x8e'), raw);
}

}  // namespace graphport::mge

// The writer behind proto_json.h (internal to src/proto/proto_json*.cc; not part of the API).
// Its member functions are spread over files by job: proto_json.cc walks a message's JSON
// (objects, lists, maps, Any), proto_json_encode.cc turns one JSON value or map key into what
// goes on the wire, proto_json_writer.cc puts fields and map entries in order and words the
// errors. The small steps every value takes (appending it, opening and closing a length) stay
// here, inline, so that the walk's calls to them cost no more than before the split.
#ifndef GRAPHPORT_PROTO_PROTO_JSON_WRITER_H_
#define GRAPHPORT_PROTO_PROTO_JSON_WRITER_H_

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/limits.h"
#include "core/utf8.h"
#include "proto/schema.h"
#include "proto/wire_scalar.h"

namespace graphport::proto::proto_json_internal {

using nlohmann::json;

// One step of the path an error message names: a field, a list index, or a map key.
struct Segment {
  enum class Kind { kField, kIndex, kKey };
  Kind kind;
  std::string_view name;  // the field's .proto name (or an unknown one as written), or a map key
  size_t index;
};

// One value as it goes on the wire: the bits of a varint or fixed-width value, or the bytes of
// a string or bytes field.
struct WireValue {
  uint64_t bits = 0;
  std::string_view text;
};

// A run of the output that may have to move: one field of a message (`order` is its number),
// or one entry of a map with integer keys (`order` sorts as the key does).
struct Piece {
  uint64_t order;
  size_t begin;
  size_t end;
};

// Writes the wire bytes of a message from its JSON. Fields go out in the order the JSON names
// them, so that errors come in that order too, and are then put in number order; the result
// is what libprotobuf's deterministic serialisation writes, which an Any's value must be.
class WireWriter {
 public:
  WireWriter(const std::string& what, ErrorCode code, std::string* out)
      : what_(what), code_(code), out_(out) {}

  // The body of a message (no tag, no length). `any_body`: `value` is the body of an Any,
  // whose "@type" member is not a field.
  void Message(const json& value, const MessageSchema& type, bool any_body);

 private:
  // --- messages, lists, maps, Any (proto_json.cc) ------------------------------------------

  void Object(const json& value, const MessageSchema& type, bool any_body);
  static const FieldSchema* FindField(const MessageSchema& type, std::string_view key);
  void Field(const json& value, const FieldSchema& field, const MessageSchema& owner);
  void Singular(const json& value, const FieldSchema& field, const MessageSchema& owner);
  void List(const json& value, const FieldSchema& field, const MessageSchema& owner);
  void Map(const json& value, const FieldSchema& field);
  void Any(const json& value, const MessageSchema& any_type);

  // --- scalars ----------------------------------------------------------------------------

  // Defined in proto_json_encode.cc.
  WireValue Encode(const json& value, const FieldSchema& field, const MessageSchema& owner);
  WireValue EncodeKey(const std::string& key, const FieldSchema& field, const MessageSchema& entry);
  int32_t EnumNumber(const json& value, const FieldSchema& field, const MessageSchema& owner);
  // An integer or bool field's bits, `read(&v)` reading the value into v's type (a JSON value
  // and a map key are read by different rules into the same bits); false for other types.
  template <typename Read>
  static bool IntegerBits(FieldType type, const Read& read, uint64_t* bits);

  static uint64_t Signed32Bits(FieldType type, int32_t v) {
    switch (type) {
      case FieldType::kSint32:
        return ZigZagEncode32(v);
      case FieldType::kSfixed32:
        return static_cast<uint32_t>(v);
      default:  // int32: sign-extended to 64 bits, as libprotobuf writes it
        return static_cast<uint64_t>(static_cast<int64_t>(v));
    }
  }
  static uint64_t Signed64Bits(FieldType type, int64_t v) {
    return type == FieldType::kSint64 ? ZigZagEncode64(v) : static_cast<uint64_t>(v);
  }
  // A signed key's value back from its wire bits, for ordering map entries.
  static int64_t KeyAsSigned(const FieldSchema& field, const WireValue& wire) {
    switch (field.type) {
      case FieldType::kSint32:
        return ZigZagDecode32(static_cast<uint32_t>(wire.bits));
      case FieldType::kSint64:
        return ZigZagDecode64(wire.bits);
      case FieldType::kSfixed32:
        return static_cast<int32_t>(static_cast<uint32_t>(wire.bits));
      default:
        return static_cast<int64_t>(wire.bits);
    }
  }

  // libprotobuf-lite refuses a proto3 string that is not UTF-8 when it parses.
  void CheckUtf8(std::string_view text, const MessageSchema& owner) {
    if (owner.proto3 && !IsAscii(text) && !IsValidUtf8(text)) {
      Fail("a string that is not UTF-8, which a proto3 string must be");
    }
  }

  static bool IsDefault(const FieldSchema& field, const WireValue& wire) {
    // Floating point by its bits, as libprotobuf decides: -0.0 is written.
    return field.is_text() ? wire.text.empty() : wire.bits == 0;
  }

  void Append(const FieldSchema& field, const WireValue& wire) {
    switch (field.wire_type()) {
      case kWireFixed32:
        AppendFixed32(out_, static_cast<uint32_t>(wire.bits));
        return;
      case kWireFixed64:
        AppendFixed64(out_, wire.bits);
        return;
      case kWireLength:
        AppendVarint(out_, wire.text.size());
        out_->append(wire.text);
        return;
      default:
        AppendVarint(out_, wire.bits);
        return;
    }
  }

  // --- lengths and order ------------------------------------------------------------------

  // A length-delimited record of field `number` whose payload follows: a one-byte length is
  // reserved, and widened by CloseLength when the payload turns out longer. Returns where the
  // payload starts.
  size_t OpenLength(int number) {
    AppendTag(out_, number, kWireLength);
    out_->push_back('\0');
    return out_->size();
  }

  // The same for a message, which is one level deeper on the wire (the caller closes it with
  // CloseLength and --wire_depth_).
  size_t OpenMessage(int number) {
    // libprotobuf parses messages nested this deep below the one it is given, and no deeper.
    if (++wire_depth_ > kMaxProtoNesting) NestingTooDeep();
    return OpenLength(number);
  }

  void CloseLength(size_t body) {
    const size_t length = out_->size() - body;
    if (length > kMaxProtoBytes) {
      Fail("the message would be 2 GiB or more, which protobuf cannot hold", ErrorCode::kTooLarge);
    }
    const int width = VarintSize(length);
    if (width > 1) out_->insert(body, static_cast<size_t>(width - 1), '\0');
    WriteVarint(length, &(*out_)[body - 1]);
  }

  // Defined in proto_json_writer.cc.
  void PutInOrder(size_t region, size_t first_piece, bool keep_last);

  // --- errors -----------------------------------------------------------------------------

  // NestingTooDeep, the second Fail and Path are defined in proto_json_writer.cc.
  [[noreturn]] void NestingTooDeep() const;

  void Check(const std::string& error) const {
    if (!error.empty()) Fail(error);
  }
  void CheckKey(const std::string& error) const {
    if (!error.empty()) Fail("map key: " + error);
  }

  [[noreturn]] void Fail(const std::string& detail) const { Fail(detail, code_); }
  [[noreturn]] void Fail(const std::string& detail, ErrorCode code) const;
  std::string Path() const;

  const std::string& what_;
  ErrorCode code_;
  std::string* out_;
  std::vector<Segment> path_;
  int depth_ = 0;              // messages as JSON nests them
  int wire_depth_ = 0;         // messages as the wire nests them, below the one being written
  std::vector<Piece> pieces_;  // of the messages and maps being written
  std::vector<const FieldSchema*> set_oneofs_;  // of the messages being written
  std::string decoded_;                         // a bytes value, until it is appended
  std::string scratch_;                         // PutInOrder's copy
};

}  // namespace graphport::proto::proto_json_internal

#endif  // GRAPHPORT_PROTO_PROTO_JSON_WRITER_H_

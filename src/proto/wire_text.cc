#include "proto/wire_text.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <unordered_map>
#include <vector>

#include "proto/text_escape.h"
#include "proto/text_real.h"
#include "proto/wire_reader.h"
#include "proto/wire_scalar.h"
#include "proto/wire_text_memo.h"

namespace graphport::proto {

namespace {

// Enums whose numbers span at most this many values get a table of names.
constexpr int64_t kMaxEnumTable = 4096;
// The longest scalar value: "-1.7976931348623157e+308", "-9223372036854775808".
constexpr size_t kMaxScalarChars = kMaxRealChars;
// A long string is escaped this many input bytes at a time (each may become 4).
constexpr size_t kEscapePiece = 16 << 10;
// Short copies write whole 8-byte words, up to 7 bytes past their end: room for those.
constexpr size_t kSlack = 8;
// The deepest line: an initial indent and a nesting of kMaxProtoNesting each (what a walk
// enters: proto/wire_reader.h), two spaces a level.
constexpr size_t kMaxIndentChars = 4 * (kMaxProtoNesting + 1);

enum class Kind : uint8_t {
  kInt32,
  kInt64,
  kUint32,
  kUint64,
  kSint32,
  kSint64,
  kBool,
  kEnum,
  kFixed32,
  kFixed64,
  kSfixed32,
  kSfixed64,
  kFloat,
  kDouble,
  kString,  // string and bytes: both are printed CEscape'd
  kMessage,
};

// Names of an enum's values by number. FindByNumber gives the first value declared with a
// number (aliases share one), which is the name the printer prints.
struct EnumNames {
  const EnumSchema* type = nullptr;
  int64_t min = 0;
  std::vector<const EnumValueSchema*> table;  // empty when the numbers are too spread out

  const EnumValueSchema* Find(int32_t number) const {
    if (!table.empty()) {
      int64_t i = static_cast<int64_t>(number) - min;
      return i >= 0 && i < static_cast<int64_t>(table.size()) ? table[i] : nullptr;
    }
    return type->FindByNumber(number);
  }
};

// A short text that can be copied eight bytes at a time: zeros pad it past its end.
struct PaddedText {
  std::string bytes;  // the text, then the padding
  size_t size = 0;

  void Set(std::string_view text) {
    size = text.size();
    bytes = std::string(text) + std::string(8, '\0');
  }
};

struct TypeTable;

struct FieldEntry {
  const FieldSchema* field = nullptr;
  Kind kind = Kind::kInt32;
  int wire_type = kWireVarint;
  bool packable = false;
  bool map_entry = false;    // a map field: its entries' text is remembered (WireTextMemo)
  PaddedText scalar_prefix;  // "name: "
  PaddedText message_open;   // "name {\n"
  const EnumNames* enum_names = nullptr;
  TypeTable* message = nullptr;  // for kMessage, resolved on first use
};

struct TypeTable {
  const MessageSchema* type = nullptr;
  std::vector<FieldEntry> fields;  // by number, up to the largest (or kMaxTabledField)
};

Kind KindOf(FieldType type) {
  switch (type) {
    case FieldType::kInt32:
      return Kind::kInt32;
    case FieldType::kInt64:
      return Kind::kInt64;
    case FieldType::kUint32:
      return Kind::kUint32;
    case FieldType::kUint64:
      return Kind::kUint64;
    case FieldType::kSint32:
      return Kind::kSint32;
    case FieldType::kSint64:
      return Kind::kSint64;
    case FieldType::kBool:
      return Kind::kBool;
    case FieldType::kEnum:
      return Kind::kEnum;
    case FieldType::kFixed32:
      return Kind::kFixed32;
    case FieldType::kFixed64:
      return Kind::kFixed64;
    case FieldType::kSfixed32:
      return Kind::kSfixed32;
    case FieldType::kSfixed64:
      return Kind::kSfixed64;
    case FieldType::kFloat:
      return Kind::kFloat;
    case FieldType::kDouble:
      return Kind::kDouble;
    case FieldType::kString:
    case FieldType::kBytes:
      return Kind::kString;
    default:  // messages; groups are refused before they reach a table
      return Kind::kMessage;
  }
}

}  // namespace

struct WireTextPrinter::Tables {
  std::unordered_map<const MessageSchema*, std::unique_ptr<TypeTable>> types;
  std::unordered_map<const EnumSchema*, std::unique_ptr<EnumNames>> enums;
  std::map<const FieldSchema*, std::unique_ptr<FieldEntry>> large_numbers;
  WireTextMemo entries;

  TypeTable* For(const MessageSchema& type) {
    auto& slot = types[&type];
    if (slot != nullptr) return slot.get();
    slot = std::make_unique<TypeTable>();
    TypeTable* table = slot.get();
    table->type = &type;
    int largest = 0;
    for (const FieldSchema& f : type) largest = std::max(largest, f.number);
    table->fields.resize(std::min(largest, kMaxTabledField) + 1);
    for (const FieldSchema& f : type) {
      if (f.number <= kMaxTabledField) Describe(f, &table->fields[f.number]);
    }
    return table;
  }

  // Null for a number the type does not have (or a group: left to libprotobuf).
  FieldEntry* Field(TypeTable* table, int number) {
    FieldEntry* entry = nullptr;
    if (number < static_cast<int>(table->fields.size())) {
      entry = &table->fields[number];
    } else {
      const FieldSchema* f = table->type->FindFieldByNumber(number);
      if (f == nullptr) return nullptr;
      auto& slot = large_numbers[f];
      if (slot == nullptr) {
        slot = std::make_unique<FieldEntry>();
        Describe(*f, slot.get());
      }
      entry = slot.get();
    }
    return entry->field != nullptr ? entry : nullptr;
  }

  void Describe(const FieldSchema& f, FieldEntry* entry) {
    // Groups print by their type's name; none is in a schema (the generator refuses them).
    if (f.type == FieldType::kGroup) return;
    entry->field = &f;
    entry->kind = KindOf(f.type);
    entry->wire_type = f.wire_type();
    entry->packable = f.packable();
    entry->map_entry = f.map;
    entry->scalar_prefix.Set(std::string(f.name) + ": ");
    entry->message_open.Set(std::string(f.name) + " {\n");
    if (entry->kind == Kind::kEnum) entry->enum_names = Enum(*f.enumeration);
  }

  const EnumNames* Enum(const EnumSchema& type) {
    auto& slot = enums[&type];
    if (slot != nullptr) return slot.get();
    slot = std::make_unique<EnumNames>();
    slot->type = &type;
    int64_t min = 0, max = -1;
    for (int i = 0; i < type.value_count; ++i) {
      int64_t n = type.values[i].number;
      min = i == 0 ? n : std::min(min, n);
      max = i == 0 ? n : std::max(max, n);
    }
    if (max - min < kMaxEnumTable) {
      slot->min = min;
      slot->table.resize(static_cast<size_t>(max - min + 1));
      for (int64_t n = min; n <= max; ++n) {
        slot->table[n - min] = type.FindByNumber(static_cast<int32_t>(n));
      }
    }
    return slot.get();
  }
};

namespace {

struct Spaces {
  char text[kMaxIndentChars + kSlack];
  Spaces() { std::memset(text, ' ', sizeof text); }
};
const Spaces kSpaces;

char* WriteUnsigned(uint64_t value, char* w) {
  char digits[20];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value != 0);
  while (n > 0) *w++ = digits[--n];
  return w;
}

char* WriteSigned(int64_t value, char* w) {
  if (value >= 0) return WriteUnsigned(static_cast<uint64_t>(value), w);
  *w++ = '-';
  return WriteUnsigned(0 - static_cast<uint64_t>(value), w);
}

class Walk {
 public:
  Walk(WireTextPrinter::Tables* tables, TextOutput* out) : tables_(tables), out_(out) {}

  bool Message(const uint8_t* p, const uint8_t* end, TypeTable* type, int level, int depth,
               int left_out) {
    if (!WithinNesting(depth)) return false;
    while (p < end) {
      uint64_t tag;
      if (!ReadVarint(&p, end, &tag) || tag > UINT32_MAX) return false;
      const int number = static_cast<int>(tag >> 3);
      const int wire_type = static_cast<int>(tag & 7);
      if (number == 0) return false;
      FieldEntry* field = tables_->Field(type, number);
      const bool packed = field != nullptr && field->packable && wire_type == kWireLength;
      if (field == nullptr || number == left_out || (wire_type != field->wire_type && !packed)) {
        // Unknown fields are hidden, as the printer is told to; a left-out field is cleared.
        if (!SkipValue(&p, end, wire_type)) return false;
        continue;
      }
      if (wire_type == kWireVarint) {
        uint64_t value;
        if (!ReadVarint(&p, end, &value)) return false;
        Scalar(*field, value, level);
        continue;
      }
      if (wire_type == kWireFixed32 || wire_type == kWireFixed64) {
        size_t width = wire_type == kWireFixed64 ? 8 : 4;
        if (static_cast<size_t>(end - p) < width) return false;
        const uint64_t bits = width == 8 ? ReadFixed64(p) : ReadFixed32(p);
        p += width;
        Scalar(*field, bits, level);
        continue;
      }
      uint64_t length;
      if (!ReadVarint(&p, end, &length) || length > static_cast<uint64_t>(end - p)) return false;
      const uint8_t* start = p;
      p += length;
      if (packed) {
        if (!Packed(start, p, *field, level)) return false;
      } else if (field->kind == Kind::kString) {
        String(*field, start, static_cast<size_t>(length), level);
      } else {
        if (field->message == nullptr) field->message = tables_->For(*field->field->message);
        const bool ok = field->map_entry && WireTextMemo::Fits(static_cast<size_t>(length))
                            ? MapEntry(start, p, *field, level, depth)
                            : Nested(start, p, *field, level, depth);
        if (!ok) return false;
      }
    }
    return true;
  }

 private:
  // "name {", the message's fields one level in, "}".
  bool Nested(const uint8_t* p, const uint8_t* end, const FieldEntry& field, int level, int depth) {
    Line(level, field.message_open);
    if (!Message(p, end, field.message, level + 1, depth + 1, 0)) return false;
    char* w = Indent(out_->Reserve(2 * static_cast<size_t>(level) + 2 + kSlack), level);
    *w++ = '}';
    *w++ = '\n';
    Done(w);
    return true;
  }

  // A map entry as Nested prints it, copied from the memo when the same bytes were printed
  // here before; text printed whole into the buffer (no flush in between) is offered to it.
  bool MapEntry(const uint8_t* p, const uint8_t* end, const FieldEntry& field, int level,
                int depth) {
    const size_t size = static_cast<size_t>(end - p);
    const WireTextMemo::Context context{&field, level, depth};
    const uint64_t hash = WireTextMemo::Hash(p, size, context);
    WireTextMemo& memo = tables_->entries;
    const std::string_view known = memo.Find(p, size, hash, context);
    if (!known.empty()) {
      Done(CopyShort(out_->Reserve(known.size() + kSlack), known.data(), known.size()));
      return true;
    }
    // Reserve first, so that a flush it makes happens before the text starts.
    out_->Reserve(Room(level, field.message_open));
    const uint64_t flushes = out_->flushes();
    const char* start = out_->cursor();
    if (!Nested(p, end, field, level, depth)) return false;
    if (out_->flushes() == flushes) {
      memo.Offer(p, size, hash, context,
                 std::string_view(start, static_cast<size_t>(out_->cursor() - start)));
    }
    return true;
  }

  // Copies of a few bytes are the bulk of the work (indents, field names): whole words, which
  // compile to plain loads and stores where a memcpy call would cost more than the copy.
  static char* CopyShort(char* w, const char* text, size_t n) {
    for (size_t i = 0; i < n; i += 8) std::memcpy(w + i, text + i, 8);
    return w + n;
  }
  static char* CopyShort(char* w, const PaddedText& text) {
    return CopyShort(w, text.bytes.data(), text.size);
  }
  static char* Indent(char* w, int level) {
    return CopyShort(w, kSpaces.text, 2 * static_cast<size_t>(level));
  }
  // What a line of `level` with `text` first on it needs, slack included.
  static size_t Room(int level, const PaddedText& text) {
    return 2 * static_cast<size_t>(level) + text.size + 2 * kSlack;
  }
  void Done(char* w) { out_->Commit(w); }

  // "<indent><text>", where text ends its own line.
  void Line(int level, const PaddedText& text) {
    Done(CopyShort(Indent(out_->Reserve(Room(level, text)), level), text));
  }

  // One value of a number field, from its varint or fixed bits.
  void Scalar(const FieldEntry& field, uint64_t bits, int level) {
    char* w = out_->Reserve(Room(level, field.scalar_prefix) + kMaxScalarChars + 1);
    w = CopyShort(Indent(w, level), field.scalar_prefix);
    switch (field.kind) {
      case Kind::kInt32:
      case Kind::kSfixed32:
        w = WriteSigned(static_cast<int32_t>(static_cast<uint32_t>(bits)), w);
        break;
      case Kind::kInt64:
      case Kind::kSfixed64:
        w = WriteSigned(static_cast<int64_t>(bits), w);
        break;
      case Kind::kUint32:
      case Kind::kFixed32:
        w = WriteUnsigned(static_cast<uint32_t>(bits), w);
        break;
      case Kind::kUint64:
      case Kind::kFixed64:
        w = WriteUnsigned(bits, w);
        break;
      case Kind::kSint32: {
        uint32_t u = static_cast<uint32_t>(bits);
        w = WriteSigned(static_cast<int32_t>((u >> 1) ^ (~(u & 1) + 1)), w);
        break;
      }
      case Kind::kSint64:
        w = WriteSigned(static_cast<int64_t>((bits >> 1) ^ (~(bits & 1) + 1)), w);
        break;
      case Kind::kBool:
        w = WriteLiteral(bits != 0 ? "true" : "false", w);
        break;
      case Kind::kEnum: {
        int32_t number = static_cast<int32_t>(static_cast<uint32_t>(bits));
        const EnumValueSchema* value = field.enum_names->Find(number);
        if (value == nullptr) {
          w = WriteSigned(number, w);
        } else {
          // An enum name may be longer than the room reserved for a number.
          Done(w);
          w = out_->Reserve(value->name.size() + 1);
          std::memcpy(w, value->name.data(), value->name.size());
          w += value->name.size();
        }
        break;
      }
      case Kind::kFloat: {
        uint32_t u = static_cast<uint32_t>(bits);
        float value;
        std::memcpy(&value, &u, sizeof value);
        w = WriteTextFloat(value, w);
        break;
      }
      case Kind::kDouble: {
        double value;
        std::memcpy(&value, &bits, sizeof value);
        w = WriteTextDouble(value, w);
        break;
      }
      default:  // strings and messages never come here
        break;
    }
    *w++ = '\n';
    Done(w);
  }

  bool Packed(const uint8_t* p, const uint8_t* end, const FieldEntry& field, int level) {
    if (field.wire_type == kWireVarint) {
      while (p < end) {
        uint64_t value;
        if (!ReadVarint(&p, end, &value)) return false;
        Scalar(field, value, level);
      }
      return true;
    }
    size_t width = field.wire_type == kWireFixed64 ? 8 : 4;
    if (static_cast<size_t>(end - p) % width != 0) return false;
    for (; p < end; p += width) Scalar(field, width == 8 ? ReadFixed64(p) : ReadFixed32(p), level);
    return true;
  }

  // `name: "<CEscape'd bytes>"`: printable ASCII as itself, \n \r \t \" \' \\ by letter, every
  // other byte (UTF-8 too, for string and bytes fields alike) as three octal digits.
  void String(const FieldEntry& field, const uint8_t* s, size_t n, int level) {
    size_t piece = std::min(n, kEscapePiece);
    char* w = out_->Reserve(Room(level, field.scalar_prefix) + 4 * piece + 3);
    w = CopyShort(Indent(w, level), field.scalar_prefix);
    *w++ = '"';
    while (true) {
      w = CEscapeTo(s, piece, w);
      s += piece;
      n -= piece;
      if (n == 0) break;
      Done(w);
      piece = std::min(n, kEscapePiece);
      w = out_->Reserve(4 * piece + 2 + kSlack);
    }
    *w++ = '"';
    *w++ = '\n';
    Done(w);
  }

  WireTextPrinter::Tables* tables_;
  TextOutput* out_;
};

}  // namespace

WireTextPrinter::WireTextPrinter(const MessageSchema& type)
    : type_(&type), tables_(std::make_unique<Tables>()) {}
WireTextPrinter::~WireTextPrinter() = default;

bool WireTextPrinter::Print(std::string_view bytes, int indent_level, TextOutput* out,
                            int left_out) {
  if (indent_level < 0 || !WithinNesting(indent_level)) return false;
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  Walk walk(tables_.get(), out);
  return walk.Message(p, p + bytes.size(), tables_->For(*type_), indent_level, 0, left_out);
}

}  // namespace graphport::proto

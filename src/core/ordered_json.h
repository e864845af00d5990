// A JSON value whose objects keep their members in the order they were added, for the outputs
// where key order is part of the format (a TF.js model.json, MegEngine's strip-info file), and
// its compact text exactly as nlohmann::json::dump() writes it. It replaces
// nlohmann::ordered_json, a second instantiation of all of nlohmann's templates in the
// WebAssembly module: only doubles go through nlohmann::json here (its shortest round-trip
// text). JSON that is read stays nlohmann::json.
#ifndef GRAPHPORT_CORE_ORDERED_JSON_H_
#define GRAPHPORT_CORE_ORDERED_JSON_H_

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace graphport {

class OrderedJson {
 public:
  enum class Kind { kNull, kBool, kInt, kUInt, kDouble, kString, kArray, kObject };
  using Member = std::pair<std::string, OrderedJson>;

  OrderedJson() = default;        // null
  OrderedJson(std::nullptr_t) {}  // NOLINT(google-explicit-constructor): null, as in JSON
  OrderedJson(bool value) : kind_(Kind::kBool) { bool_ = value; }  // NOLINT
  // Signed integers are kInt, unsigned ones kUInt: both print as plain decimal.
  template <typename T,
            std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  OrderedJson(T value) {  // NOLINT(google-explicit-constructor)
    if constexpr (std::is_signed_v<T>) {
      kind_ = Kind::kInt;
      int_ = value;
    } else {
      kind_ = Kind::kUInt;
      uint_ = value;
    }
  }
  OrderedJson(double value) : kind_(Kind::kDouble) { double_ = value; }  // NOLINT
  OrderedJson(std::string value);                                        // NOLINT
  OrderedJson(const char* value) : OrderedJson(std::string(value)) {}    // NOLINT

  static OrderedJson Object(std::initializer_list<Member> members = {});
  static OrderedJson Array();
  // The same value; objects in nlohmann::json's order (sorted by key).
  static OrderedJson FromJson(const nlohmann::json& value);

  // JSON text read with its objects' member order kept. A key given twice keeps its first
  // place and its last value (as nlohmann::ordered_json and Python's json.load do). Values
  // nesting deeper than `max_depth` are refused, so none is built, printed or destroyed
  // recursively. On failure: nullopt, and *error (when given) says why.
  static std::optional<OrderedJson> Parse(std::string_view text, int max_depth,
                                          std::string* error = nullptr);

  OrderedJson(const OrderedJson& other);
  OrderedJson(OrderedJson&& other) noexcept;
  OrderedJson& operator=(const OrderedJson& other);
  OrderedJson& operator=(OrderedJson&& other) noexcept;
  ~OrderedJson();

  Kind kind() const { return kind_; }
  bool is_null() const { return kind_ == Kind::kNull; }
  bool is_object() const { return kind_ == Kind::kObject; }
  bool is_array() const { return kind_ == Kind::kArray; }
  bool is_string() const { return kind_ == Kind::kString; }

  // Leaf values; each only for its own kind.
  bool bool_value() const { return bool_; }
  int64_t int_value() const { return int_; }
  uint64_t uint_value() const { return uint_; }
  double double_value() const { return double_; }
  const std::string& string_value() const { return *string_; }

  // An object's member `key`, added as null at the end when absent. A null value becomes an
  // empty object first, as in nlohmann::json; any other kind is a bug of the caller and
  // throws graphport::Error (kInternal).
  OrderedJson& operator[](std::string_view key);
  // An object's member `key`, or nullptr when absent or when this is not an object.
  const OrderedJson* Find(std::string_view key) const;
  // Appends to an array (a null value becomes an empty array first; any other kind: as above).
  void PushBack(OrderedJson value);

  // The elements of an array and the members of an object, in order; each only for its kind.
  const std::vector<OrderedJson>& items() const { return *items_; }
  std::vector<OrderedJson>& items() { return *items_; }
  const std::vector<Member>& members() const { return *members_; }
  std::vector<Member>& members() { return *members_; }

  // Appends the text nlohmann::json::dump() writes for the same value (no spaces, strings
  // escaped as it does, non-ASCII kept as UTF-8, a non-finite double as null). False when a
  // string is not UTF-8, which JSON cannot hold; *out is then incomplete.
  bool Dump(std::string* out) const;
  // Appends what Dump writes for a string of this text, for JSON written without a tree;
  // false, with nothing written, when the text is not UTF-8.
  static bool DumpString(std::string_view text, std::string* out);

 private:
  void Destroy();
  void CopyFrom(const OrderedJson& other);
  void MoveFrom(OrderedJson* other);
  void CopyLeaf(const OrderedJson& other);
  std::vector<Member>& ObjectForWrite();

  Kind kind_ = Kind::kNull;
  // 16 bytes like an nlohmann::json: a graph's model.json holds millions of these.
  union {
    bool bool_;
    int64_t int_ = 0;
    uint64_t uint_;
    double double_;
    std::string* string_;
    std::vector<OrderedJson>* items_;
    std::vector<Member>* members_;
  };
};

}  // namespace graphport

#endif  // GRAPHPORT_CORE_ORDERED_JSON_H_

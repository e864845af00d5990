#include "core/ordered_json.h"

#include <algorithm>
#include <numeric>

#include "core/error.h"
#include "core/utf8.h"

namespace graphport {
namespace {

// nlohmann's escaping: the two-character escapes it knows, \u00xx (lowercase hex) for the
// other control characters, every other byte as it is (DEL and valid UTF-8 included).
void EscapeString(std::string_view s, std::string* out) {
  static const char kHex[] = "0123456789abcdef";
  out->push_back('"');
  size_t start = 0;  // bytes before `i` not yet copied
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out->append(s.data() + start, i - start);
    start = i + 1;
    switch (c) {
      case '"':
        *out += "\\\"";
        break;
      case '\\':
        *out += "\\\\";
        break;
      case '\b':
        *out += "\\b";
        break;
      case '\t':
        *out += "\\t";
        break;
      case '\n':
        *out += "\\n";
        break;
      case '\f':
        *out += "\\f";
        break;
      case '\r':
        *out += "\\r";
        break;
      default:
        *out += "\\u00";
        out->push_back(kHex[c >> 4]);
        out->push_back(kHex[c & 0xf]);
    }
  }
  out->append(s.data() + start, s.size() - start);
  out->push_back('"');
}

[[noreturn]] void WrongKind(const char* what) {
  throw Error(ErrorCode::kInternal, std::string("OrderedJson: ") + what);
}

// Builds the tree from nlohmann's SAX events (its parser and lexer are the ones nlohmann::json
// already uses), keeping each object's member order.
class TreeBuilder {
 public:
  explicit TreeBuilder(int max_depth) : max_depth_(max_depth) {}

  bool null() { return Add(OrderedJson()) != nullptr; }
  bool boolean(bool value) { return Add(value) != nullptr; }
  bool number_integer(int64_t value) { return Add(value) != nullptr; }
  bool number_unsigned(uint64_t value) { return Add(value) != nullptr; }
  bool number_float(double value, const std::string&) { return Add(value) != nullptr; }
  bool string(std::string& value) { return Add(std::move(value)) != nullptr; }
  bool binary(nlohmann::json::binary_t&) { return false; }  // JSON text has no binary values
  bool start_object(size_t) { return Open(OrderedJson::Object()); }
  bool start_array(size_t) { return Open(OrderedJson::Array()); }
  bool key(std::string& key) {
    open_.back()->members().emplace_back(std::move(key), OrderedJson());
    return true;
  }
  bool end_object() {
    KeepFirstPlaceLastValue(&open_.back()->members());
    open_.pop_back();
    return true;
  }
  bool end_array() {
    open_.pop_back();
    return true;
  }
  bool parse_error(size_t, const std::string&, const nlohmann::json::exception& e) {
    // nlohmann's text starts "[json.exception.parse_error.101] parse error at line 1, ...".
    std::string what = e.what();
    size_t start = what.find("] ");
    error_ = start == std::string::npos ? what : what.substr(start + 2);
    return false;
  }

  OrderedJson& root() { return root_; }
  const std::string& error() const { return error_; }

 private:
  // Where the value went: the root, an array's new last element or the member key() added.
  // Containers on open_ are never appended to while a child of theirs is open, so the
  // pointers stay valid.
  OrderedJson* Add(OrderedJson value) {
    if (open_.empty()) {
      root_ = std::move(value);
      return &root_;
    }
    OrderedJson* parent = open_.back();
    if (parent->is_array()) {
      parent->items().push_back(std::move(value));
      return &parent->items().back();
    }
    parent->members().back().second = std::move(value);
    return &parent->members().back().second;
  }

  bool Open(OrderedJson container) {
    if (open_.size() >= static_cast<size_t>(max_depth_)) {
      error_ = "JSON values nest more than " + std::to_string(max_depth_) + " levels deep";
      return false;
    }
    open_.push_back(Add(std::move(container)));
    return true;
  }

  // A key given twice: its first place, its last value. Sorting the member indices by key
  // finds the repeats without a quadratic search.
  static void KeepFirstPlaceLastValue(std::vector<OrderedJson::Member>* members) {
    std::vector<OrderedJson::Member>& m = *members;
    if (m.size() < 2) return;
    std::vector<size_t> order(m.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return m[a].first < m[b].first; });
    std::vector<bool> dropped(m.size(), false);
    bool any = false;
    for (size_t i = 0; i < order.size();) {
      size_t end = i + 1;
      while (end < order.size() && m[order[end]].first == m[order[i]].first) ++end;
      if (end - i > 1) {
        any = true;
        m[order[i]].second = std::move(m[order[end - 1]].second);
        for (size_t k = i + 1; k < end; ++k) dropped[order[k]] = true;
      }
      i = end;
    }
    if (!any) return;
    size_t kept = 0;
    for (size_t i = 0; i < m.size(); ++i) {
      if (!dropped[i]) {
        if (kept != i) m[kept] = std::move(m[i]);
        ++kept;
      }
    }
    m.resize(kept);
  }

  int max_depth_;
  OrderedJson root_;
  std::vector<OrderedJson*> open_;
  std::string error_;
};

}  // namespace

OrderedJson::OrderedJson(std::string value) : kind_(Kind::kString) {
  string_ = new std::string(std::move(value));
}

OrderedJson OrderedJson::Object(std::initializer_list<Member> members) {
  OrderedJson out;
  out.kind_ = Kind::kObject;
  out.members_ = new std::vector<Member>(members);
  return out;
}

OrderedJson OrderedJson::Array() {
  OrderedJson out;
  out.kind_ = Kind::kArray;
  out.items_ = new std::vector<OrderedJson>();
  return out;
}

OrderedJson OrderedJson::FromJson(const nlohmann::json& value) {
  using T = nlohmann::json::value_t;
  switch (value.type()) {
    case T::boolean:
      return value.get<bool>();
    case T::number_integer:
      return value.get<int64_t>();
    case T::number_unsigned:
      return value.get<uint64_t>();
    case T::number_float:
      return value.get<double>();
    case T::string:
      return value.get_ref<const std::string&>();
    case T::array: {
      OrderedJson out = Array();
      out.items_->reserve(value.size());
      for (const nlohmann::json& item : value) out.items_->push_back(FromJson(item));
      return out;
    }
    case T::object: {
      OrderedJson out = Object();
      out.members_->reserve(value.size());
      for (const auto& [key, item] : value.items()) out.members_->emplace_back(key, FromJson(item));
      return out;
    }
    default:  // null; binary and discarded values are never given
      return OrderedJson();
  }
}

std::optional<OrderedJson> OrderedJson::Parse(std::string_view text, int max_depth,
                                              std::string* error) {
  TreeBuilder builder(max_depth);
  if (!nlohmann::json::sax_parse(text.begin(), text.end(), &builder)) {
    if (error != nullptr) *error = builder.error();
    return std::nullopt;
  }
  return std::move(builder.root());
}

OrderedJson::OrderedJson(const OrderedJson& other) { CopyFrom(other); }
OrderedJson::OrderedJson(OrderedJson&& other) noexcept { MoveFrom(&other); }

OrderedJson& OrderedJson::operator=(const OrderedJson& other) {
  if (this != &other) {
    OrderedJson copy(other);  // `other` may live inside this value
    Destroy();
    MoveFrom(&copy);
  }
  return *this;
}

OrderedJson& OrderedJson::operator=(OrderedJson&& other) noexcept {
  if (this != &other) {
    OrderedJson taken(std::move(other));  // `other` may live inside this value
    Destroy();
    MoveFrom(&taken);
  }
  return *this;
}

OrderedJson::~OrderedJson() { Destroy(); }

void OrderedJson::Destroy() {
  switch (kind_) {
    case Kind::kString:
      delete string_;
      break;
    case Kind::kArray:
      delete items_;
      break;
    case Kind::kObject:
      delete members_;
      break;
    default:
      break;
  }
  kind_ = Kind::kNull;
}

void OrderedJson::CopyFrom(const OrderedJson& other) {
  kind_ = other.kind_;
  switch (kind_) {
    case Kind::kString:
      string_ = new std::string(*other.string_);
      break;
    case Kind::kArray:
      items_ = new std::vector<OrderedJson>(*other.items_);
      break;
    case Kind::kObject:
      members_ = new std::vector<Member>(*other.members_);
      break;
    default:
      CopyLeaf(other);
  }
}

void OrderedJson::MoveFrom(OrderedJson* other) {
  kind_ = other->kind_;
  switch (kind_) {
    case Kind::kString:
      string_ = other->string_;
      break;
    case Kind::kArray:
      items_ = other->items_;
      break;
    case Kind::kObject:
      members_ = other->members_;
      break;
    default:
      CopyLeaf(*other);
  }
  other->kind_ = Kind::kNull;
}

void OrderedJson::CopyLeaf(const OrderedJson& other) {
  switch (other.kind_) {
    case Kind::kBool:
      bool_ = other.bool_;
      break;
    case Kind::kInt:
      int_ = other.int_;
      break;
    case Kind::kUInt:
      uint_ = other.uint_;
      break;
    case Kind::kDouble:
      double_ = other.double_;
      break;
    default:
      break;
  }
}

std::vector<OrderedJson::Member>& OrderedJson::ObjectForWrite() {
  if (kind_ == Kind::kNull) *this = Object();
  if (kind_ != Kind::kObject) WrongKind("a member of a value that is not an object");
  return *members_;
}

OrderedJson& OrderedJson::operator[](std::string_view key) {
  std::vector<Member>& members = ObjectForWrite();
  for (Member& m : members) {
    if (m.first == key) return m.second;
  }
  members.emplace_back(std::string(key), OrderedJson());
  return members.back().second;
}

const OrderedJson* OrderedJson::Find(std::string_view key) const {
  if (kind_ != Kind::kObject) return nullptr;
  for (const Member& m : *members_) {
    if (m.first == key) return &m.second;
  }
  return nullptr;
}

void OrderedJson::PushBack(OrderedJson value) {
  if (kind_ == Kind::kNull) *this = Array();
  if (kind_ != Kind::kArray) WrongKind("an element of a value that is not an array");
  items_->push_back(std::move(value));
}

bool OrderedJson::DumpString(std::string_view text, std::string* out) {
  if (!IsValidUtf8(text)) return false;
  EscapeString(text, out);
  return true;
}

bool OrderedJson::Dump(std::string* out) const {
  switch (kind_) {
    case Kind::kNull:
      *out += "null";
      return true;
    case Kind::kBool:
      *out += bool_ ? "true" : "false";
      return true;
    case Kind::kInt:
      *out += std::to_string(int_);
      return true;
    case Kind::kUInt:
      *out += std::to_string(uint_);
      return true;
    case Kind::kDouble:
      // nlohmann's shortest text that reads back as the same double, "-0.0", null if not finite.
      *out += nlohmann::json(double_).dump();
      return true;
    case Kind::kString:
      if (!IsValidUtf8(*string_)) return false;
      EscapeString(*string_, out);
      return true;
    case Kind::kArray: {
      out->push_back('[');
      for (size_t i = 0; i < items_->size(); ++i) {
        if (i > 0) out->push_back(',');
        if (!(*items_)[i].Dump(out)) return false;
      }
      out->push_back(']');
      return true;
    }
    case Kind::kObject: {
      out->push_back('{');
      for (size_t i = 0; i < members_->size(); ++i) {
        const Member& m = (*members_)[i];
        if (i > 0) out->push_back(',');
        if (!IsValidUtf8(m.first)) return false;
        EscapeString(m.first, out);
        out->push_back(':');
        if (!m.second.Dump(out)) return false;
      }
      out->push_back('}');
      return true;
    }
  }
  return true;
}

}  // namespace graphport

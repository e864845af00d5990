#include "mge/pickle/pickle_reader.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <vector>

#include "core/base64.h"

namespace graphport::mge {
namespace {

// Containers are shared between the stack and the memo, as in the unpickler, so an item
// appended after a BINGET shows in every reference.
struct Node {
  enum Kind { kMark, kNone, kBool, kInt, kBigInt, kFloat, kStr, kBytes, kList, kTuple, kDict };
  Kind kind = kNone;
  bool b = false;
  int64_t i = 0;
  double f = 0;
  std::string s;                             // str, bytes, or a big int in decimal
  std::vector<std::shared_ptr<Node>> items;  // list/tuple; dict: key, value, key, value...
};
using NodePtr = std::shared_ptr<Node>;

constexpr int kMaxDepth = 100;
constexpr size_t kMaxNodes = 1 << 20;

class Reader {
 public:
  explicit Reader(std::string_view b) : b_(b) {}
  // A pickle can make a list contain itself: the cycles are cut so every node is freed.
  ~Reader() {
    for (const auto& n : all_) n->items.clear();
  }

  bool Run(NodePtr* result, std::string* why) {
    while (pos_ < b_.size()) {
      size_t at = pos_;
      uint8_t op = static_cast<uint8_t>(b_[pos_++]);
      if (op == '.') {
        if (stack_.size() != 1 || stack_[0]->kind == Node::kMark) return Fail(at, "bad STOP", why);
        *result = stack_[0];
        return true;
      }
      if (!Step(op, at, why)) return false;
      if (++nodes_ > kMaxNodes) return Fail(at, "too many objects", why);
    }
    return Fail(pos_, "no STOP opcode", why);
  }

 private:
  bool Fail(size_t at, const std::string& what, std::string* why) {
    *why = what + " at offset " + std::to_string(at);
    return false;
  }
  bool Need(size_t n) const { return b_.size() - pos_ >= n; }
  uint64_t Le(int n) {
    uint64_t v = 0;
    for (int k = n - 1; k >= 0; --k) v = (v << 8) | static_cast<uint8_t>(b_[pos_ + k]);
    pos_ += n;
    return v;
  }
  NodePtr Make(Node::Kind kind) {
    auto n = std::make_shared<Node>();
    n->kind = kind;
    all_.push_back(n);
    return n;
  }
  bool Push(NodePtr n) {
    stack_.push_back(std::move(n));
    return true;
  }
  // Pops everything above the topmost MARK.
  bool PopMark(std::vector<NodePtr>* items) {
    for (size_t k = stack_.size(); k-- > 0;) {
      if (stack_[k]->kind == Node::kMark) {
        items->assign(stack_.begin() + k + 1, stack_.end());
        stack_.resize(k);
        return true;
      }
    }
    return false;
  }
  bool Top(Node::Kind kind, size_t below = 0) const {
    return stack_.size() > below && stack_[stack_.size() - 1 - below]->kind == kind;
  }

  bool Payload(Node::Kind kind, int len_bytes, size_t at, std::string* why) {
    if (!Need(len_bytes)) return Fail(at, "truncated length", why);
    uint64_t len = Le(len_bytes);
    if (len > b_.size() - pos_) return Fail(at, "string longer than the pickle", why);
    NodePtr n = Make(kind);
    n->s.assign(b_.substr(pos_, len));
    pos_ += len;
    return Push(n);
  }

  bool Step(uint8_t op, size_t at, std::string* why) {
    switch (op) {
      case 0x80:  // PROTO
        if (!Need(1)) return Fail(at, "truncated PROTO", why);
        ++pos_;
        return true;
      case 0x95:  // FRAME: only a length; the bytes follow inline
        if (!Need(8)) return Fail(at, "truncated FRAME", why);
        pos_ += 8;
        return true;
      case 'N':
        return Push(Make(Node::kNone));
      case 0x88:
      case 0x89: {
        NodePtr n = Make(Node::kBool);
        n->b = op == 0x88;
        return Push(n);
      }
      case 'K':
      case 'M':
      case 'J': {
        int len = op == 'K' ? 1 : op == 'M' ? 2 : 4;
        if (!Need(len)) return Fail(at, "truncated int", why);
        uint64_t v = Le(len);
        NodePtr n = Make(Node::kInt);
        n->i = op == 'J' ? static_cast<int32_t>(v) : static_cast<int64_t>(v);
        return Push(n);
      }
      case 0x8a:
      case 0x8b: {  // LONG1 / LONG4: little-endian two's complement
        int lb = op == 0x8a ? 1 : 4;
        if (!Need(lb)) return Fail(at, "truncated long", why);
        uint64_t len = Le(lb);
        if (len > b_.size() - pos_) return Fail(at, "long longer than the pickle", why);
        std::string_view digits = b_.substr(pos_, len);
        pos_ += len;
        return PushLong(digits);
      }
      case 'G': {
        if (!Need(8)) return Fail(at, "truncated float", why);
        uint64_t bits = 0;
        for (int k = 0; k < 8; ++k) bits = (bits << 8) | static_cast<uint8_t>(b_[pos_ + k]);
        pos_ += 8;
        NodePtr n = Make(Node::kFloat);
        std::memcpy(&n->f, &bits, 8);
        return Push(n);
      }
      case 0x8c:
        return Payload(Node::kStr, 1, at, why);
      case 'X':
        return Payload(Node::kStr, 4, at, why);
      case 0x8d:
        return Payload(Node::kStr, 8, at, why);
      case 'C':
        return Payload(Node::kBytes, 1, at, why);
      case 'B':
        return Payload(Node::kBytes, 4, at, why);
      case 0x8e:
        return Payload(Node::kBytes, 8, at, why);
      case 0x94:  // MEMOIZE
        if (stack_.empty()) return Fail(at, "MEMOIZE on an empty stack", why);
        memo_[memo_.size()] = stack_.back();
        return true;
      case 'q':
      case 'r': {  // BINPUT / LONG_BINPUT
        int len = op == 'q' ? 1 : 4;
        if (!Need(len) || stack_.empty()) return Fail(at, "bad PUT", why);
        memo_[Le(len)] = stack_.back();
        return true;
      }
      case 'h':
      case 'j': {  // BINGET / LONG_BINGET
        int len = op == 'h' ? 1 : 4;
        if (!Need(len)) return Fail(at, "truncated GET", why);
        auto it = memo_.find(Le(len));
        if (it == memo_.end()) return Fail(at, "GET of an unknown memo entry", why);
        return Push(it->second);
      }
      case '(':
        return Push(Make(Node::kMark));
      case ']':
        return Push(Make(Node::kList));
      case ')':
        return Push(Make(Node::kTuple));
      case '}':
        return Push(Make(Node::kDict));
      case 'a':  // APPEND
        if (stack_.size() < 2 || !Top(Node::kList, 1)) return Fail(at, "bad APPEND", why);
        stack_[stack_.size() - 2]->items.push_back(stack_.back());
        stack_.pop_back();
        return true;
      case 'e': {  // APPENDS
        std::vector<NodePtr> items;
        if (!PopMark(&items) || !Top(Node::kList)) return Fail(at, "bad APPENDS", why);
        for (auto& item : items) stack_.back()->items.push_back(item);
        return true;
      }
      case 's':  // SETITEM
        if (stack_.size() < 3 || !Top(Node::kDict, 2)) return Fail(at, "bad SETITEM", why);
        {
          Node& dict = *stack_[stack_.size() - 3];
          dict.items.push_back(stack_[stack_.size() - 2]);
          dict.items.push_back(stack_.back());
          stack_.resize(stack_.size() - 2);
        }
        return true;
      case 'u': {  // SETITEMS
        std::vector<NodePtr> items;
        if (!PopMark(&items) || items.size() % 2 || !Top(Node::kDict)) {
          return Fail(at, "bad SETITEMS", why);
        }
        for (auto& item : items) stack_.back()->items.push_back(item);
        return true;
      }
      case 0x85:
      case 0x86:
      case 0x87: {  // TUPLE1..3
        size_t n = op - 0x84;
        if (stack_.size() < n) return Fail(at, "bad TUPLEn", why);
        NodePtr t = Make(Node::kTuple);
        t->items.assign(stack_.end() - n, stack_.end());
        for (auto& item : t->items) {
          if (item->kind == Node::kMark) return Fail(at, "MARK inside TUPLEn", why);
        }
        stack_.resize(stack_.size() - n);
        return Push(t);
      }
      case 't': {
        NodePtr t = Make(Node::kTuple);
        if (!PopMark(&t->items)) return Fail(at, "TUPLE without MARK", why);
        return Push(t);
      }
      default: {
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02x", op);
        return Fail(at, std::string("opcode ") + hex + " is not a plain value", why);
      }
    }
  }

  // Up to 8 bytes fit an int64 (sign-extended); longer ones are kept as decimal text.
  bool PushLong(std::string_view le) {
    NodePtr n = Make(Node::kInt);
    if (le.size() <= 8) {
      uint64_t v = 0;
      for (size_t k = le.size(); k-- > 0;) v = (v << 8) | static_cast<uint8_t>(le[k]);
      if (!le.empty() && le.size() < 8 && (static_cast<uint8_t>(le.back()) & 0x80)) {
        v |= ~uint64_t{0} << (8 * le.size());
      }
      n->i = static_cast<int64_t>(v);
      return Push(n);
    }
    n->kind = Node::kBigInt;
    n->s = BigDecimal(le);
    return Push(n);
  }

  static std::string BigDecimal(std::string_view le) {
    bool negative = !le.empty() && (static_cast<uint8_t>(le.back()) & 0x80);
    std::vector<uint8_t> mag(le.begin(), le.end());
    if (negative) {  // two's complement magnitude
      for (auto& byte : mag) byte = static_cast<uint8_t>(~byte);
      for (auto& byte : mag) {
        if (++byte != 0) break;
      }
    }
    std::string digits;
    while (true) {
      bool zero = true;
      unsigned rem = 0;
      for (size_t k = mag.size(); k-- > 0;) {
        unsigned cur = (rem << 8) | mag[k];
        mag[k] = static_cast<uint8_t>(cur / 10);
        rem = cur % 10;
        if (mag[k]) zero = false;
      }
      digits.insert(digits.begin(), static_cast<char>('0' + rem));
      if (zero) break;
    }
    return negative ? "-" + digits : digits;
  }

  std::string_view b_;
  size_t pos_ = 0;
  size_t nodes_ = 0;
  std::vector<NodePtr> stack_;
  std::map<uint64_t, NodePtr> memo_;
  std::vector<NodePtr> all_;
};

bool ToJson(const Node& n, int depth, nlohmann::json* out, std::string* why) {
  if (depth > kMaxDepth) {
    *why = "nesting deeper than " + std::to_string(kMaxDepth) + " (or a recursive value)";
    return false;
  }
  switch (n.kind) {
    case Node::kMark:
      *why = "a MARK left on the stack";
      return false;
    case Node::kNone:
      *out = nullptr;
      return true;
    case Node::kBool:
      *out = n.b;
      return true;
    case Node::kInt:
      *out = n.i;
      return true;
    case Node::kBigInt:
      *out = n.s;
      return true;
    case Node::kFloat:
      if (std::isnan(n.f)) {
        *out = "nan";
      } else if (std::isinf(n.f)) {
        *out = n.f > 0 ? "inf" : "-inf";
      } else {
        *out = n.f;
      }
      return true;
    case Node::kStr:
      *out = n.s;
      return true;
    case Node::kBytes:
      *out = nlohmann::json{{"$bytes", Base64Encode(n.s)}};
      return true;
    case Node::kList:
    case Node::kTuple: {
      *out = nlohmann::json::array();
      for (const auto& item : n.items) {
        nlohmann::json v;
        if (!ToJson(*item, depth + 1, &v, why)) return false;
        out->push_back(std::move(v));
      }
      return true;
    }
    case Node::kDict: {
      bool str_keys = true;
      for (size_t k = 0; k < n.items.size(); k += 2) {
        if (n.items[k]->kind != Node::kStr) str_keys = false;
      }
      nlohmann::json obj = str_keys ? nlohmann::json::object() : nlohmann::json::array();
      for (size_t k = 0; k < n.items.size(); k += 2) {
        nlohmann::json key, value;
        if (!ToJson(*n.items[k], depth + 1, &key, why)) return false;
        if (!ToJson(*n.items[k + 1], depth + 1, &value, why)) return false;
        if (str_keys) {
          obj[key.get<std::string>()] = std::move(value);
        } else {
          obj.push_back(nlohmann::json::array({std::move(key), std::move(value)}));
        }
      }
      *out = str_keys ? std::move(obj) : nlohmann::json{{"$dict", std::move(obj)}};
      return true;
    }
  }
  return false;
}

}  // namespace

bool ReadPlainPickle(std::string_view bytes, nlohmann::json* value, std::string* why) {
  Reader reader(bytes);
  NodePtr root;
  if (!reader.Run(&root, why)) return false;
  return ToJson(*root, 0, value, why);
}

}  // namespace graphport::mge

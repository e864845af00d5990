#include "tf/meta_graph/version_string.h"

#include <cctype>
#include <initializer_list>
#include <string>

namespace graphport::tf {
namespace {

class Cursor {
 public:
  explicit Cursor(std::string_view text) : text_(text) {}
  bool done() const { return pos_ == text_.size(); }
  size_t pos() const { return pos_; }
  void Reset(size_t pos) { pos_ = pos; }

  bool Digits() {
    size_t start = pos_;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    return pos_ > start;
  }
  bool Char(char c) {
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool Separator() { return Char('.') || Char('-') || Char('_'); }
  // One of `words`, case-insensitively; the longest that matches.
  bool Word(std::initializer_list<const char*> words) {
    size_t best = 0;
    for (const char* w : words) {
      std::string_view word(w);
      if (text_.size() - pos_ < word.size()) continue;
      bool match = true;
      for (size_t i = 0; i < word.size() && match; ++i) {
        match = std::tolower(static_cast<unsigned char>(text_[pos_ + i])) == word[i];
      }
      if (match && word.size() > best) best = word.size();
    }
    pos_ += best;
    return best > 0;
  }
  bool LocalSegment() {
    size_t start = pos_;
    while (pos_ < text_.size() && std::isalnum(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    return pos_ > start;
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;
};

// An optional part: [sep] word [sep] [digits]. Rewinds when the word is not there.
bool Optional(Cursor* c, std::initializer_list<const char*> words) {
  size_t start = c->pos();
  c->Separator();
  if (!c->Word(words)) {
    c->Reset(start);
    return false;
  }
  size_t before_number = c->pos();
  c->Separator();
  if (!c->Digits()) c->Reset(before_number);
  return true;
}

}  // namespace

bool IsPep440Version(std::string_view version) {
  Cursor c(version);
  c.Char('v') || c.Char('V');
  size_t start = c.pos();
  if (c.Digits() && !c.Char('!')) c.Reset(start);  // no epoch after all
  if (!c.Digits()) return false;
  while (true) {
    size_t dot = c.pos();
    if (!c.Char('.')) break;
    if (!c.Digits()) {
      c.Reset(dot);
      break;
    }
  }
  Optional(&c, {"a", "b", "c", "rc", "alpha", "beta", "pre", "preview"});
  size_t post = c.pos();
  if (!(c.Char('-') && c.Digits())) {
    c.Reset(post);
    Optional(&c, {"post", "rev", "r"});
  }
  Optional(&c, {"dev"});
  if (c.Char('+')) {
    if (!c.LocalSegment()) return false;
    while (c.Separator()) {
      if (!c.LocalSegment()) return false;
    }
  }
  return c.done();
}

}  // namespace graphport::tf

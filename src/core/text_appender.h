// Appends to a std::string through a pointer into its own bytes. std::string's members are
// compiled once, in the standard library (an extern template): in WebAssembly each push_back
// or append is a call, which led the profile of a TF.js export that prints JSON a character
// at a time. This writes inline and grows the string (without zeroing) only when it is full.
#ifndef GRAPHPORT_CORE_TEXT_APPENDER_H_
#define GRAPHPORT_CORE_TEXT_APPENDER_H_

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>

#include "core/copy_bytes.h"
#include "core/resize_for_overwrite.h"

namespace graphport {

class TextAppender {
 public:
  // Appends after what `*text` holds; *text is not to be used otherwise until this is gone.
  explicit TextAppender(std::string* text)
      : text_(text), data_(text->data()), used_(text->size()), room_(used_) {}
  // Leaves *text holding what it held and what was appended.
  ~TextAppender() { text_->resize(used_); }
  TextAppender(const TextAppender&) = delete;
  TextAppender& operator=(const TextAppender&) = delete;

  void Put(char c) {
    if (used_ == room_) Grow(1);
    data_[used_++] = c;
  }
  void Put(std::string_view s) {
    if (room_ - used_ < s.size()) Grow(s.size());
    CopyBytes(data_ + used_, s.data(), s.size());
    used_ += s.size();
  }

  // What *text holds so far: what it held and what was appended.
  size_t size() const { return used_; }
  // Room for `more` bytes after that, taken at once (see std::string::reserve): a caller that
  // can estimate a large text spares its regrowth by doubling.
  void Reserve(size_t more) {
    if (room_ - used_ >= more) return;
    text_->resize(used_);  // only the text is copied if the string moves
    text_->reserve(used_ + more);
    room_ = text_->capacity();
    ResizeForOverwrite(text_, room_);
    data_ = text_->data();
  }

 private:
  void Grow(size_t more) {
    // The string's own capacity first; past it, its resize grows it geometrically.
    room_ = std::max({used_ + more, used_ + 256, text_->capacity()});
    ResizeForOverwrite(text_, room_);
    data_ = text_->data();
  }

  std::string* text_;
  char* data_;   // text_->data()
  size_t used_;  // the bytes of *text_ that are text
  size_t room_;  // *text_'s size: used_ and what may be written after it
};

}  // namespace graphport

#endif  // GRAPHPORT_CORE_TEXT_APPENDER_H_

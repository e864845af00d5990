#include "core/input_set.h"

#include <algorithm>

#include "core/error.h"

namespace graphport {

const std::string& InputSet::preferred() const {
  static const std::string* none = new std::string();
  return *none;
}

bool InputSet::Has(const std::string& name) const {
  const auto& names = Names();
  return std::binary_search(names.begin(), names.end(), name);
}

std::string InputSet::DisplayName(const std::string& name) const {
  const auto& names = Names();
  // A single file's label is the file itself (its path, for the CLI): a name other than its
  // own, such as the shard a model.json names, sits beside it, not inside it.
  if (names.size() == 1 && InputBaseName(label()) == names[0]) {
    if (names[0] == name) return label();
    return label().substr(0, label().size() - names[0].size()) + name;
  }
  if (label().empty()) return name;
  return label() + "/" + name;
}

SingleInputSet::SingleInputSet(ByteSource* source, std::string name, std::string label)
    : source_(source), names_{name.empty() ? "input" : std::move(name)}, label_(std::move(label)) {
  if (label_.empty()) label_ = names_[0];
}

ByteSource* SingleInputSet::Open(const std::string& name) {
  if (name != names_[0]) {
    throw Error(ErrorCode::kNotFound, label_ + ": there is no input named '" + name + "'");
  }
  if (opened_ && !source_->Rewind()) {
    throw Error(ErrorCode::kIo, label_ + ": the input cannot be read a second time");
  }
  opened_ = true;
  return source_;
}

bool SingleInputSet::Size(const std::string& name, uint64_t* size) const {
  return name == names_[0] && source_->SizeHint(size);
}

void MemoryInputSet::Add(const std::string& name, std::string_view bytes) {
  if (bytes_.find(name) == bytes_.end()) {
    names_.insert(std::upper_bound(names_.begin(), names_.end(), name), name);
  }
  bytes_[name] = bytes;
  open_.erase(name);
}

ByteSource* MemoryInputSet::Open(const std::string& name) {
  auto it = bytes_.find(name);
  if (it == bytes_.end()) {
    throw Error(ErrorCode::kNotFound, label_ + ": there is no input named '" + name + "'");
  }
  auto& source = open_[name];
  source = std::make_unique<MemorySource>(it->second);
  return source.get();
}

bool MemoryInputSet::Size(const std::string& name, uint64_t* size) const {
  auto it = bytes_.find(name);
  if (it == bytes_.end()) return false;
  *size = it->second.size();
  return true;
}

bool IsSafeInputName(std::string_view name) {
  if (name.empty() || name.front() == '/' || name.find('\\') != std::string_view::npos) {
    return false;
  }
  if (name.find('\0') != std::string_view::npos) return false;
  size_t start = 0;
  while (start <= name.size()) {
    size_t slash = name.find('/', start);
    if (slash == std::string_view::npos) slash = name.size();
    std::string_view segment = name.substr(start, slash - start);
    if (segment.empty() || segment == "." || segment == "..") return false;
    start = slash + 1;
  }
  return true;
}

std::string InputDirName(const std::string& name) {
  size_t slash = name.find_last_of('/');
  return slash == std::string::npos ? "" : name.substr(0, slash);
}

std::string InputBaseName(const std::string& name) {
  size_t slash = name.find_last_of('/');
  return slash == std::string::npos ? name : name.substr(slash + 1);
}

}  // namespace graphport

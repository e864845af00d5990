#include "cli/file_io.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "core/error.h"

namespace graphport::cli {
namespace {

[[noreturn]] void IoFail(const std::string& what, const std::string& path) {
  throw Error(ErrorCode::kIo, path + ": " + what + ": " + std::strerror(errno));
}

}  // namespace

FileSource::FileSource(const std::string& path) : path_(path) {
  file_ = std::fopen(path.c_str(), "rb");
  if (file_ == nullptr) IoFail("cannot open", path);
  if (std::fseek(file_, 0, SEEK_END) == 0) {
    long end = std::ftell(file_);
    if (end >= 0) size_ = static_cast<uint64_t>(end);
    std::fseek(file_, 0, SEEK_SET);
  }
}

FileSource::~FileSource() {
  if (file_ != nullptr) std::fclose(file_);
}

size_t FileSource::Read(uint8_t* dst, size_t max) {
  size_t n = std::fread(dst, 1, max, file_);
  if (n == 0 && std::ferror(file_)) IoFail("read failed", path_);
  return n;
}

bool FileSource::SizeHint(uint64_t* size) const {
  *size = size_;
  return true;
}

bool FileSource::Rewind() { return std::fseek(file_, 0, SEEK_SET) == 0; }

namespace fs = std::filesystem;

bool IsDirectory(const std::string& path) {
  std::error_code ec;
  return fs::is_directory(path, ec);
}

DirectoryInputSet::DirectoryInputSet(const std::string& directory, std::string preferred,
                                     bool recursive)
    : directory_(directory), preferred_(std::move(preferred)) {
  while (directory_.size() > 1 && directory_.back() == '/') directory_.pop_back();
  std::error_code ec;
  fs::recursive_directory_iterator it(directory_, ec), end;
  if (ec) throw Error(ErrorCode::kIo, directory_ + ": cannot read the folder: " + ec.message());
  for (; it != end; it.increment(ec)) {
    if (ec) throw Error(ErrorCode::kIo, directory_ + ": cannot read the folder: " + ec.message());
    std::string base = it->path().filename().string();
    if (!base.empty() && base[0] == '.') {
      if (it->is_directory(ec)) it.disable_recursion_pending();
      continue;
    }
    if (!recursive && it->is_directory(ec)) it.disable_recursion_pending();
    if (!it->is_regular_file(ec)) continue;
    std::string relative = fs::relative(it->path(), directory_, ec).generic_string();
    if (ec || !IsSafeInputName(relative)) continue;
    names_.push_back(relative);
    sizes_[relative] = it->file_size(ec);
  }
  std::sort(names_.begin(), names_.end());
}

ByteSource* DirectoryInputSet::Open(const std::string& name) {
  if (sizes_.count(name) == 0) {
    throw Error(ErrorCode::kNotFound, directory_ + ": there is no file named '" + name + "'");
  }
  auto& source = open_[name];
  source = std::make_unique<FileSource>(directory_ + "/" + name);
  return source.get();
}

bool DirectoryInputSet::Size(const std::string& name, uint64_t* size) const {
  auto it = sizes_.find(name);
  if (it == sizes_.end()) return false;
  *size = it->second;
  return true;
}

void FileSink::Write(const uint8_t* data, size_t size) {
  if (std::fwrite(data, 1, size, file_) != size) IoFail("write failed", path_);
}

DirectoryOutputSet::~DirectoryOutputSet() {
  if (file_ != nullptr) {
    std::fclose(file_);
    std::remove(current_.temp_path.c_str());
  }
  for (const auto& p : closed_) std::remove(p.temp_path.c_str());
}

ByteSink* DirectoryOutputSet::Open(const std::string& name) {
  if (!IsSafeInputName(name)) {
    throw Error(ErrorCode::kInvalidOption,
                "'" + name + "' is not a file name inside the output folder");
  }
  current_.final_path = directory_.empty() ? name : directory_ + "/" + name;
  // Folders inside the output ("variables/") are made; the output folder itself must exist.
  std::string inner = InputDirName(name);
  if (!inner.empty()) {
    std::error_code ec;
    fs::path parent = fs::path(directory_.empty() ? "." : directory_) / inner;
    fs::create_directories(parent, ec);
    if (ec) {
      throw Error(ErrorCode::kIo, parent.string() + ": cannot create the folder: " + ec.message());
    }
  }
  current_.temp_path = current_.final_path + ".graphport-partial";
  file_ = std::fopen(current_.temp_path.c_str(), "wb");
  if (file_ == nullptr) IoFail("cannot create", current_.temp_path);
  sink_ = std::make_unique<FileSink>(file_, current_.temp_path);
  return sink_.get();
}

void DirectoryOutputSet::Close() {
  int rc = std::fclose(file_);
  file_ = nullptr;
  if (rc != 0) IoFail("write failed", current_.temp_path);
  closed_.push_back(current_);
}

std::vector<std::string> DirectoryOutputSet::Commit() {
  std::vector<std::string> paths;
  for (const auto& p : closed_) {
    if (std::rename(p.temp_path.c_str(), p.final_path.c_str()) != 0) {
      IoFail("cannot rename into place", p.final_path);
    }
    paths.push_back(p.final_path);
  }
  closed_.clear();
  return paths;
}

}  // namespace graphport::cli

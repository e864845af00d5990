// Files for the native CLI: a streaming source over a file descriptor, and an OutputSet that
// writes each output to a temporary file and renames it only once every output is whole.
#ifndef GRAPHPORT_CLI_FILE_IO_H_
#define GRAPHPORT_CLI_FILE_IO_H_

#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/byte_stream.h"
#include "core/input_set.h"
#include "core/output_set.h"

namespace graphport::cli {

class FileSource : public ByteSource {
 public:
  explicit FileSource(const std::string& path);  // throws Error(kIo)
  ~FileSource() override;
  size_t Read(uint8_t* dst, size_t max) override;
  bool SizeHint(uint64_t* size) const override;
  bool Rewind() override;

 private:
  std::string path_;
  std::FILE* file_ = nullptr;
  uint64_t size_ = 0;
};

// A folder as an input set: every regular file under it (hidden ones left out), opened only
// when a reader asks for it. Symbolic links are not followed out of the folder.
class DirectoryInputSet : public InputSet {
 public:
  // Throws Error(kIo). `preferred` names the file the user gave inside the folder, if any;
  // `recursive` false lists the folder's own files only.
  explicit DirectoryInputSet(const std::string& directory, std::string preferred = "",
                             bool recursive = true);
  const std::vector<std::string>& Names() const override { return names_; }
  ByteSource* Open(const std::string& name) override;
  bool Size(const std::string& name, uint64_t* size) const override;
  const std::string& label() const override { return directory_; }
  const std::string& preferred() const override { return preferred_; }

 private:
  std::string directory_;
  std::string preferred_;
  std::vector<std::string> names_;
  std::map<std::string, uint64_t> sizes_;
  std::map<std::string, std::unique_ptr<FileSource>> open_;
};

// A path is a folder the CLI can read as an input set.
bool IsDirectory(const std::string& path);

class FileSink : public ByteSink {
 public:
  explicit FileSink(std::FILE* file, const std::string& path) : file_(file), path_(path) {}
  void Write(const uint8_t* data, size_t size) override;

 private:
  std::FILE* file_;
  std::string path_;
};

// Names may hold folders ("variables/variables.index"); they are made as needed.
class DirectoryOutputSet : public OutputSet {
 public:
  explicit DirectoryOutputSet(std::string directory) : directory_(std::move(directory)) {}
  ~DirectoryOutputSet() override;  // removes temporaries of an unfinished export
  ByteSink* Open(const std::string& name) override;
  void Close() override;
  // Renames every closed output into place; returns the final paths.
  std::vector<std::string> Commit();

 private:
  struct Pending {
    std::string temp_path;
    std::string final_path;
  };
  std::string directory_;
  std::FILE* file_ = nullptr;
  std::unique_ptr<FileSink> sink_;
  Pending current_;
  std::vector<Pending> closed_;
};

}  // namespace graphport::cli

#endif  // GRAPHPORT_CLI_FILE_IO_H_

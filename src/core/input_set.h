// A model given as several named files: one graph file, a SavedModel folder (saved_model.pb
// with variables/ and assets/), a TensorFlow.js model.json with its weight shards. It mirrors
// OutputSet. Each input is opened only when a reader asks for it, so a shard nobody needs is
// never read.
#ifndef GRAPHPORT_CORE_INPUT_SET_H_
#define GRAPHPORT_CORE_INPUT_SET_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/byte_stream.h"

namespace graphport {

class InputSet {
 public:
  virtual ~InputSet() = default;
  // Every input, as a relative path with '/' separators ("saved_model.pb",
  // "variables/variables.index"), sorted. A single file given alone has its own base name.
  virtual const std::vector<std::string>& Names() const = 0;
  // Opens an input at its first byte. Throws Error(kNotFound) for a name not in Names() and
  // Error(kIo) when the storage fails. The source is valid until the set is destroyed or the
  // same name is opened again.
  virtual ByteSource* Open(const std::string& name) = 0;
  // The size of an input when the storage knows it without reading.
  virtual bool Size(const std::string& /*name*/, uint64_t* /*size*/) const { return false; }
  // How messages name the whole set: a folder or file path, or "input".
  virtual const std::string& label() const = 0;
  // The input the caller pointed at when the others came as its companions (`graphport
  // inspect DIR/model.json` gives the folder's files with "model.json" preferred), or "".
  // Detection looks at it first.
  virtual const std::string& preferred() const;

  bool Has(const std::string& name) const;
  // The name that messages use for one input: "<label>/<name>", or the label alone for a
  // set of one file named after it.
  std::string DisplayName(const std::string& name) const;
};

// One byte source given alone (an ArrayBuffer, a stdin stream, one file). Re-opening it
// rewinds the source; a source that cannot rewind can be opened once.
class SingleInputSet : public InputSet {
 public:
  // `name` is the input's base name ("model.meta", or "input" when unknown); `label` is how
  // messages name it (often its path).
  SingleInputSet(ByteSource* source, std::string name, std::string label);
  const std::vector<std::string>& Names() const override { return names_; }
  ByteSource* Open(const std::string& name) override;
  bool Size(const std::string& name, uint64_t* size) const override;
  const std::string& label() const override { return label_; }

 private:
  ByteSource* source_;
  std::vector<std::string> names_;
  std::string label_;
  bool opened_ = false;
};

// Inputs whose bytes the caller keeps alive: tests, and a JS object of Uint8Arrays.
class MemoryInputSet : public InputSet {
 public:
  explicit MemoryInputSet(std::string label = "input") : label_(std::move(label)) {}
  // Later additions of the same name replace the earlier one.
  void Add(const std::string& name, std::string_view bytes);
  const std::vector<std::string>& Names() const override { return names_; }
  ByteSource* Open(const std::string& name) override;
  bool Size(const std::string& name, uint64_t* size) const override;
  const std::string& label() const override { return label_; }

 private:
  std::string label_;
  std::map<std::string, std::string_view> bytes_;
  std::vector<std::string> names_;
  std::map<std::string, std::unique_ptr<MemorySource>> open_;
};

// A path is a safe input name when it is relative, uses '/', and has no "", "." or ".."
// segment: a manifest that names "../x" or "/etc/x" must never reach outside the model.
bool IsSafeInputName(std::string_view name);

// "a/b/c" -> "a/b"; "c" -> "".
std::string InputDirName(const std::string& name);
// "a/b/c" -> "c".
std::string InputBaseName(const std::string& name);

}  // namespace graphport

#endif  // GRAPHPORT_CORE_INPUT_SET_H_

// The seam every model family (TensorFlow, MegEngine, TensorFlow.js) plugs into. A family
// detects its inputs, reads them into a model kept in the family's native form, inspects that
// model and exports it; its options are described by OptionSchemas. api/families.cc lists the
// families; nothing above it names one.
#ifndef GRAPHPORT_CORE_FAMILY_H_
#define GRAPHPORT_CORE_FAMILY_H_

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/byte_stream.h"
#include "core/export_preview.h"
#include "core/input_set.h"
#include "core/option_schema.h"
#include "core/output_set.h"
#include "core/result_schema.h"

namespace graphport {

// What detection may look at: the input names, and the first bytes of any input (read once,
// shared by every family's detector). The reader then takes the inputs it needs from here, so
// a stream is read from its first byte once.
class Probe {
 public:
  explicit Probe(InputSet* inputs) : inputs_(inputs) {}
  ~Probe();
  Probe(const Probe&) = delete;
  Probe& operator=(const Probe&) = delete;

  InputSet& inputs() { return *inputs_; }
  const std::vector<std::string>& names() const { return inputs_->Names(); }
  // The first kDetectionPrefixBytes of the input, or all of it when shorter.
  std::string_view Prefix(const std::string& name);
  // True when Prefix(name) is the whole input.
  bool Complete(const std::string& name);
  // The input from its first byte, for a reader. The prefix already read is replayed, so
  // sources that cannot rewind work; Prefix(name) is not valid afterwards. Each name once.
  ByteSource* Take(const std::string& name);

 private:
  struct Peeked {
    ByteSource* source = nullptr;
    std::string buffer;     // the prefix, when the source is a stream
    std::string_view view;  // the prefix (into `buffer` or the source's own memory)
    bool in_memory = false;
    bool complete = false;
    std::unique_ptr<ByteSource> replay;
  };
  Peeked& Peek(const std::string& name);
  InputSet* inputs_;
  std::map<std::string, Peeked> peeked_;
};

struct Detection {
  // 0: the inputs are not this family's. Otherwise higher is surer: kByMagic for a magic
  // number or file identifier, kByStructure for a structural parse of the first bytes,
  // kByName for a file name alone.
  int score = 0;
  static constexpr int kByMagic = 100;
  static constexpr int kByStructure = 50;
  static constexpr int kByName = 10;

  std::string format;    // the family's format name: "saved-model", "fbs-v2", "graph-model"
  std::string encoding;  // "binary", "text", "json"
  std::string primary;   // the input the reader starts from
  // Why the inputs fit, or (score 0) why they do not, with byte offsets: shown to the user.
  std::string reason;
};

// A loaded model, in its family's native form.
class FamilyModel {
 public:
  virtual ~FamilyModel() = default;
  // A plain object: the common header (SummaryHeader in core/result_schema.h), then the
  // family's own fields, as Family::results() describes them.
  virtual nlohmann::json Inspect() const = 0;
  // Writes the outputs into `out` and returns the info record (Family::results() describes it).
  // Never changes the model, so exporting twice with different options gives two correct outputs.
  // Throws Error; a file that was opened and not closed is incomplete and must not be handed back.
  virtual nlohmann::json Export(const OptionValues& options, OutputSet* out) = 0;
  // True when an export with these options writes a folder (a SavedModel with its variables,
  // a TensorFlow.js model): then the CLI's -o names that folder, not the main file.
  virtual bool WritesFolder(const OptionValues& /*options*/) const { return false; }

  // The export preview (core/export_preview.h). The export options its dry run runs with,
  // from the caller's: a family whose output loses what the preview knows nodes by (MegEngine
  // drops operator names unless asked) keeps it there; the graph is written the same.
  virtual nlohmann::json PreviewExportOptions(nlohmann::json given) const { return given; }
  // How an export with `options` renames the input's nodes (unset: it keeps their names).
  virtual PreviewRename PreviewRenaming(const OptionValues& /*options*/) const { return {}; }
  // Which option each difference belongs to, from where each acts; `info` is the dry run's
  // info record. Without rules, every difference is listed under the export itself.
  virtual std::vector<PreviewRule> PreviewRules(const OptionValues& /*options*/,
                                                const nlohmann::json& /*info*/) const {
    return {};
  }
};

class Family {
 public:
  virtual ~Family() = default;
  virtual const std::string& id() const = 0;     // "tensorflow", "megengine", "tfjs"
  virtual const std::string& title() const = 0;  // "TensorFlow"
  // The format names a caller may force with load option `format`, for --help and errors.
  virtual std::vector<std::string> formats() const = 0;
  // Options of the load itself (a SavedModel's tag set, a MegEngine graph index).
  virtual const OptionSchema& load_options() const = 0;
  virtual const OptionSchema& export_options() const = 0;
  // Its inspect() summary and export info, described (core/result_schema.h). A family that
  // describes nothing gets no result types, and its results are checked by no test.
  virtual const ResultSchema& results() const;
  // `format` is "" to detect, or one of formats() that the caller forced: then the family
  // answers for that format (score kByMagic) or says why it cannot.
  virtual Detection Detect(Probe* probe, const std::string& format) const = 0;
  virtual std::unique_ptr<FamilyModel> Read(Probe* probe, const Detection& detection,
                                            const OptionValues& load_options) const = 0;
  // The lines of the CLI's text summary after the common header (api/summary_text.cc prints
  // the header), from the object Inspect() made.
  virtual std::string SummaryText(const nlohmann::json& /*summary*/) const { return ""; }
};

}  // namespace graphport

#endif  // GRAPHPORT_CORE_FAMILY_H_

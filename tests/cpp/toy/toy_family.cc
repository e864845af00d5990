// A family that lives only in the test tree: it proves that a new family plugs in through
// core/family.h alone, and shows up in Model::Load, the CLI's grammar, --help and
// `graphport schema` (from which the TypeScript types are made) without a line changed in
// src/api, src/cli, bindings or web. tests/wasm links it into a WebAssembly module too, on
// which tests/js/toy_family.test.mjs runs gp.load, gp.optionSchema and the Node CLI. Its
// format: a text file whose first line is "TOY1", then one word per line; its options
// upper-case the words on export and add a suffix to each; its summary lists the words and
// counts their letters.
#include <nlohmann/json.hpp>

#include "api/families.h"
#include "core/error.h"
#include "core/family.h"

namespace graphport::testing {
namespace {

// The toy's export options, read once from the schema's values: the export reads fields.
struct ToyExportOptions {
  bool shout = false;
  std::string suffix;
};

ToyExportOptions ReadToyExportOptions(const OptionValues& values) {
  return {values.Bool("shout"), values.String("suffix")};
}

size_t Letters(const std::vector<std::string>& words) {
  size_t n = 0;
  for (const auto& w : words) n += w.size();
  return n;
}

class ToyModel : public FamilyModel {
 public:
  explicit ToyModel(std::vector<std::string> words) : words_(std::move(words)) {}
  nlohmann::json Inspect() const override {
    return {{"family", "toy"},
            {"familyTitle", "Toy"},
            {"format", "toy-text"},
            {"encoding", "text"},
            {"detection", "first line is TOY1"},
            {"inputBytes", 0},
            {"producerText", "a test"},
            {"counts", nlohmann::json::array({nlohmann::json::array({"words", words_.size()})})},
            {"words", words_},
            {"letters", Letters(words_)}};
  }
  nlohmann::json Export(const OptionValues& options, OutputSet* out) override {
    ByteSink* sink = out->Open("words.txt");
    const ToyExportOptions toy = ReadToyExportOptions(options);
    std::string text = "TOY1\n";
    for (std::string w : words_) {
      if (toy.shout) {
        for (char& c : w) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      }
      text += w + toy.suffix + "\n";
    }
    sink->Write(reinterpret_cast<const uint8_t*>(text.data()), text.size());
    out->Close();
    return {{"files", {"words.txt"}}, {"words", words_.size()}};
  }

 private:
  std::vector<std::string> words_;
};

class ToyFamily : public Family {
 public:
  ToyFamily() {
    schema_.family = "toy";
    schema_.title = "Toy";
    schema_.api = "toy.save";
    schema_.groups = {{"words", "Words"}};
    schema_.options.push_back(MakeOption("shout", "shout_words", OptionType::kBool, false, "words",
                                         "Shout", "Write every word in capitals."));
    OptionSpec suffix = MakeOption("suffix", "word_suffix", OptionType::kString, nullptr, "words",
                                   "Suffix", "Text written after every word.");
    suffix.metavar = "TEXT";
    schema_.options.push_back(suffix);
    load_.family = "toy";
    load_.title = "Toy";
    results_.summary = "ToySummary";
    results_.export_info = "ToyExportInfo";
    ResultType summary{"ToySummary", "What inspect() tells of a toy model."};
    summary.fields = SummaryHeader("toy", "Toy", Literals({"toy-text"}), Literals({"text"}));
    summary.fields.push_back({"words", "string[]", "The words, in order."});
    summary.fields.push_back({"letters", "number", "The letters of all the words."});
    results_.Add(summary);
    results_.Add(
        {"ToyExportInfo",
         "What a toy export wrote.",
         {{"files", "string[]", "The file written."}, {"words", "number", "The words written."}}});
  }
  const std::string& id() const override { return schema_.family; }
  const std::string& title() const override { return schema_.title; }
  std::vector<std::string> formats() const override { return {"toy-text"}; }
  const OptionSchema& load_options() const override { return load_; }
  const OptionSchema& export_options() const override { return schema_; }
  const ResultSchema& results() const override { return results_; }
  Detection Detect(Probe* probe, const std::string&) const override {
    Detection d;
    for (const auto& name : probe->names()) {
      if (probe->Prefix(name).substr(0, 5) == "TOY1\n") {
        d.score = Detection::kByMagic;
        d.primary = name;
        d.format = "toy-text";
        d.encoding = "text";
        d.reason = "first line is TOY1";
        return d;
      }
    }
    d.reason = "no TOY1 line";
    return d;
  }
  std::unique_ptr<FamilyModel> Read(Probe* probe, const Detection& d,
                                    const OptionValues&) const override {
    ByteSource* source = probe->Take(d.primary);
    std::string text;
    uint8_t buffer[256];
    size_t n;
    while ((n = source->Read(buffer, sizeof buffer)) > 0) {
      text.append(reinterpret_cast<char*>(buffer), n);
    }
    std::vector<std::string> words;
    size_t start = 5;
    while (start < text.size()) {
      size_t end = text.find('\n', start);
      if (end == std::string::npos) end = text.size();
      if (end > start) words.push_back(text.substr(start, end - start));
      start = end + 1;
    }
    return std::make_unique<ToyModel>(std::move(words));
  }
  std::string SummaryText(const nlohmann::json& summary) const override {
    return "words:       " + std::to_string(summary["words"].size()) + "\n" +
           "letters:     " + summary["letters"].dump() + "\n";
  }

 private:
  OptionSchema schema_;
  OptionSchema load_;
  ResultSchema results_;
};

// Linked into the test binaries that want it; registers itself before main().
const bool kRegistered = [] {
  static ToyFamily family;
  RegisterFamilyForTesting(&family);
  return true;
}();

}  // namespace
}  // namespace graphport::testing

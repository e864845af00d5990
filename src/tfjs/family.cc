// Until the TensorFlow.js reader lands, the family recognises a graph model by its model.json
// and answers UNSUPPORTED, so a user learns what the files are.
#include "tfjs/family.h"

#include "core/error.h"

namespace graphport::tfjs {
namespace {

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

class TfjsFamilyImpl : public Family {
 public:
  TfjsFamilyImpl() {
    load_.family = export_.family = "tfjs";
    load_.title = export_.title = "TensorFlow.js";
    export_.api = "tfjs-converter";
  }
  const std::string& id() const override { return load_.family; }
  const std::string& title() const override { return load_.title; }
  std::vector<std::string> formats() const override { return {"tfjs-graph-model"}; }
  const OptionSchema& load_options() const override { return load_; }
  const OptionSchema& export_options() const override { return export_; }

  Detection Detect(Probe* probe, const std::string& format) const override {
    Detection d;
    std::string json_name;
    for (const auto& name : probe->names()) {
      if (EndsWith(name, ".json") && (json_name.empty() || EndsWith(name, "model.json"))) {
        json_name = name;
      }
    }
    if (json_name.empty()) {
      d.reason = "no model.json";
      return d;
    }
    // The prefix may cut a big model.json short, so it is searched, not parsed.
    std::string_view prefix = probe->Prefix(json_name);
    size_t first = prefix.find_first_not_of(" \t\r\n");
    bool graph_model = first != std::string_view::npos && prefix[first] == '{' &&
                       prefix.find("\"modelTopology\"") != std::string_view::npos &&
                       (prefix.find("\"weightsManifest\"") != std::string_view::npos ||
                        prefix.find("\"graph-model\"") != std::string_view::npos);
    if (!graph_model && format.empty()) {
      d.reason = json_name + " is not a TensorFlow.js model (no modelTopology and weightsManifest)";
      return d;
    }
    d.score = Detection::kByStructure;
    d.primary = json_name;
    d.format = "tfjs-graph-model";
    d.encoding = "json";
    d.reason = format.empty() ? json_name + " has modelTopology and weightsManifest"
                              : "format given by the caller";
    return d;
  }

  std::unique_ptr<FamilyModel> Read(Probe* probe, const Detection& detection,
                                    const OptionValues&) const override {
    throw Error(ErrorCode::kUnsupported,
                probe->inputs().DisplayName(detection.primary) +
                    ": a TensorFlow.js graph model: graphport recognises TensorFlow.js models but "
                    "does not read them yet",
                ErrorLocation::InFile(probe->inputs().DisplayName(detection.primary)));
  }

 private:
  OptionSchema load_;
  OptionSchema export_;
};

}  // namespace

const Family& TfjsFamily() {
  static const Family* family = new TfjsFamilyImpl();
  return *family;
}

}  // namespace graphport::tfjs

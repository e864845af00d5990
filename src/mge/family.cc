#include "mge/family.h"

#include <memory>

#include "core/error.h"
#include "core/inspect_text.h"
#include "core/limits.h"
#include "core/strings.h"
#include "mge/detect.h"
#include "mge/export.h"
#include "mge/graph_source.h"
#include "mge/inspect.h"
#include "mge/option_names.h"
#include "mge/options.h"
#include "mge/preview_rules.h"
#include "mge/read.h"
#include "mge/results.h"
#include "mge/summary_text.h"

namespace graphport {
namespace {

using mge::Classification;
using mge::FileKind;

constexpr char kPickleFormat[] = "mge-pickle";
constexpr char kLegacyFormat[] = "mge-legacy";
constexpr char kLfsFormat[] = "git-lfs-pointer";

// The input the reader starts from: the only one, or the only *.mge of several.
bool PickPrimary(Probe* probe, std::string* primary, std::string* why) {
  const auto& names = probe->names();
  if (names.size() == 1) {
    *primary = names[0];
    return true;
  }
  std::vector<std::string> mge;
  for (const auto& n : names) {
    if (EndsWith(n, ".mge")) mge.push_back(n);
  }
  if (mge.size() == 1) {
    *primary = mge[0];
    return true;
  }
  *why = names.empty()
             ? "no input"
             : std::to_string(names.size()) + " inputs and " + std::to_string(mge.size()) +
                   " of them named *.mge: MegEngine reads one model file";
  return false;
}

class MgeModel : public FamilyModel,
                 public InspectsAsText,
                 public HasGraph,
                 public PagesSummaryLists {
 public:
  MgeModel(std::unique_ptr<mge::MgeFile> file, mge::InspectContext context)
      : file_(std::move(file)), context_(std::move(context)) {}
  nlohmann::json Inspect() const override {
    return mge::InspectMgeFile(*file_, context_, mge::kSummaryOperators);
  }
  std::string InspectText() const override {
    return mge::InspectMgeFileText(*file_, context_, mge::kSummaryOperators);
  }
  std::string SummaryPageJson(const SummaryPageRequest& request) const override {
    return mge::OperatorPageJson(*file_, context_, request);
  }
  nlohmann::json Export(const OptionValues& options, OutputSet* out) override {
    return mge::ExportMgeGraph(*file_, context_.graph, options, out);
  }
  nlohmann::json PreviewExportOptions(nlohmann::json given) const override {
    return mge::MgePreviewExportOptions(std::move(given));
  }
  std::vector<PreviewRule> PreviewRules(const OptionValues& options,
                                        const nlohmann::json& info) const override {
    return mge::MgePreviewRules(options, info);
  }
  GraphSource* Graph() override {
    if (graph_ == nullptr) {
      graph_ = std::make_unique<mge::MgeGraphSource>(&file_->graphs[context_.graph]);
    }
    return graph_.get();
  }

 private:
  std::unique_ptr<mge::MgeFile> file_;
  mge::InspectContext context_;
  std::unique_ptr<mge::MgeGraphSource> graph_;  // made when first asked for
};

class MegengineFamilyImpl : public Family {
 public:
  const std::string& id() const override { return id_; }
  const std::string& title() const override { return title_; }
  std::vector<std::string> formats() const override {
    return {"mge-fbs", "mge-fbs-v2", "mge-test"};
  }
  const OptionSchema& load_options() const override { return mge::MgeLoadOptions(); }
  const OptionSchema& export_options() const override { return mge::MgeExportOptions(); }
  const ResultSchema& results() const override { return mge::MgeResultSchema(); }

  Detection Detect(Probe* probe, const std::string& format) const override {
    Detection d;
    d.encoding = "binary";
    std::string why;
    if (!PickPrimary(probe, &d.primary, &why)) {
      d.reason = why;
      return d;
    }
    Classification c = mge::ClassifyMgeBytes(probe->Prefix(d.primary));
    const char* graph_format = mge::FormatNameOf(c.kind);
    if (!format.empty()) {
      if (format == graph_format) {
        d.score = Detection::kByMagic;
        d.format = format;
        d.reason = c.reason;
      } else {
        d.reason = "format " + format + " was asked for, but " + c.reason;
      }
      return d;
    }
    d.reason = c.reason;
    switch (c.kind) {
      case FileKind::kFbsV1Mgbs:
      case FileKind::kFbsV1Mgbc:
      case FileKind::kFbsV2:
      case FileKind::kTestContainer:
        d.score = Detection::kByMagic;
        d.format = graph_format;
        break;
      case FileKind::kLegacyMgb:
        d.score = Detection::kByMagic;
        d.format = kLegacyFormat;
        break;
      case FileKind::kPickle:
      case FileKind::kLfsPointer:
        // A pickle or an LFS pointer is only ours when it carries a .mge name; then its magic
        // and its name together outweigh what another family reads into it (an LFS pointer's
        // "version ..." line parses as a TensorFlow text field).
        if (EndsWith(d.primary, ".mge")) {
          d.score = Detection::kByMagic;
          d.format = c.kind == FileKind::kPickle ? kPickleFormat : kLfsFormat;
          d.reason += ", named *.mge";
        }
        break;
      case FileKind::kUnknown:
        break;
    }
    return d;
  }

  std::string SummaryText(const nlohmann::json& summary) const override {
    return mge::MgeSummaryText(summary);
  }

  std::unique_ptr<FamilyModel> Read(Probe* probe, const Detection& detection,
                                    const OptionValues& load_options) const override {
    const std::string display = probe->inputs().DisplayName(detection.primary);
    auto fail = [&](ErrorCode code, const std::string& what) {
      ErrorLocation where;
      where.file = display;
      throw Error(code, display + ": " + what, where);
    };
    if (detection.format == kPickleFormat) {
      fail(ErrorCode::kUnsupported,
           "this is a pickled state dict, not a dumped graph: dump it with trace.dump or "
           "Network.dump first");
    }
    if (detection.format == kLegacyFormat) {
      fail(ErrorCode::kUnsupported,
           "this is a legacy MegBrain (mgb0001/mgb0000a) model, which MegEngine's open-source "
           "loader cannot read either: re-dump it with a MegEngine that still loads it");
    }
    if (detection.format == kLfsFormat) {
      fail(ErrorCode::kUnsupported,
           "this is a git-LFS pointer file, not the model: fetch the real file (git lfs pull)");
    }
    ByteSource* source = probe->Take(detection.primary);
    std::string bytes;
    uint64_t hint = 0;
    if (source->SizeHint(&hint)) {
      if (hint > mge::kMaxMgeInputBytes) {
        fail(ErrorCode::kTooLarge, "the file has " + std::to_string(hint) +
                                       " bytes, more than graphport reads (" +
                                       std::to_string(mge::kMaxMgeInputBytes) + ")");
      }
      bytes.reserve(hint);
    }
    std::string chunk(kStreamChunkBytes, '\0');
    while (size_t n = source->Read(reinterpret_cast<uint8_t*>(chunk.data()), chunk.size())) {
      if (bytes.size() + n > mge::kMaxMgeInputBytes) {
        fail(ErrorCode::kTooLarge, "the file is larger than graphport reads (" +
                                       std::to_string(mge::kMaxMgeInputBytes) + " bytes)");
      }
      bytes.append(chunk.data(), n);
    }
    if (bytes.empty()) fail(ErrorCode::kEmptyInput, "the file is empty");
    auto file = mge::ReadMgeFile(std::move(bytes), display);
    int64_t graph = load_options.Int(mge::option::kGraph);
    if (graph < 0 || static_cast<uint64_t>(graph) >= file->graphs.size()) {
      ErrorLocation where;
      where.file = display;
      where.option = "graph";
      throw Error(ErrorCode::kInvalidOption,
                  display + ": load option graph=" + std::to_string(graph) +
                      ", but the file holds " + std::to_string(file->graphs.size()) +
                      " graph(s) (0.." + std::to_string(file->graphs.size() - 1) + ")",
                  where);
    }
    mge::InspectContext context;
    context.detection = detection.reason;
    context.inputs = probe->names();
    context.graph = static_cast<size_t>(graph);
    return std::make_unique<MgeModel>(std::move(file), std::move(context));
  }

 private:
  std::string id_ = "megengine";
  std::string title_ = "MegEngine";
};

}  // namespace

namespace mge {

const Family& MegengineFamily() {
  static const MegengineFamilyImpl* family = new MegengineFamilyImpl();
  return *family;
}

}  // namespace mge
}  // namespace graphport

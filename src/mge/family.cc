// Until the MegEngine reader lands, the family recognises MegEngine files by their magic, as
// MegEngine's loader does, and answers UNSUPPORTED, so a user learns what the file is.
#include "mge/family.h"

#include <cstring>

#include "core/error.h"

namespace graphport::mge {
namespace {

bool StartsWith(std::string_view bytes, std::string_view magic) {
  return bytes.size() >= magic.size() && bytes.substr(0, magic.size()) == magic;
}

// What the first bytes say the file is, or "" when they are not MegEngine's.
std::string Identify(std::string_view p) {
  if (p.size() >= 8 && (StartsWith(p, std::string_view("MGBC\0\0\0\0", 8)) ||
                        StartsWith(p, std::string_view("MGBS\0\0\0\0", 8)))) {
    return std::string("a MegEngine FBS v1 dump (") + std::string(p.substr(0, 4)) + " header)";
  }
  if (p.size() >= 25 && p.substr(8, 4) == "mgv2") return "a MegEngine FBS_V2 dump (mgv2)";
  if (StartsWith(p, "mgbtest0")) return "a MegEngine dump with test cases (mgbtest0)";
  if (StartsWith(p, "mgb0001") || StartsWith(p, "mgb0000a")) {
    return "a legacy MegEngine graph (mgb0001), which MegEngine itself no longer loads";
  }
  return "";
}

class MegengineFamilyImpl : public Family {
 public:
  MegengineFamilyImpl() {
    load_.family = export_.family = "megengine";
    load_.title = export_.title = "MegEngine";
    export_.api = "Network.dump";
  }
  const std::string& id() const override { return load_.family; }
  const std::string& title() const override { return load_.title; }
  std::vector<std::string> formats() const override { return {"mge"}; }
  const OptionSchema& load_options() const override { return load_; }
  const OptionSchema& export_options() const override { return export_; }

  Detection Detect(Probe* probe, const std::string& format) const override {
    Detection d;
    const auto& names = probe->names();
    for (const auto& name : names) {
      if (names.size() > 1 && name.size() < 4) continue;
      if (names.size() > 1 && name.compare(name.size() - 4, 4, ".mge") != 0) continue;
      std::string what = Identify(probe->Prefix(name));
      if (what.empty() && format.empty()) continue;
      d.score = Detection::kByMagic;
      d.primary = name;
      d.format = "mge";
      d.encoding = "binary";
      d.reason = what.empty() ? "format given by the caller" : what;
      return d;
    }
    d.reason = "no MGBS/MGBC header, no mgv2 identifier at byte 8, no mgbtest0 container";
    return d;
  }

  std::unique_ptr<FamilyModel> Read(Probe* probe, const Detection& detection,
                                    const OptionValues&) const override {
    throw Error(ErrorCode::kUnsupported,
                probe->inputs().DisplayName(detection.primary) + ": " + detection.reason +
                    ": graphport recognises MegEngine models but does not read them yet",
                ErrorLocation::InFile(probe->inputs().DisplayName(detection.primary)));
  }

 private:
  OptionSchema load_;
  OptionSchema export_;
};

}  // namespace

const Family& MegengineFamily() {
  static const Family* family = new MegengineFamilyImpl();
  return *family;
}

}  // namespace graphport::mge

#include "mge/dump/dump_request.h"

#include "core/error.h"
#include "mge/dump/user_info.h"
#include "mge/options.h"

namespace graphport::mge {
namespace {

[[noreturn]] void Fail(ErrorCode code, const std::string& option, const std::string& message) {
  ErrorLocation where;
  where.option = option;
  throw Error(code, message, where);
}

std::string Strip(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n\f\v");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\r\n\f\v");
  return s.substr(b, e - b + 1);
}

}  // namespace

DumpRequest ReadDumpRequest(const OptionValues& options) {
  DumpRequest r;
  r.format = options.String("dumpFormat") == "FBS" ? DumpFormat::kFbsV1 : DumpFormat::kFbsV2;
  if (options.Has("compatOlderVersion")) {
    // As network.py: the value is stripped, and an empty one means none.
    std::string compat = Strip(options.String("compatOlderVersion"));
    if (!compat.empty()) {
      // That it goes with dump_format FBS is the schema's rule (mge/options.cc).
      if (compat != kCompatOlderVersion) {
        Fail(ErrorCode::kInvalidOption, "compatOlderVersion",
             "Forward compatibility for older version only support 8.14 currently.");
      }
      r.compat_814 = true;
    }
  }
  r.keep_var_name = static_cast<int>(options.Int("keepVarName"));
  r.keep_opr_name = options.Bool("keepOprName");
  r.keep_param_name = options.Bool("keepParamName");
  r.keep_opr_priority = options.Bool("keepOprPriority");
  r.enable_metadata = options.Bool("enableMetadata");
  r.metadata_requested = options.Has("enableMetadata") || options.Has("userInfo");
  if (options.Has("userInfo")) r.user_info = PickleUserInfo(options.Raw("userInfo"));
  r.as_loaded = options.Bool("asLoaded");
  // As Network.dump: with optimize_for_inference off every kwarg is ignored. (An unknown
  // name, enable_weight_preprocess say, was refused before this, as Network.dump's ValueError
  // refuses it when it optimizes.)
  r.optimize_for_inference = options.Bool("optimizeForInference") && !r.as_loaded;
  if (r.optimize_for_inference) r.optimize = ReadOptimizeKwargs(options);
  r.filename = options.String("filename");
  if (r.filename.empty()) Fail(ErrorCode::kInvalidOption, "filename", "filename is empty");
  if (options.Has("stripInfoFile")) {
    r.strip_info_file = options.String("stripInfoFile");
    // A name other than the model's is the schema's rule; an empty one is no name.
    if (r.strip_info_file->empty()) {
      Fail(ErrorCode::kInvalidOption, "stripInfoFile",
           "stripInfoFile must be a file name other than the model's ('" + r.filename + "')");
    }
  }
  if (options.Has("appendJson")) r.append_json = options.Bytes("appendJson");
  if (options.Has("append")) r.append = options.Bytes("append");
  return r;
}

}  // namespace graphport::mge

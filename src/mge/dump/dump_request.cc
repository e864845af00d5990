#include "mge/dump/dump_request.h"

#include "core/error.h"
#include "mge/dump/user_info.h"
#include "mge/option_names.h"
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
  r.format = options.String(option::kDumpFormat) == "FBS" ? DumpFormat::kFbsV1 : DumpFormat::kFbsV2;
  if (options.Has(option::kCompatOlderVersion)) {
    // As network.py: the value is stripped, and an empty one means none.
    std::string compat = Strip(options.String(option::kCompatOlderVersion));
    if (!compat.empty()) {
      // That it goes with dump_format FBS is the schema's rule (mge/options.cc).
      if (compat != kCompatOlderVersion) {
        Fail(ErrorCode::kInvalidOption, option::kCompatOlderVersion,
             "Forward compatibility for older version only support 8.14 currently.");
      }
      r.compat_814 = true;
    }
  }
  r.keep_var_name = static_cast<int>(options.Int(option::kKeepVarName));
  r.keep_opr_name = options.Bool(option::kKeepOprName);
  r.keep_param_name = options.Bool(option::kKeepParamName);
  r.keep_opr_priority = options.Bool(option::kKeepOprPriority);
  r.enable_metadata = options.Bool(option::kEnableMetadata);
  r.metadata_requested = options.Has(option::kEnableMetadata) || options.Has(option::kUserInfo);
  if (options.Has(option::kUserInfo)) r.user_info = PickleUserInfo(options.Raw(option::kUserInfo));
  r.as_loaded = options.Bool(option::kAsLoaded);
  // As Network.dump: with optimize_for_inference off every kwarg is ignored. (An unknown
  // name, enable_weight_preprocess say, was refused before this, as Network.dump's ValueError
  // refuses it when it optimizes.)
  r.optimize_for_inference = options.Bool(option::kOptimizeForInference) && !r.as_loaded;
  if (r.optimize_for_inference) r.optimize = ReadOptimizeKwargs(options);
  r.filename = options.String(option::kFilename);
  if (r.filename.empty()) Fail(ErrorCode::kInvalidOption, option::kFilename, "filename is empty");
  if (options.Has(option::kStripInfoFile)) {
    r.strip_info_file = options.String(option::kStripInfoFile);
    // A name other than the model's is the schema's rule; an empty one is no name.
    if (r.strip_info_file->empty()) {
      Fail(ErrorCode::kInvalidOption, option::kStripInfoFile,
           "stripInfoFile must be a file name other than the model's ('" + r.filename + "')");
    }
  }
  if (options.Has(option::kAppendJson)) r.append_json = options.Bytes(option::kAppendJson);
  if (options.Has(option::kAppend)) r.append = options.Bytes(option::kAppend);
  return r;
}

}  // namespace graphport::mge

// Network.dump's arguments, read and checked from the export options (the seed's own checks
// and messages included), before anything is written.
#ifndef GRAPHPORT_MGE_DUMP_DUMP_REQUEST_H_
#define GRAPHPORT_MGE_DUMP_DUMP_REQUEST_H_

#include <optional>
#include <string>

#include "core/option_schema.h"
#include "mge/mge_model.h"
#include "mge/optimize/optimize_options.h"

namespace graphport::mge {

struct DumpRequest {
  DumpFormat format = DumpFormat::kFbsV2;
  bool compat_814 = false;  // compat_older_version "8.14": MGBS header, unversioned ids
  int keep_var_name = 1;
  bool keep_opr_name = false;
  bool keep_param_name = false;
  bool keep_opr_priority = false;
  bool enable_metadata = true;
  bool metadata_requested = false;       // enableMetadata or userInfo given explicitly
  std::optional<std::string> user_info;  // the pickle bytes, when userInfo was given
  bool optimize_for_inference = true;
  // graphport's asLoaded: the loaded graph and metadata written as they are.
  bool as_loaded = false;
  opt::OptimizeOptions optimize;  // the kwargs, read only when optimize_for_inference
  std::string filename = "model.mge";
  std::optional<std::string> strip_info_file;
  std::optional<std::string> append_json;
  std::optional<std::string> append;
};

// Throws Error(kInvalidOption) as the seed's assertions do ("Forward compatibility for
// older version only support 8.14 currently.", "... only works when dump_format is FBS"), and
// Error(kUnsupported) naming an optimize_for_inference kwarg graphport has no pass for.
DumpRequest ReadDumpRequest(const OptionValues& options);

// The optimize_for_inference kwargs (optimize_kwargs.cc): Error(kUnsupported) naming a layout
// kwarg (the backend it targets) or a float16 conversion.
opt::OptimizeOptions ReadOptimizeKwargs(const OptionValues& options);

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_DUMP_DUMP_REQUEST_H_

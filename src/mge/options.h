// The MegEngine family's option schemas: the load options, and the export options after
// MegEngine's Network.dump (seed 000_3a24b7ca2483c2be), each with the seed's argument name.
#ifndef GRAPHPORT_MGE_OPTIONS_H_
#define GRAPHPORT_MGE_OPTIONS_H_

#include <string>
#include <vector>

#include "core/option_schema.h"

namespace graphport::mge {

// The one older MegEngine version a dump can be made compatible with (compatOlderVersion).
inline constexpr char kCompatOlderVersion[] = "8.14";

const OptionSchema& MgeLoadOptions();
const OptionSchema& MgeExportOptions();

// The optimize_for_inference kwargs (research megengine.md §1.3), each an export option:
// its camelCase option name, the seed's kwarg name and its default.
struct OptimizeKwarg {
  const char* name;  // "enableNchw44"
  const char* seed;  // "enable_nchw44"
  bool default_value;
  const char* help;
};
const std::vector<OptimizeKwarg>& OptimizeKwargs();
// The export schema's `last_wins` set of the layout kwargs, in MegEngine's order.
inline constexpr char kLayoutSet[] = "layout";

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_OPTIONS_H_

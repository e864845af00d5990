#include "mge/schema/param_history.h"

#include <string>
#include <string_view>

#include "mge/schema/schema_reflection.h"

namespace graphport::mge {
namespace {

constexpr char kParam[] = "mgb.serialization.fbs.param.";
constexpr char kHistory[] = "graphport.mge.history.";

// The releases whose layouts differ from today's, by the version numbers they wrote.
enum class Era {
  kCurrent,
  kV0_3_1,   // 8.3.0
  kV0_3_2,   // 8.3.1: v0.3.2 - v0.4.0
  kV0_5_0,   // 8.4.1 - 8.8.0: v0.5.0 - v1.1.0
  kV1_2_0,   // 8.9.0
  kV1_3_0,   // 8.10.0
  kV1_12_3,  // 1.12.3
  kAmbiguous,
};

Era EraOf(uint32_t version) {
  if (version == kAmbiguousWriterVersion) return Era::kAmbiguous;
  if (version == 101203) return Era::kV1_12_3;
  // 8.x numbers of the releases up to v1.6.0; development builds in between take the layout of
  // the release before them. Below 8.3.0 nothing is known: read as today's.
  if (version >= 800300 && version < 800301) return Era::kV0_3_1;
  if (version >= 800301 && version < 800401) return Era::kV0_3_2;
  if (version >= 800401 && version < 800900) return Era::kV0_5_0;
  if (version >= 800900 && version < 801000) return Era::kV1_2_0;
  if (version >= 801000 && version < 801100) return Era::kV1_3_0;
  return Era::kCurrent;
}

// Members whose `format` used ConvolutionV0Format up to v1.2.0, and the current table that has
// exactly the layout they had then.
const char* LegacyFormatTable(uint8_t type) {
  switch (type) {
    case 3:
      return "ConvolutionV1";
    case 6:
      return "ConvBiasV3";  // also 12 slots then: output_block_size before compute_mode
    case 9:
      return "PoolingV0";
    case 13:
      return "WarpPerspectiveV1";
    case 38:
      return "WarpAffineV1";
    case 40:
      return "ResizeV1";
    case 46:
      return "SeparableFilterV0";
    case 47:
      return "LocalShareV0";
    case 48:
      return "ROIAlignV0";
    case 50:
      return "BatchConvBiasV0";
    case 68:
      return "RemapV0";
    case 70:
      return "AdaptivePoolingV0";
    case 72:
      return "DctChannelSelectV0";
    default:
      return nullptr;
  }
}

// Whether a member's layout differed between the releases that wrote 8.9999.0: v1.0.0 (the
// v1.1.0-and-older layouts), v1.3.1 (old Images2Neibs), v1.5.0 (another format numbering, also
// of Correlation) and v1.6.0 (today's).
bool DifferedAmong8_9999(uint8_t type) {
  return LegacyFormatTable(type) != nullptr || type == 8 || type == 21 || type == 55 || type == 75;
}

const reflection::Object* Named(const reflection::Schema& schema, const char* ns,
                                const char* name) {
  return FindObject(schema, std::string(ns) + name);
}

}  // namespace

ParamLayout ParamLayoutAsWritten(const reflection::Schema& schema, uint8_t type,
                                 uint32_t writer_version) {
  ParamLayout layout;
  layout.table = OperatorParamTable(schema, type);
  if (layout.table == nullptr) return layout;
  Era era = EraOf(writer_version);
  switch (era) {
    case Era::kCurrent:
      break;
    case Era::kAmbiguous:
      layout.ambiguous = DifferedAmong8_9999(type);
      break;
    case Era::kV1_12_3:
      if (type == 95) layout.table = Named(schema, kHistory, "MultiHeadAttnV1_12_3");
      break;
    case Era::kV1_3_0:
      if (type == 8) layout.table = Named(schema, kHistory, "Images2NeibsV1_3");
      break;
    case Era::kV0_3_1:
    case Era::kV0_3_2:
    case Era::kV0_5_0:
    case Era::kV1_2_0:
      if (const char* legacy = LegacyFormatTable(type)) {
        layout.table = Named(schema, kParam, legacy);
      } else if (type == 55) {
        layout.table = Named(schema, kParam, "ExecutionPolicyV0");
      } else if (type == 8) {
        layout.table = Named(schema, kHistory, "Images2NeibsV1_3");
      } else if (type == 21 && era != Era::kV1_2_0) {
        layout.table = Named(schema, kHistory, "Winograd");
      }
      if (era != Era::kV1_2_0) {
        const char* numbering = era == Era::kV0_3_1   ? "ConvolutionV0FormatV0_3_1"
                                : era == Era::kV0_3_2 ? "ConvolutionV0FormatV0_3_2"
                                                      : "ConvolutionV0FormatV0_5_0";
        layout.format_numbering = FindEnum(schema, std::string(kHistory) + numbering);
      }
      break;
  }
  return layout;
}

const reflection::Enum& EnumAsWritten(const reflection::Schema& schema, const ParamLayout& layout,
                                      const reflection::Field& field) {
  const reflection::Enum& declared =
      *schema.enums()->Get(static_cast<flatbuffers::uoffset_t>(field.type()->index()));
  if (layout.format_numbering != nullptr && std::string_view(declared.name()->c_str()) ==
                                                "mgb.serialization.fbs.param.ConvolutionV0Format") {
    return *layout.format_numbering;
  }
  return declared;
}

}  // namespace graphport::mge

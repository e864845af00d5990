#ifndef GRAPHPORT_MGE_SCHEMA_PARAM_HISTORY_H_
#define GRAPHPORT_MGE_SCHEMA_PARAM_HISTORY_H_

// How older MegEngine releases laid out a few OperatorParam members (megengine_params.md §7), so
// that a param can be decoded as its writer wrote it. Union numbers never changed.
//
// A file names its writer only by Graph.mgb_version / Model.mge_version =
// (major * 1000 + minor) * 100 + patch. Up to v1.6.0 that was MegBrain's own 8.x version:
// v0.3.1 8.3.0, v0.3.2-v0.4.0 8.3.1, v0.5.0 8.4.1, v0.5.1 8.5.0, v0.6.0 8.6.0, v1.1.0 8.8.0,
// v1.2.0 8.9.0, v1.3.0 8.10.0, v1.4.0 8.11.0, but v1.0.0, v1.3.1, v1.5.0, v1.6.0 and development
// builds all wrote 8.9999.0 (1799900). From v1.7.0 on it is the release (1.7.0 -> 100700).

#include <flatbuffers/reflection.h>

#include <cstdint>

namespace graphport::mge {

// mgb_version of 8.9999.0: one of v1.0.0, v1.3.1, v1.5.0, v1.6.0 or a development build.
inline constexpr uint32_t kAmbiguousWriterVersion = 1799900;

struct ParamLayout {
  // The table to decode the param with: the union member's current table unless the writer laid
  // it out differently. nullptr when the schema has no member of that number.
  const reflection::Object* table = nullptr;
  // When the writer numbered ConvolutionV0Format differently (v1.1.0 and older): its numbering,
  // for the fields of `table` typed ConvolutionV0Format. Use EnumAsWritten().
  const reflection::Enum* format_numbering = nullptr;
  // The writer version is kAmbiguousWriterVersion and this member's layout differed between the
  // releases it may stand for: `table` is the current layout, which the file may not have used.
  bool ambiguous = false;
};

// The layout of union member `type` in a file whose mgb_version / mge_version is
// `writer_version`, in `schema` (GraphV1Schema() or ModelV2Schema()).
ParamLayout ParamLayoutAsWritten(const reflection::Schema& schema, uint8_t type,
                                 uint32_t writer_version);

// The enum to name `field`'s values with under `layout` (field of layout.table, enum-typed).
const reflection::Enum& EnumAsWritten(const reflection::Schema& schema, const ParamLayout& layout,
                                      const reflection::Field& field);

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_SCHEMA_PARAM_HISTORY_H_

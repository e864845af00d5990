// Copies a param table from a loaded file into a FlatBufferBuilder as MegEngine's dumper
// builds it (the flatc Create<Table> helper: fields largest first, within a size in reverse
// declaration order; defaults omitted), driven by reflection, so no table needs code of its
// own. This is what makes a re-dump byte-identical.
#ifndef GRAPHPORT_MGE_PARAM_COPY_H_
#define GRAPHPORT_MGE_PARAM_COPY_H_

#include <flatbuffers/flatbuffers.h>

#include <string>

#include "mge/mge_model.h"

namespace graphport::mge {

// Builds `dtype` as fbs::intl::build_dtype does: LinearQuantizationParam first (quantized
// types), then the DType table adding type, param_type, param.
flatbuffers::Offset<void> BuildDType(flatbuffers::FlatBufferBuilder* fbb, const DType& dtype);

// `writer_version` (the graph's mgb_version / mge_version, which the re-dump keeps) picks the
// layout its writer used (schema/param_history.h). A union member the schemas do not declare
// (a newer MegEngine's) is copied field by field, byte for byte, as a table of scalars (what
// every MegEngine param table generated from megdnn's definitions is); the same in both
// formats, whose unions number members alike. Throws Error(kUnsupported) naming `opr` when
// such a table is not laid out as scalars.
flatbuffers::Offset<void> CopyParam(flatbuffers::FlatBufferBuilder* fbb, const Param& param,
                                    const std::string& opr, uint32_t writer_version);

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_PARAM_COPY_H_

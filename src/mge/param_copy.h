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

// Throws Error(kUnsupported) naming `opr` for a union member the schemas do not declare
// (its table layout is unknown, so it cannot be rebuilt).
flatbuffers::Offset<void> CopyParam(flatbuffers::FlatBufferBuilder* fbb, const Param& param,
                                    const std::string& opr);

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_PARAM_COPY_H_

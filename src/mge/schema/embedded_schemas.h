#ifndef GRAPHPORT_MGE_SCHEMA_EMBEDDED_SCHEMAS_H_
#define GRAPHPORT_MGE_SCHEMA_EMBEDDED_SCHEMAS_H_

#include <string_view>

namespace graphport::mge {

// flatc's binary schemas (`flatc -b --schema`, identifier "BFBS") of graph_v1.fbs (FBS v1
// files) and model_v2.fbs (FBS_V2 files), each with every param table and enum it includes.
// Built and embedded at build time (embed_bytes.cmake); the bytes are 16-byte aligned and live
// for the whole program. Read them with reflection::GetSchema, or use schema_reflection.h.
std::string_view GraphV1Bfbs();
std::string_view ModelV2Bfbs();

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_SCHEMA_EMBEDDED_SCHEMAS_H_

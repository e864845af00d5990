// The meta_info_def option: the caller's MetaInfoDef merged over the loaded one.
#ifndef GRAPHPORT_TF_META_GRAPH_META_INFO_DEF_H_
#define GRAPHPORT_TF_META_GRAPH_META_INFO_DEF_H_

#include "tensorflow/meta_graph.pb.h"

namespace graphport::tf {

// Every field `given` sets replaces the target's; fields it leaves unset keep the loaded
// values (so the producer's tensorflow_version survives). Throws INVALID_OPTION for a
// tensorflow_version that is not a PEP 440 version.
void ApplyMetaInfoDef(const tensorflow::MetaGraphDef::MetaInfoDef& given,
                      tensorflow::MetaGraphDef::MetaInfoDef* target);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_META_GRAPH_META_INFO_DEF_H_

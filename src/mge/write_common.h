// What both writers need: each operator's registry identity in the target format, the
// operators FBS v1 cannot hold, and how a holder's count blob changes between formats.
#ifndef GRAPHPORT_MGE_WRITE_COMMON_H_
#define GRAPHPORT_MGE_WRITE_COMMON_H_

#include <flatbuffers/flatbuffers.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/byte_stream.h"
#include "mge/dump/dump_plan.h"
#include "mge/mge_model.h"

namespace graphport::mge {

// A dump as the pieces it is written from, so tensor values are never copied between the
// loaded file and the sink: FBS v1 header, the values (views into the loaded bytes or the
// rewrite's constants), the finished flatbuffer (FBS_V2: the whole dump).
struct WrittenDump {
  std::string header;
  std::vector<std::string_view> values;
  flatbuffers::DetachedBuffer flatbuffer;
  uint64_t size() const;
  void WriteTo(ByteSink* sink) const;
  uint64_t content_hash = 0;
  uint64_t tensor_value_bytes = 0;
  uint32_t nr_opr = 0;
};

struct OprIdentity {
  uint64_t type_id = 0;
  uint32_t opr_version = 0;
  std::string type;  // FBS_V2 Operator.type
};

// Throws Error(kUnsupported) naming the operator when the target format has no registration
// for it (or, for an unknown operator, when the id scheme changes).
OprIdentity V1Identity(const Graph& graph, size_t opr, V1Ids ids);
OprIdentity V2Identity(const Graph& graph, size_t opr);

// FBS_V2 -> FBS v1 needs MegEngine's compatibility rewrite for some operators (Elemwise
// modes SQRT, CLIP, ...; ElemwiseMultiType comparisons; Where; Softmax, ...). Throws
// Error(kUnsupported) naming the operator and the mode.
void CheckExpressibleInV1(const Graph& graph, size_t opr);

// "The {name} operator #3 (Elemwise)": "#3 (Elemwise)".
std::string WriterOprLabel(const Graph& graph, size_t opr);

// The dump items to write: MultipleDeviceTensorHolder in FBS v1 (and FBS_V2 at opr_version
// 1) starts with a blob holding the u32 tensor count, at opr_version 2 it has none.
struct ItemsToWrite {
  std::vector<DumpItem> items;
  bool add_count_blob = false;  // write a count blob before the first tensor
};
ItemsToWrite ItemsFor(const Graph& graph, size_t opr, DumpFormat target, uint32_t opr_version);

// An operator's params as the writers build them: (union type, table), the first one the
// operator's `param`, the others its additional params.
using BuiltParams = std::vector<std::pair<uint8_t, flatbuffers::Offset<void>>>;

// The additional params' two vectors (types, tables); both null when there is only a `param`.
struct AdditionalParams {
  flatbuffers::Offset<flatbuffers::Vector<uint8_t>> types;
  flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<void>>> tables;
  bool IsNull() const { return types.IsNull(); }
};
AdditionalParams CreateAdditionalParams(flatbuffers::FlatBufferBuilder* fbb,
                                        const BuiltParams& params);

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_WRITE_COMMON_H_

#include "mge/dump/dump_info.h"

#include <algorithm>
#include <cstdio>

namespace graphport::mge {

std::string Hex64(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(v));
  return buf;
}

nlohmann::json DumpInfoJson(const DumpInfo& info) {
  return {{"nr_opr", info.nr_opr},
          {"tot_bytes", info.tot_bytes},
          {"tensor_value_bytes", info.tensor_value_bytes},
          {"content_hash", Hex64(info.content_hash)},
          {"inputs", info.inputs},
          {"outputs", info.outputs},
          {"params", info.params}};
}

DumpInfo LoadedDumpInfo(const Graph& g) {
  DumpInfo info;
  info.nr_opr = static_cast<uint32_t>(g.oprs.size());
  info.tot_bytes = g.file_bytes;
  info.tensor_value_bytes = g.value_bytes;
  info.content_hash = g.format == DumpFormat::kFbsV1 ? g.hash : 0;
  for (const Operator& op : g.oprs) {
    if (op.cls == nullptr) continue;
    const std::string& key = op.cls->key;
    for (const Tensor& t : op.tensors) {
      if (!t.name) continue;
      if (key == "Host2DeviceCopy") info.inputs.push_back(*t.name);
      if (key == "SharedDeviceTensor" || key == "VolatileSharedDeviceTensor" ||
          key == "MultipleDeviceTensorHolder" || key == "MultipleDeviceTensorWithFormatHolder") {
        info.params.push_back(*t.name);
      }
    }
  }
  std::sort(info.inputs.begin(), info.inputs.end());
  for (size_t i = 0; i < g.outputs.size(); ++i) {
    auto name = g.VarName(g.outputs[i].compact_id);
    info.outputs.push_back(name ? *name : "unnamed" + std::to_string(i));
  }
  return info;
}

}  // namespace graphport::mge

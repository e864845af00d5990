// TensorFlow's importer compares meta_info_def.tensorflow_version with packaging.version,
// which raises on a string that is not a PEP 440 version; graphport never writes one.
#ifndef GRAPHPORT_TF_META_GRAPH_VERSION_STRING_H_
#define GRAPHPORT_TF_META_GRAPH_VERSION_STRING_H_

#include <string_view>

namespace graphport::tf {

// PEP 440: [N!]N(.N)*[{a|b|rc}N][.postN][.devN][+local], with the spellings PEP 440
// normalises ("1.1.0-rc2", "v2.14.0", "1.0alpha1"). "" is not a version.
bool IsPep440Version(std::string_view version);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_META_GRAPH_VERSION_STRING_H_

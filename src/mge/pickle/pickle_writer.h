// Pickles str and bytes as CPython 3.8-3.13's pickle.dumps does (protocol 4, C pickler):
// what MegEngine stores in Metadata.user_info.
#ifndef GRAPHPORT_MGE_PICKLE_PICKLE_WRITER_H_
#define GRAPHPORT_MGE_PICKLE_PICKLE_WRITER_H_

#include <string>
#include <string_view>

namespace graphport::mge {

std::string PickleNone();                       // 80 04 4e 2e
std::string PickleStr(std::string_view utf8);   // SHORT_BINUNICODE / BINUNICODE / 8
std::string PickleBytes(std::string_view raw);  // SHORT_BINBYTES / BINBYTES / 8

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_PICKLE_PICKLE_WRITER_H_

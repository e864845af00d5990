// user_info: pickle.dumps(user_info) as MegEngine stores it in Metadata.user_info.
#ifndef GRAPHPORT_MGE_DUMP_USER_INFO_H_
#define GRAPHPORT_MGE_DUMP_USER_INFO_H_

#include <nlohmann/json.hpp>
#include <string>

namespace graphport::mge {

// The option's value as given: a JSON string pickles as str, {"$bytes": ...} as bytes, null
// as None (Python 3.8+ pickle.dumps, protocol 4).
std::string PickleUserInfo(const nlohmann::json& value);

}  // namespace graphport::mge

#endif  // GRAPHPORT_MGE_DUMP_USER_INFO_H_

#include "mge/dump/user_info.h"

#include "core/error.h"
#include "core/option_schema.h"
#include "mge/pickle/pickle_writer.h"

namespace graphport::mge {

std::string PickleUserInfo(const nlohmann::json& value) {
  if (value.is_null()) return PickleNone();
  if (value.is_string()) return PickleStr(value.get<std::string>());
  std::string bytes;
  if (IsBytesOption(value, &bytes)) return PickleBytes(bytes);
  ErrorLocation where;
  where.option = "userInfo";
  throw Error(ErrorCode::kInvalidOption, "userInfo must be a string or bytes", where);
}

}  // namespace graphport::mge

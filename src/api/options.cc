#include "api/options.h"

#include "core/error.h"

namespace graphport {

OptionReader::OptionReader(const std::string& json_text, const std::string& what) : what_(what) {
  if (json_text.empty()) {
    options_ = nlohmann::json::object();
    return;
  }
  options_ = nlohmann::json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (options_.is_discarded() || !options_.is_object()) {
    throw Error(ErrorCode::kInvalidOption, what_ + " options must be a JSON object");
  }
}

const nlohmann::json* OptionReader::Find(const std::string& key) {
  read_.insert(key);
  auto it = options_.find(key);
  if (it == options_.end() || it->is_null()) return nullptr;
  return &*it;
}

void OptionReader::Fail(const std::string& key, const std::string& expected) const {
  throw Error(ErrorCode::kInvalidOption,
              what_ + " option '" + key + "' must be " + expected + ", got " +
                  (options_.contains(key) ? options_.at(key).dump() : "nothing"));
}

void OptionReader::String(const std::string& key, std::string* value) {
  if (const auto* v = Find(key)) {
    if (!v->is_string()) Fail(key, "a string");
    *value = v->get<std::string>();
  }
}

void OptionReader::Bool(const std::string& key, bool* value) {
  if (const auto* v = Find(key)) {
    if (!v->is_boolean()) Fail(key, "true or false");
    *value = v->get<bool>();
  }
}

void OptionReader::StringList(const std::string& key, std::vector<std::string>* value) {
  if (const auto* v = Find(key)) {
    if (!v->is_array()) Fail(key, "a list of strings");
    value->clear();
    for (const auto& item : *v) {
      if (!item.is_string()) Fail(key, "a list of strings");
      value->push_back(item.get<std::string>());
    }
  }
}

void OptionReader::RejectUnknown() const {
  for (const auto& [key, value] : options_.items()) {
    if (read_.count(key) == 0) {
      throw Error(ErrorCode::kInvalidOption, "unknown " + what_ + " option '" + key + "'");
    }
  }
}

}  // namespace graphport

// Reads an options object given as JSON text, with errors that name the option. Every key
// must be read by name; RejectUnknown() then reports a key nobody asked for (a typo would
// otherwise be ignored silently).
#ifndef GRAPHPORT_API_OPTIONS_H_
#define GRAPHPORT_API_OPTIONS_H_

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

namespace graphport {

class OptionReader {
 public:
  // `what` names the options in errors ("export", "load").
  OptionReader(const std::string& json_text, const std::string& what);

  void String(const std::string& key, std::string* value);
  void Bool(const std::string& key, bool* value);
  void StringList(const std::string& key, std::vector<std::string>* value);
  // The raw value, or nullptr when absent or null (for options parsed elsewhere).
  const nlohmann::json* Raw(const std::string& key) { return Find(key); }
  void RejectUnknown() const;

 private:
  const nlohmann::json* Find(const std::string& key);
  [[noreturn]] void Fail(const std::string& key, const std::string& expected) const;

  nlohmann::json options_;
  std::string what_;
  std::set<std::string> read_;
};

}  // namespace graphport

#endif  // GRAPHPORT_API_OPTIONS_H_

#include "tf/freeze/text_file_table.h"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

#include "core/error.h"

namespace graphport::tf {
namespace {

using tensorflow::DataType;

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

std::string Trimmed(const std::string& text) {
  size_t begin = 0, end = text.size();
  while (begin < end && IsSpace(text[begin])) ++begin;
  while (end > begin && IsSpace(text[end - 1])) --end;
  return text.substr(begin, end - begin);
}

// TensorFlow's safe_strto64: spaces around, an optional sign, decimal digits, no overflow.
bool ParseInt64(const std::string& token, int64_t* out) {
  std::string text = Trimmed(token);
  size_t at = 0;
  bool negative = false;
  if (at < text.size() && (text[at] == '+' || text[at] == '-')) negative = text[at++] == '-';
  if (at == text.size()) return false;
  uint64_t magnitude = 0;
  const uint64_t limit = negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
  for (; at < text.size(); ++at) {
    if (text[at] < '0' || text[at] > '9') return false;
    uint64_t digit = static_cast<uint64_t>(text[at] - '0');
    if (magnitude > (limit - digit) / 10) return false;
    magnitude = magnitude * 10 + digit;
  }
  *out = negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
  return true;
}

// TensorFlow's safe_strtod: spaces around, decimal or "inf"/"nan", the whole token.
bool ParseDouble(const std::string& token, double* out) {
  std::string text = Trimmed(token);
  if (text.empty() || text.find_first_of("xX") != std::string::npos) return false;
  char* end = nullptr;
  *out = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size();
}

const char* TextFileDtypeName(DataType dtype) {
  switch (dtype) {
    case tensorflow::DT_STRING:
      return "string";
    case tensorflow::DT_INT32:
      return "int32";
    case tensorflow::DT_INT64:
      return "int64";
    case tensorflow::DT_FLOAT:
      return "float";
    case tensorflow::DT_DOUBLE:
      return "double";
    default:
      return nullptr;
  }
}

// One field of a line as the table's dtype, appended to `tensor`; the text form for messages
// and duplicate checks in *text.
class FieldWriter {
 public:
  FieldWriter(const std::string& file, const TextFileTableSpec& spec) : file_(file), spec_(spec) {}

  void Append(const std::string& line, const std::vector<std::string>& tokens, int64_t index,
              int64_t line_number, uint64_t line_offset, tensorflow::TensorProto* tensor,
              std::string* text) {
    if (index == kTextFileLineNumber) {
      int64_t value = line_number + spec_.offset;
      tensor->add_int64_val(value);
      *text = std::to_string(value);
      return;
    }
    const std::string& token = index == kTextFileWholeLine ? line : tokens[index];
    *text = token;
    switch (tensor->dtype()) {
      case tensorflow::DT_STRING:
        tensor->add_string_val(token);
        return;
      case tensorflow::DT_INT32: {
        int64_t value = 0;
        if (!ParseInt64(token, &value) || value < std::numeric_limits<int32_t>::min() ||
            value > std::numeric_limits<int32_t>::max()) {
          Fail(token, "int32", line_number, line_offset);
        }
        // TensorFlow adds the offset to int32 fields (and only to them).
        tensor->add_int_val(static_cast<int32_t>(value + spec_.offset));
        return;
      }
      case tensorflow::DT_INT64: {
        int64_t value = 0;
        if (!ParseInt64(token, &value)) Fail(token, "int64", line_number, line_offset);
        tensor->add_int64_val(value);
        return;
      }
      case tensorflow::DT_FLOAT: {
        double value = 0;
        if (!ParseDouble(token, &value)) Fail(token, "float", line_number, line_offset);
        tensor->add_float_val(static_cast<float>(value));
        return;
      }
      case tensorflow::DT_DOUBLE: {
        double value = 0;
        if (!ParseDouble(token, &value)) Fail(token, "double", line_number, line_offset);
        tensor->add_double_val(value);
        return;
      }
      default:
        return;  // refused before reading
    }
  }

 private:
  [[noreturn]] void Fail(const std::string& token, const char* dtype, int64_t line,
                         uint64_t offset) {
    throw Error(ErrorCode::kParseError,
                file_ + ": field '" + token + "' of line " + std::to_string(line) +
                    " is not a valid " + dtype,
                ErrorLocation::InFile(file_, static_cast<int64_t>(offset)));
  }

  const std::string& file_;
  const TextFileTableSpec& spec_;
};

void CheckSpec(const TextFileTableSpec& spec, const std::string& file) {
  auto refuse = [&](const std::string& why) {
    throw Error(ErrorCode::kUnsupported, file + ": a table initialized from this text file " + why,
                ErrorLocation::InFile(file));
  };
  for (auto [dtype, side] :
       {std::pair{spec.key_dtype, "key"}, std::pair{spec.value_dtype, "value"}}) {
    if (TextFileDtypeName(dtype) == nullptr) {
      refuse(std::string("has a ") + side + " dtype (" + std::to_string(dtype) +
             ") TensorFlow does not read from text files");
    }
  }
  for (auto [index, dtype, side] : {std::tuple{spec.key_index, spec.key_dtype, "key"},
                                    std::tuple{spec.value_index, spec.value_dtype, "value"}}) {
    if (index < kTextFileWholeLine || index > std::numeric_limits<int32_t>::max()) {
      refuse(std::string("has ") + side + " index " + std::to_string(index) +
             " (TensorFlow allows -2, -1 or an int32 column)");
    }
    if (index == kTextFileLineNumber && dtype != tensorflow::DT_INT64) {
      refuse(std::string("takes its ") + side + "s from line numbers into a " +
             TextFileDtypeName(dtype) + " table (TensorFlow needs int64)");
    }
    if (index == kTextFileWholeLine &&
        (dtype == tensorflow::DT_FLOAT || dtype == tensorflow::DT_DOUBLE)) {
      refuse(std::string("takes whole lines as ") + TextFileDtypeName(dtype) + " " + side +
             "s (TensorFlow needs a string or an integer)");
    }
  }
}

}  // namespace

TextFileTable ReadTextFileTable(const std::string& bytes, const std::string& file,
                                const TextFileTableSpec& spec) {
  CheckSpec(spec, file);
  TextFileTable table;
  table.keys.set_dtype(spec.key_dtype);
  table.values.set_dtype(spec.value_dtype);
  const bool split = std::max(spec.key_index, spec.value_index) >= 0;
  const size_t columns = static_cast<size_t>(std::max(spec.key_index, spec.value_index) + 1);
  FieldWriter fields(file, spec);
  std::map<std::string, std::string> seen;  // key -> value, as text
  std::vector<std::string> tokens;
  size_t at = 0;
  while (at < bytes.size()) {
    if (spec.vocab_size != -1 && table.lines >= spec.vocab_size) break;
    size_t end = bytes.find('\n', at);
    size_t next = end == std::string::npos ? bytes.size() : end + 1;
    if (end == std::string::npos) end = bytes.size();
    std::string line = bytes.substr(at, end - at);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const uint64_t line_offset = at;
    at = next;
    if (line.empty()) {
      throw Error(ErrorCode::kParseError,
                  file + ": line " + std::to_string(table.lines) +
                      " is empty, which TensorFlow refuses in a table's text file",
                  ErrorLocation::InFile(file, static_cast<int64_t>(line_offset)));
    }
    tokens.clear();
    if (split) {
      size_t start = 0;
      for (;;) {
        size_t cut = line.find(spec.delimiter, start);
        tokens.push_back(line.substr(start, cut == std::string::npos ? cut : cut - start));
        if (cut == std::string::npos) break;
        start = cut + 1;
      }
      if (tokens.size() < columns) {
        throw Error(ErrorCode::kParseError,
                    file + ": line " + std::to_string(table.lines) + " has " +
                        std::to_string(tokens.size()) + " columns, the table reads column " +
                        std::to_string(columns - 1),
                    ErrorLocation::InFile(file, static_cast<int64_t>(line_offset)));
      }
    }
    std::string key, value;
    fields.Append(line, tokens, spec.key_index, table.lines, line_offset, &table.keys, &key);
    fields.Append(line, tokens, spec.value_index, table.lines, line_offset, &table.values, &value);
    ++table.lines;
    auto [it, added] = seen.emplace(key, value);
    if (added) continue;
    if (it->second != value) {
      throw Error(ErrorCode::kParseError,
                  file + ": line " + std::to_string(table.lines - 1) + " gives key '" + key +
                      "' the value " + value + ", an earlier line " + it->second +
                      " (TensorFlow's table refuses a key with two values)",
                  ErrorLocation::InFile(file, static_cast<int64_t>(line_offset)));
    }
    // The same entry again: a hash table holds it once.
    ++table.duplicates;
    auto drop_last = [](tensorflow::TensorProto* t) {
      if (t->string_val_size()) t->mutable_string_val()->RemoveLast();
      if (t->int_val_size()) t->mutable_int_val()->RemoveLast();
      if (t->int64_val_size()) t->mutable_int64_val()->RemoveLast();
      if (t->float_val_size()) t->mutable_float_val()->RemoveLast();
      if (t->double_val_size()) t->mutable_double_val()->RemoveLast();
    };
    drop_last(&table.keys);
    drop_last(&table.values);
  }
  if (spec.vocab_size != -1 && table.lines != spec.vocab_size) {
    throw Error(ErrorCode::kParseError,
                file + ": the table's vocab_size is " + std::to_string(spec.vocab_size) +
                    " but the file has " + std::to_string(table.lines) + " lines",
                ErrorLocation::InFile(file, static_cast<int64_t>(bytes.size())));
  }
  int64_t entries = table.lines - table.duplicates;
  for (tensorflow::TensorProto* t : {&table.keys, &table.values}) {
    t->mutable_tensor_shape()->add_dim()->set_size(entries);
  }
  return table;
}

}  // namespace graphport::tf

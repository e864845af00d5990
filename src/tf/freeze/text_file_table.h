// The keys and values a table initialized from a text file holds (TensorFlow's
// InitializeTableFromTextFileV2), read from the file's bytes as TensorFlow reads them: one
// entry a line (lines end at '\n', a '\r' before it is dropped, a last line without '\n'
// counts), a column index picks the token of the line split at the delimiter, -1 means the
// line number (plus `offset`) and -2 the whole line. TensorFlow's quirks are kept: an int32
// field gets `offset` added, an int64 field does not; an empty line is an error; a vocab_size
// other than -1 keeps the first vocab_size lines and needs that many.
#ifndef GRAPHPORT_TF_FREEZE_TEXT_FILE_TABLE_H_
#define GRAPHPORT_TF_FREEZE_TEXT_FILE_TABLE_H_

#include <cstdint>
#include <string>

#include "tensorflow/tensor.pb.h"
#include "tensorflow/types.pb.h"

namespace graphport::tf {

inline constexpr int64_t kTextFileLineNumber = -1;
inline constexpr int64_t kTextFileWholeLine = -2;

struct TextFileTableSpec {
  tensorflow::DataType key_dtype = tensorflow::DT_STRING;
  tensorflow::DataType value_dtype = tensorflow::DT_INT64;
  int64_t key_index = kTextFileWholeLine;
  int64_t value_index = kTextFileLineNumber;
  int64_t vocab_size = -1;
  char delimiter = '\t';
  int64_t offset = 0;
};

struct TextFileTable {
  tensorflow::TensorProto keys;    // 1-D, key_dtype
  tensorflow::TensorProto values;  // 1-D, value_dtype
  int64_t lines = 0;               // lines read
  int64_t duplicates = 0;          // lines whose key an earlier line gave the same value
};

// `file` names the file in messages. Throws Error(kParseError) naming the file, the line and
// its byte offset for what TensorFlow refuses (an empty line, too few columns, a field that is
// no number of the dtype, a key given two values, fewer lines than vocab_size), and
// Error(kUnsupported) for a dtype or index TensorFlow does not allow.
TextFileTable ReadTextFileTable(const std::string& bytes, const std::string& file,
                                const TextFileTableSpec& spec);

}  // namespace graphport::tf

#endif  // GRAPHPORT_TF_FREEZE_TEXT_FILE_TABLE_H_

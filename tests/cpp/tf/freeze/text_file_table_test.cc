#include "tf/freeze/text_file_table.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/error.h"

namespace graphport::testing {
namespace {

using tf::ReadTextFileTable;
using tf::TextFileTable;
using tf::TextFileTableSpec;

std::vector<std::string> Strings(const tensorflow::TensorProto& t) {
  return {t.string_val().begin(), t.string_val().end()};
}
std::vector<int64_t> Int64s(const tensorflow::TensorProto& t) {
  return {t.int64_val().begin(), t.int64_val().end()};
}

// The refusal's code and message, for what TensorFlow's kernel refuses.
Error Refusal(const std::string& bytes, const TextFileTableSpec& spec) {
  try {
    ReadTextFileTable(bytes, "vocab.txt", spec);
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "no error for " << bytes;
  return Error(ErrorCode::kInternal, "");
}

TEST(TextFileTable, WholeLinesToLineNumbersAsAVocabularyIsRead) {
  // tf.Transform's vocabulary: key_index -2, value_index -1, TensorFlow's defaults otherwise.
  TextFileTable table = ReadTextFileTable("Cash\nCredit Card\r\nNo Charge", "vocab.txt", {});
  EXPECT_EQ(Strings(table.keys), (std::vector<std::string>{"Cash", "Credit Card", "No Charge"}));
  EXPECT_EQ(Int64s(table.values), (std::vector<int64_t>{0, 1, 2}));
  EXPECT_EQ(table.keys.dtype(), tensorflow::DT_STRING);
  EXPECT_EQ(table.values.dtype(), tensorflow::DT_INT64);
  ASSERT_EQ(table.keys.tensor_shape().dim_size(), 1);
  EXPECT_EQ(table.keys.tensor_shape().dim(0).size(), 3);
  EXPECT_EQ(table.values.tensor_shape().dim(0).size(), 3);
  EXPECT_EQ(table.lines, 3);
}

TEST(TextFileTable, ColumnsSplitAtTheDelimiterAndOffsetAddsToInt32AndLineNumbersOnly) {
  TextFileTableSpec spec;
  spec.key_dtype = tensorflow::DT_INT64;
  spec.value_dtype = tensorflow::DT_INT32;
  spec.key_index = 1;
  spec.value_index = 0;
  spec.delimiter = ',';
  spec.offset = 100;
  TextFileTable table = ReadTextFileTable(" 7 ,-42\n8,9,extra\n", "pairs.csv", spec);
  // int64 keys as written (spaces around a number are allowed), int32 values + offset.
  EXPECT_EQ(Int64s(table.keys), (std::vector<int64_t>{-42, 9}));
  EXPECT_EQ(std::vector<int32_t>(table.values.int_val().begin(), table.values.int_val().end()),
            (std::vector<int32_t>{107, 108}));

  spec.key_dtype = tensorflow::DT_STRING;
  spec.value_dtype = tensorflow::DT_INT64;
  spec.key_index = 0;
  spec.value_index = tf::kTextFileLineNumber;
  TextFileTable numbered = ReadTextFileTable("a,x\nb,y\n", "pairs.csv", spec);
  EXPECT_EQ(Int64s(numbered.values), (std::vector<int64_t>{100, 101}));
}

TEST(TextFileTable, FloatValuesAndVocabSizeKeepsTheFirstLines) {
  TextFileTableSpec spec;
  spec.value_dtype = tensorflow::DT_FLOAT;
  spec.key_index = 0;
  spec.value_index = 1;
  spec.delimiter = ' ';
  spec.vocab_size = 2;
  TextFileTable table = ReadTextFileTable("a 0.5\nb -2e3\nc nope\n", "f.txt", spec);
  EXPECT_EQ(Strings(table.keys), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(std::vector<float>(table.values.float_val().begin(), table.values.float_val().end()),
            (std::vector<float>{0.5f, -2000.0f}));
}

TEST(TextFileTable, ARepeatedEntryIsHeldOnceAndAKeyWithTwoValuesIsRefused) {
  TextFileTableSpec spec;
  spec.key_index = 0;
  spec.value_index = 1;
  spec.delimiter = '\t';
  TextFileTable table = ReadTextFileTable("a\t1\nb\t2\na\t1\n", "t.tsv", spec);
  EXPECT_EQ(Strings(table.keys), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(Int64s(table.values), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(table.duplicates, 1);
  EXPECT_EQ(table.keys.tensor_shape().dim(0).size(), 2);

  Error twice = Refusal("a\t1\nb\t2\na\t3\n", spec);
  EXPECT_EQ(twice.code(), ErrorCode::kParseError);
  EXPECT_NE(std::string(twice.what()).find("key 'a'"), std::string::npos) << twice.what();
  EXPECT_EQ(twice.where().offset, 8);

  // With line numbers as values a repeated line is two values for one key.
  Error vocabulary = Refusal("a\nb\na\n", {});
  EXPECT_EQ(vocabulary.code(), ErrorCode::kParseError);
}

TEST(TextFileTable, WhatTensorflowRefusesNamesTheFileLineAndOffset) {
  Error empty = Refusal("a\n\nb\n", {});
  EXPECT_EQ(empty.code(), ErrorCode::kParseError);
  EXPECT_EQ(empty.where().file, "vocab.txt");
  EXPECT_EQ(empty.where().offset, 2);
  EXPECT_NE(std::string(empty.what()).find("line 1 is empty"), std::string::npos) << empty.what();

  TextFileTableSpec columns;
  columns.key_index = 0;
  columns.value_index = 2;
  columns.value_dtype = tensorflow::DT_STRING;
  Error short_line = Refusal("a\tb\tc\nd\te\n", columns);
  EXPECT_EQ(short_line.code(), ErrorCode::kParseError);
  EXPECT_EQ(short_line.where().offset, 6);

  TextFileTableSpec numbers;
  numbers.key_index = 0;
  numbers.value_index = 1;
  numbers.value_dtype = tensorflow::DT_INT32;
  Error overflow = Refusal("a\t2147483648\n", numbers);
  EXPECT_EQ(overflow.code(), ErrorCode::kParseError);
  EXPECT_NE(std::string(overflow.what()).find("not a valid int32"), std::string::npos);
  EXPECT_EQ(Refusal("a\t0x10\n", numbers).code(), ErrorCode::kParseError);

  TextFileTableSpec sized;
  sized.vocab_size = 4;
  Error few = Refusal("a\nb\n", sized);
  EXPECT_EQ(few.code(), ErrorCode::kParseError);
  EXPECT_NE(std::string(few.what()).find("vocab_size is 4"), std::string::npos) << few.what();
}

TEST(TextFileTable, ATableTensorflowCannotFillFromTextIsUnsupported) {
  TextFileTableSpec line_numbers_as_int32;
  line_numbers_as_int32.value_dtype = tensorflow::DT_INT32;
  EXPECT_EQ(Refusal("a\n", line_numbers_as_int32).code(), ErrorCode::kUnsupported);
  TextFileTableSpec bool_keys;
  bool_keys.key_dtype = tensorflow::DT_BOOL;
  EXPECT_EQ(Refusal("a\n", bool_keys).code(), ErrorCode::kUnsupported);
  TextFileTableSpec whole_line_floats;
  whole_line_floats.key_dtype = tensorflow::DT_FLOAT;
  EXPECT_EQ(Refusal("1.5\n", whole_line_floats).code(), ErrorCode::kUnsupported);
}

}  // namespace
}  // namespace graphport::testing

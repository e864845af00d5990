#include "core/error.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "core/error_codes.h"

namespace graphport {
namespace {

// The names are a public contract (the CLI prints them, the JS layer exposes them as
// GraphportError.code): each code keeps its name.
TEST(ErrorCodeNameTest, StableNames) {
  EXPECT_STREQ(ErrorCodeName(ErrorCode::kEmptyInput), "EMPTY_INPUT");
  EXPECT_STREQ(ErrorCodeName(ErrorCode::kUnknownFormat), "UNKNOWN_FORMAT");
  EXPECT_STREQ(ErrorCodeName(ErrorCode::kParseError), "PARSE_ERROR");
  EXPECT_STREQ(ErrorCodeName(ErrorCode::kTooLarge), "TOO_LARGE");
  EXPECT_STREQ(ErrorCodeName(ErrorCode::kInvalidOption), "INVALID_OPTION");
  EXPECT_STREQ(ErrorCodeName(ErrorCode::kNotFound), "NOT_FOUND");
  EXPECT_STREQ(ErrorCodeName(ErrorCode::kUnsupported), "UNSUPPORTED");
  EXPECT_STREQ(ErrorCodeName(ErrorCode::kIo), "IO_ERROR");
  EXPECT_STREQ(ErrorCodeName(ErrorCode::kInternal), "INTERNAL");
}

TEST(ErrorCodeNameTest, StableNumbering) {
  // Never renumber: the enum order is part of the contract as well.
  EXPECT_EQ(static_cast<int>(ErrorCode::kEmptyInput), 0);
  EXPECT_EQ(static_cast<int>(ErrorCode::kUnknownFormat), 1);
  EXPECT_EQ(static_cast<int>(ErrorCode::kParseError), 2);
  EXPECT_EQ(static_cast<int>(ErrorCode::kTooLarge), 3);
  EXPECT_EQ(static_cast<int>(ErrorCode::kInvalidOption), 4);
  EXPECT_EQ(static_cast<int>(ErrorCode::kNotFound), 5);
  EXPECT_EQ(static_cast<int>(ErrorCode::kUnsupported), 6);
  EXPECT_EQ(static_cast<int>(ErrorCode::kIo), 7);
  EXPECT_EQ(static_cast<int>(ErrorCode::kInternal), 8);
}

// The one list names every code once, in the enum's order, and says what each means.
TEST(ErrorCodesTest, ListsEveryCodeInOrderWithAMeaning) {
  const auto& codes = ErrorCodes();
  ASSERT_EQ(codes.size(), static_cast<size_t>(ErrorCode::kInternal) + 1);
  std::set<std::string> names;
  for (size_t i = 0; i < codes.size(); ++i) {
    EXPECT_EQ(static_cast<size_t>(codes[i].code), i);
    EXPECT_STREQ(ErrorCodeName(codes[i].code), codes[i].name);
    EXPECT_TRUE(names.insert(codes[i].name).second) << codes[i].name;
    EXPECT_GT(std::string(codes[i].meaning).size(), 10u) << codes[i].name;
  }
}

TEST(ErrorTest, CarriesCodeAndMessage) {
  try {
    throw Error(ErrorCode::kNotFound, "model.pb: no such tag set");
  } catch (const std::exception& e) {  // catchable as a standard exception
    const auto* error = dynamic_cast<const Error*>(&e);
    ASSERT_NE(error, nullptr);
    EXPECT_EQ(error->code(), ErrorCode::kNotFound);
    EXPECT_STREQ(e.what(), "model.pb: no such tag set");
  }
}

}  // namespace
}  // namespace graphport

// The user_info pickles: the writer's bytes are CPython 3.8+'s (dump_details §5.2), and the
// restricted reader decodes plain values and refuses anything that could run code.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "mge/pickle/pickle_reader.h"
#include "mge/pickle/pickle_writer.h"

namespace graphport::mge {
namespace {

std::string B(const char* s, size_t n) { return std::string(s, n); }

TEST(MgePickleWriter, BytesAsCPythonWritesThem) {
  EXPECT_EQ(PickleNone(), B("\x80\x04N.", 4));
  EXPECT_EQ(PickleStr("test"), B("\x80\x04\x95\x08\0\0\0\0\0\0\0\x8c\x04test\x94.", 19));
  EXPECT_EQ(PickleStr(""), B("\x80\x04\x95\x04\0\0\0\0\0\0\0\x8c\x00\x94.", 15));
  EXPECT_EQ(PickleBytes("ab"), B("\x80\x04\x95\x06\0\0\0\0\0\0\0\x43\x02"
                                 "ab\x94.",
                                 17));
  // 256 bytes: BINUNICODE with a u32 length, still framed.
  std::string s256(256, 'x');
  std::string p = PickleStr(s256);
  EXPECT_EQ(p.substr(0, 16), B("\x80\x04\x95\x07\x01\0\0\0\0\0\0X\x00\x01\0\0", 16));
  EXPECT_EQ(p.size(), 2 + 9 + 5 + 256 + 2);
  // 64 KiB and more: written outside any frame.
  std::string big(65536, 'y');
  std::string q = PickleBytes(big);
  EXPECT_EQ(q.substr(0, 7), B("\x80\x04\x42\x00\x00\x01\x00", 7));
  EXPECT_EQ(q.substr(q.size() - 2), B("\x94.", 2));
  EXPECT_EQ(q.size(), 2 + 5 + 65536 + 2);
}

nlohmann::json Read(const std::string& bytes) {
  nlohmann::json v;
  std::string why;
  EXPECT_TRUE(ReadPlainPickle(bytes, &v, &why)) << why;
  return v;
}

TEST(MgePickleReader, PlainValues) {
  EXPECT_TRUE(Read(PickleNone()).is_null());
  EXPECT_EQ(Read(PickleStr("test")), "test");
  EXPECT_EQ(Read(PickleBytes("ab")), nlohmann::json({{"$bytes", "YWI="}}));
  EXPECT_EQ(Read(B("\x80\x04K\x00.", 5)), 0);
  EXPECT_EQ(Read(B("\x80\x04]\x94.", 5)), nlohmann::json::array());
  EXPECT_EQ(Read(B("\x80\x04\x95\x0a\0\0\0\0\0\0\0G\x3f\xf0\0\0\0\0\0\0.", 21)), 1.0);
  // 2**31 as LONG1; -1 as BININT.
  EXPECT_EQ(Read(B("\x80\x04\x8a\x05\0\0\0\x80\0.", 10)), int64_t{1} << 31);
  EXPECT_EQ(Read(B("\x80\x04J\xff\xff\xff\xff.", 8)), -1);
  // {"str": "x", "none": None}
  std::string dict =
      B("\x80\x04\x95\x17\0\0\0\0\0\0\0}\x94(\x8c\x03str\x94\x8c\x01x\x94\x8c\x04none\x94Nu.", 34);
  EXPECT_EQ(Read(dict), nlohmann::json({{"str", "x"}, {"none", nullptr}}));
  // ['x', 'x'] with the second a memo reference; (1, True) tuple.
  EXPECT_EQ(Read(B("\x80\x04]\x94(\x8c\x01x\x94h\x01"
                   "e.",
                   13)),
            nlohmann::json({"x", "x"}));
  EXPECT_EQ(Read(B("\x80\x04K\x01\x88\x86\x94.", 8)), nlohmann::json({1, true}));
}

TEST(MgePickleReader, RefusesCodeAndMalformedInput) {
  nlohmann::json v;
  std::string why;
  // GLOBAL 'os system' would import: refused by opcode.
  EXPECT_FALSE(ReadPlainPickle(B("\x80\x02"
                                 "cos\nsystem\n.",
                                 13),
                               &v, &why));
  EXPECT_NE(why.find("0x63"), std::string::npos) << why;
  EXPECT_FALSE(ReadPlainPickle(B("\x80\x04\x8c\x10short", 9), &v, &why));  // past the end
  EXPECT_FALSE(ReadPlainPickle(B("\x80\x04N", 3), &v, &why));              // no STOP
  EXPECT_FALSE(ReadPlainPickle(B("\x80\x04h\x05.", 5), &v, &why));         // unknown memo
  EXPECT_FALSE(ReadPlainPickle(B("\x80\x04"
                                 "a.",
                                 4),
                               &v, &why));  // APPEND, no list
  EXPECT_FALSE(ReadPlainPickle("", &v, &why));
  // A list that contains itself cannot become JSON.
  EXPECT_FALSE(ReadPlainPickle(B("\x80\x04]\x94h\x00"
                                 "a.",
                                 8),
                               &v, &why));
}

}  // namespace
}  // namespace graphport::mge

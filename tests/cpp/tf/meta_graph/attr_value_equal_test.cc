// AreAttrValuesEqual as TensorFlow defines it (attr_value_util.cc, tensorflow.md §1.7): types
// directly, tensors by value, functions by name and attrs, the rest by serialized bytes.
#include "tf/meta_graph/attr_value_equal.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "meta_graph_test_util.h"

namespace graphport::tf {
namespace {

using mgtest::Text;

tensorflow::AttrValue A(const std::string& text) { return Text<tensorflow::AttrValue>(text); }
tensorflow::TensorProto T(const std::string& text) { return Text<tensorflow::TensorProto>(text); }

bool Eq(const std::string& a, const std::string& b) {
  bool ab = AreAttrValuesEqual(A(a), A(b));
  bool ba = AreAttrValuesEqual(A(b), A(a));
  EXPECT_EQ(ab, ba) << "not symmetric: " << a << " vs " << b;
  return ab;
}

// Little-endian bytes of floats, as tensor_content holds them.
std::string FloatBytes(std::initializer_list<float> values) {
  std::string out;
  for (float v : values) {
    char b[4];
    std::memcpy(b, &v, 4);
    out.append(b, 4);
  }
  return out;
}

tensorflow::TensorProto FloatContent(std::initializer_list<int64_t> dims,
                                     std::initializer_list<float> values) {
  tensorflow::TensorProto t;
  t.set_dtype(tensorflow::DT_FLOAT);
  for (int64_t d : dims) t.mutable_tensor_shape()->add_dim()->set_size(d);
  t.set_tensor_content(FloatBytes(values));
  return t;
}

TEST(AttrValueEqualTest, Types) {
  EXPECT_TRUE(Eq("type: DT_FLOAT", "type: DT_FLOAT"));
  EXPECT_FALSE(Eq("type: DT_FLOAT", "type: DT_DOUBLE"));
  EXPECT_FALSE(Eq("type: DT_FLOAT", "i: 1"));
  EXPECT_FALSE(Eq("type: DT_COMPLEX64", "type: DT_COMPLEX128"));
}

TEST(AttrValueEqualTest, ScalarsAndStringsCompareBySerializedBytes) {
  EXPECT_TRUE(Eq("i: 0", "i: 0"));
  EXPECT_FALSE(Eq("i: 0", "i: 1"));
  EXPECT_TRUE(Eq("b: false", "b: false"));
  EXPECT_FALSE(Eq("b: false", "b: true"));
  EXPECT_TRUE(Eq("s: \"NHWC\"", "s: \"NHWC\""));
  EXPECT_FALSE(Eq("s: \"NHWC\"", "s: \"NCHW\""));
  // An empty string value is set (oneof), so it differs from an AttrValue holding nothing.
  EXPECT_TRUE(Eq("s: \"\"", "s: \"\""));
  EXPECT_FALSE(Eq("s: \"\"", ""));
  EXPECT_TRUE(Eq("f: 0.0001", "f: 0.0001"));
  EXPECT_FALSE(Eq("f: 0.0001", "f: 0.0002"));
  EXPECT_FALSE(Eq("i: 0", "b: false"));
}

// "-0.0 != 0.0" and "NaNs compare bitwise": bytes, not float comparison (tensorflow.md §1.7).
TEST(AttrValueEqualTest, FloatsCompareByBits) {
  EXPECT_FALSE(Eq("f: -0.0", "f: 0.0"));
  tensorflow::AttrValue nan;
  nan.set_f(std::numeric_limits<float>::quiet_NaN());
  EXPECT_TRUE(AreAttrValuesEqual(nan, nan));
  tensorflow::AttrValue other_nan;
  uint32_t bits = 0x7fc00001;
  float payload;
  std::memcpy(&payload, &bits, 4);
  other_nan.set_f(payload);
  ASSERT_TRUE(std::isnan(payload));
  EXPECT_FALSE(AreAttrValuesEqual(nan, other_nan));
}

TEST(AttrValueEqualTest, ListsAndShapes) {
  EXPECT_TRUE(Eq("list {}", "list {}"));
  EXPECT_FALSE(Eq("list {}", ""));
  EXPECT_TRUE(Eq("list { i: 1 i: 1 i: 1 i: 1 }", "list { i: 1 i: 1 i: 1 i: 1 }"));
  EXPECT_FALSE(Eq("list { i: 1 i: 1 i: 1 i: 1 }", "list { i: 1 i: 1 i: 1 }"));
  EXPECT_FALSE(Eq("list { i: 1 i: 2 }", "list { i: 2 i: 1 }"));
  EXPECT_TRUE(Eq("list { type: DT_FLOAT }", "list { type: DT_FLOAT }"));
  EXPECT_TRUE(Eq("shape { unknown_rank: true }", "shape { unknown_rank: true }"));
  EXPECT_FALSE(Eq("shape { unknown_rank: true }", "shape {}"));
  EXPECT_FALSE(Eq("shape { dim { size: 2 } }", "shape { dim { size: 3 } }"));
}

TEST(AttrValueEqualTest, FunctionsCompareByNameAndAttrs) {
  EXPECT_TRUE(Eq("func { name: \"f\" }", "func { name: \"f\" }"));
  EXPECT_FALSE(Eq("func { name: \"f\" }", "func { name: \"g\" }"));
  EXPECT_TRUE(Eq(
      R"(func { name: "f" attr { key: "a" value { i: 1 } } attr { key: "b" value { type: DT_INT32 } } })",
      R"(func { name: "f" attr { key: "b" value { type: DT_INT32 } } attr { key: "a" value { i: 1 } } })"));
  EXPECT_FALSE(Eq(R"(func { name: "f" attr { key: "a" value { i: 1 } } })",
                  R"(func { name: "f" attr { key: "a" value { i: 2 } } })"));
  EXPECT_FALSE(
      Eq(R"(func { name: "f" attr { key: "a" value { i: 1 } } })", R"(func { name: "f" })"));
  EXPECT_FALSE(Eq(R"(func { name: "f" attr { key: "a" value { i: 1 } } })",
                  R"(func { name: "f" attr { key: "b" value { i: 1 } } })"));
  // Nested attrs compare with the same rules: a tensor inside by value.
  EXPECT_TRUE(Eq(
      R"(func { name: "f" attr { key: "t" value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 2 } } float_val: 1 } } } })",
      R"(func { name: "f" attr { key: "t" value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 2 } } float_val: 1 float_val: 1 } } } })"));
  EXPECT_FALSE(Eq("func { name: \"f\" }", "s: \"f\""));
}

TEST(AttrValueEqualTest, TensorOnOneSideOnly) {
  EXPECT_FALSE(Eq("tensor { dtype: DT_FLOAT tensor_shape {} float_val: 0 }", "f: 0"));
  EXPECT_FALSE(Eq("tensor { dtype: DT_FLOAT tensor_shape {} }", ""));
}

// TensorFlow materialises both tensors (Tensor::FromProto) and compares them re-encoded as
// tensor_content: a splat float_val equals the same values spelled out or as raw bytes.
TEST(AttrValueEqualTest, TensorsCompareByValue) {
  tensorflow::TensorProto splat =
      T("dtype: DT_FLOAT tensor_shape { dim { size: 2 } dim { size: 2 } } float_val: 1");
  tensorflow::TensorProto spelled =
      T("dtype: DT_FLOAT tensor_shape { dim { size: 2 } dim { size: 2 } } float_val: 1 float_val: "
        "1 float_val: 1 float_val: 1");
  tensorflow::TensorProto content = FloatContent({2, 2}, {1, 1, 1, 1});
  EXPECT_TRUE(AreTensorsEqual(splat, spelled));
  EXPECT_TRUE(AreTensorsEqual(splat, content));
  EXPECT_TRUE(AreTensorsEqual(content, splat));
  EXPECT_TRUE(AreTensorsEqual(content, spelled));
  EXPECT_FALSE(AreTensorsEqual(splat, FloatContent({2, 2}, {1, 1, 1, 2})));

  tensorflow::AttrValue a, b;
  *a.mutable_tensor() = splat;
  *b.mutable_tensor() = content;
  EXPECT_TRUE(AreAttrValuesEqual(a, b));
}

// FromProtoField: a shorter list repeats its last value; an empty one is zeros.
TEST(AttrValueEqualTest, ShortValueListsRepeatTheLastValue) {
  EXPECT_TRUE(AreTensorsEqual(
      T("dtype: DT_FLOAT tensor_shape { dim { size: 4 } } float_val: 1 float_val: 2"),
      FloatContent({4}, {1, 2, 2, 2})));
  EXPECT_FALSE(AreTensorsEqual(
      T("dtype: DT_FLOAT tensor_shape { dim { size: 4 } } float_val: 1 float_val: 2"),
      FloatContent({4}, {1, 2, 0, 0})));
  EXPECT_TRUE(AreTensorsEqual(T("dtype: DT_FLOAT tensor_shape { dim { size: 3 } }"),
                              FloatContent({3}, {0, 0, 0})));
  EXPECT_TRUE(AreTensorsEqual(
      T("dtype: DT_INT32 tensor_shape { dim { size: 3 } } int_val: 7"),
      T("dtype: DT_INT32 tensor_shape { dim { size: 3 } } int_val: 7 int_val: 7 int_val: 7")));
  EXPECT_TRUE(AreTensorsEqual(
      T("dtype: DT_INT64 tensor_shape { dim { size: 2 } } int64_val: -1"),
      T("dtype: DT_INT64 tensor_shape { dim { size: 2 } } tensor_content: "
        "\"\\377\\377\\377\\377\\377\\377\\377\\377\\377\\377\\377\\377\\377\\377\\377\\377\"")));
  EXPECT_TRUE(AreTensorsEqual(
      T("dtype: DT_BOOL tensor_shape { dim { size: 2 } } bool_val: true"),
      T("dtype: DT_BOOL tensor_shape { dim { size: 2 } } tensor_content: \"\\001\\001\"")));
  EXPECT_TRUE(AreTensorsEqual(
      T("dtype: DT_INT8 tensor_shape { dim { size: 2 } } int_val: -2"),
      T("dtype: DT_INT8 tensor_shape { dim { size: 2 } } tensor_content: \"\\376\\376\"")));
}

// FromProtoField copies the first n values when the list is longer than the shape
// ("if (n <= in_n) std::copy_n(begin, n, data)"), so the extra values do not count.
TEST(AttrValueEqualTest, LongValueListsAreCutToTheShape) {
  EXPECT_TRUE(AreTensorsEqual(
      T("dtype: DT_FLOAT tensor_shape { dim { size: 2 } } float_val: 1 float_val: 2 float_val: 3"),
      FloatContent({2}, {1, 2})));
  EXPECT_FALSE(AreTensorsEqual(
      T("dtype: DT_FLOAT tensor_shape { dim { size: 2 } } float_val: 1 float_val: 2 float_val: 3"),
      FloatContent({2}, {1, 3})));
}

TEST(AttrValueEqualTest, ScalarTensors) {
  EXPECT_TRUE(
      AreTensorsEqual(T("dtype: DT_FLOAT tensor_shape {} float_val: 3"), FloatContent({}, {3})));
  EXPECT_TRUE(AreTensorsEqual(T("dtype: DT_DOUBLE tensor_shape {} double_val: 0.5"),
                              T("dtype: DT_DOUBLE tensor_shape {} double_val: 0.5")));
}

TEST(AttrValueEqualTest, TensorSignedZeroDiffers) {
  EXPECT_FALSE(AreTensorsEqual(T("dtype: DT_FLOAT tensor_shape {} float_val: -0.0"),
                               T("dtype: DT_FLOAT tensor_shape {} float_val: 0.0")));
  EXPECT_FALSE(AreTensorsEqual(FloatContent({1}, {-0.0f}), FloatContent({1}, {0.0f})));
}

TEST(AttrValueEqualTest, TensorDtypeAndShapeMatter) {
  // Same bytes, different shape.
  EXPECT_FALSE(
      AreTensorsEqual(FloatContent({4}, {1, 2, 3, 4}), FloatContent({2, 2}, {1, 2, 3, 4})));
  EXPECT_FALSE(AreTensorsEqual(T("dtype: DT_INT32 tensor_shape {} int_val: 1"),
                               T("dtype: DT_UINT32 tensor_shape {} uint32_val: 1")));
  // Dimension names are not part of a Tensor's shape.
  EXPECT_TRUE(AreTensorsEqual(
      T("dtype: DT_FLOAT tensor_shape { dim { size: 1 name: \"a\" } } float_val: 1"),
      T("dtype: DT_FLOAT tensor_shape { dim { size: 1 } } float_val: 1")));
}

TEST(AttrValueEqualTest, StringTensors) {
  EXPECT_TRUE(
      AreTensorsEqual(T("dtype: DT_STRING tensor_shape { dim { size: 2 } } string_val: \"ab\""),
                      T("dtype: DT_STRING tensor_shape { dim { size: 2 } } string_val: \"ab\" "
                        "string_val: \"ab\"")));
  EXPECT_FALSE(AreTensorsEqual(
      T("dtype: DT_STRING tensor_shape { dim { size: 2 } } string_val: \"ab\" string_val: \"c\""),
      T("dtype: DT_STRING tensor_shape { dim { size: 2 } } string_val: \"a\" string_val: \"bc\"")));
}

TEST(AttrValueEqualTest, HalfTensors) {
  // half_val holds the 16 bits of each value in an int32.
  EXPECT_TRUE(AreTensorsEqual(
      T("dtype: DT_HALF tensor_shape { dim { size: 2 } } half_val: 15360"),
      T("dtype: DT_HALF tensor_shape { dim { size: 2 } } tensor_content: \"\\000<\\000<\"")));
}

}  // namespace
}  // namespace graphport::tf

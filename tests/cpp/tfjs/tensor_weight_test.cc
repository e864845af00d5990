// A tensor's values as TF.js stores them (src/tfjs/tensor_weight.h): handed over as they lie
// when they need no conversion, converted otherwise.
#include "tfjs/tensor_weight.h"

#include <gtest/gtest.h>

#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"

namespace graphport::tfjs {
namespace {

tensorflow::TensorShapeProto Shape(const std::vector<int64_t>& dims) {
  tensorflow::TensorShapeProto shape;
  for (int64_t d : dims) shape.add_dim()->set_size(d);
  return shape;
}

TEST(TensorWeightTest, ContentStoredAsTfjsStoresItIsAViewOfIt) {
  const std::string content(24, '\7');
  std::optional<WeightData> data = ContentAsWeight(tensorflow::DT_FLOAT, Shape({2, 3}), content);
  ASSERT_TRUE(data.has_value());
  EXPECT_EQ(data->dtype, WeightDtype::kFloat32);
  EXPECT_EQ(data->elements, 6u);
  EXPECT_EQ(data->bytes().data(), content.data());  // not copied
  EXPECT_EQ(data->bytes().size(), 24u);
  const std::string flags(3, '\1');
  ASSERT_TRUE(ContentAsWeight(tensorflow::DT_BOOL, Shape({3}), flags).has_value());
  EXPECT_EQ(ContentAsWeight(tensorflow::DT_COMPLEX64, Shape({1}), std::string(8, '\0'))->dtype,
            WeightDtype::kComplex64);
}

TEST(TensorWeightTest, ContentThatNeedsConvertingOrDoesNotFitIsLeftToTensorToWeight) {
  // float64 and int64 are converted; strings have no content; the sizes must match the shape.
  EXPECT_FALSE(ContentAsWeight(tensorflow::DT_DOUBLE, Shape({2}), std::string(16, '\0')));
  EXPECT_FALSE(ContentAsWeight(tensorflow::DT_INT64, Shape({2}), std::string(16, '\0')));
  EXPECT_FALSE(ContentAsWeight(tensorflow::DT_STRING, Shape({1}), std::string(4, 'a')));
  EXPECT_FALSE(ContentAsWeight(tensorflow::DT_FLOAT, Shape({2}), std::string(12, '\0')));
  EXPECT_FALSE(ContentAsWeight(tensorflow::DT_FLOAT, Shape({-1}), std::string(4, '\0')));
  EXPECT_FALSE(ContentAsWeight(tensorflow::DT_FLOAT, Shape({2}), ""));
  EXPECT_FALSE(ContentAsWeight(tensorflow::DT_RESOURCE, Shape({1}), std::string(4, '\0')));

  // TensorToWeight converts what ContentAsWeight leaves, and refuses what does not fit.
  tensorflow::TensorProto doubles;
  doubles.set_dtype(tensorflow::DT_DOUBLE);
  *doubles.mutable_tensor_shape() = Shape({2});
  const double values[2] = {1.5, -2.0};
  doubles.set_tensor_content(std::string(reinterpret_cast<const char*>(values), sizeof values));
  WeightData converted = TensorToWeight(doubles, "d");
  ASSERT_EQ(converted.bytes().size(), 8u);
  float first;
  std::memcpy(&first, converted.bytes().data(), 4);
  EXPECT_EQ(first, 1.5f);
  tensorflow::TensorProto short_content;
  short_content.set_dtype(tensorflow::DT_FLOAT);
  *short_content.mutable_tensor_shape() = Shape({2});
  short_content.set_tensor_content(std::string(4, '\0'));
  EXPECT_THROW(TensorToWeight(short_content, "s"), Error);
}

}  // namespace
}  // namespace graphport::tfjs

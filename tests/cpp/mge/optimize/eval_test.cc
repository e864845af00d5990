// The reference evaluator, kernel by kernel, against values worked out here.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "mge/optimize/eval/half.h"
#include "mge/optimize/eval/kernels.h"

namespace graphport::mge::opt {
namespace {

HostValue I(Shape shape, std::vector<int32_t> v) { return HostValue::Ints(shape, v); }

float Bits(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

TEST(EvalElemwise, BroadcastsRightAligned) {
  HostValue a = HostValue::Floats({2, 3}, {1, 2, 3, 4, 5, 6});
  HostValue b = HostValue::Floats({3}, {10, 20, 30});
  std::string why;
  auto out = EvalElemwise(16 /*ADD*/, {&a, &b}, &why);
  ASSERT_TRUE(out) << why;
  EXPECT_EQ(out->shape, (Shape{2, 3}));
  EXPECT_EQ(out->f, (std::vector<float>{11, 22, 33, 14, 25, 36}));
  HostValue c = HostValue::Floats({2, 1}, {2, -1});
  out = EvalElemwise(21 /*MUL*/, {&a, &c}, &why);
  ASSERT_TRUE(out);
  EXPECT_EQ(out->f, (std::vector<float>{2, 4, 6, -4, -5, -6}));
}

TEST(EvalElemwise, FuseMulAdd3RoundsTheProductFirst) {
  // (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46: rounded to 1 + 2^-22 before subtracting, the result is
  // exactly 2^-22; a fused multiply-add would keep the 2^-46.
  const float x = Bits(0x3f800001);
  HostValue a = HostValue::Floats({1}, {x}),
            c = HostValue::Floats({1}, {-1.0f - std::ldexp(1.0f, -22)});
  std::string why;
  auto out = EvalElemwise(35 /*FUSE_MUL_ADD3*/, {&a, &a, &c}, &why);
  ASSERT_TRUE(out) << why;
  EXPECT_EQ(out->f[0], 0.0f);
}

TEST(EvalElemwise, ModesAndDtypes) {
  HostValue a = HostValue::Floats({4}, {-1.5f, 0, 2.5f, 7});
  HostValue b = HostValue::Floats({4}, {2, 3, -2, 2});
  std::string why;
  EXPECT_EQ(EvalElemwise(0 /*RELU*/, {&a}, &why)->f, (std::vector<float>{0, 0, 2.5f, 7}));
  EXPECT_EQ(EvalElemwise(11 /*NEGATE*/, {&a}, &why)->f,
            (std::vector<float>{1.5f, -0.0f, -2.5f, -7}));
  EXPECT_EQ(EvalElemwise(24 /*SUB*/, {&a, &b}, &why)->f, (std::vector<float>{-3.5f, -3, 4.5f, 5}));
  EXPECT_EQ(EvalElemwise(27 /*TRUE_DIV*/, {&a, &b}, &why)->f,
            (std::vector<float>{-0.75f, 0, -1.25f, 3.5f}));
  EXPECT_EQ(EvalElemwise(37 /*FUSE_ADD_RELU*/, {&a, &b}, &why)->f,
            (std::vector<float>{0.5f, 3, 0.5f, 9}));
  EXPECT_EQ(EvalElemwise(29 /*LT*/, {&a, &b}, &why)->f, (std::vector<float>{1, 1, 0, 0}));
  HostValue i = I({3}, {-7, 7, 9}), j = I({3}, {2, 2, -4});
  EXPECT_EQ(EvalElemwise(17 /*FLOOR_DIV*/, {&i, &j}, &why)->i, (std::vector<int32_t>{-4, 3, -3}));
  EXPECT_EQ(EvalElemwise(21 /*MUL*/, {&i, &j}, &why)->i, (std::vector<int32_t>{-14, 14, -36}));
  // What the evaluator does not pin down stops it.
  EXPECT_FALSE(EvalElemwise(6 /*EXP*/, {&a}, &why));
  EXPECT_NE(why.find("mode 6"), std::string::npos);
  HostValue h = HostValue::Floats({1}, {1}, kF16);
  EXPECT_FALSE(EvalElemwise(16, {&h, &h}, &why));
  EXPECT_FALSE(EvalElemwise(16, {&a, &i}, &why));
  HostValue bad = HostValue::Floats({3}, {1, 2, 3});
  EXPECT_FALSE(EvalElemwise(16, {&a, &bad}, &why));
}

TEST(EvalPowC, SplitsAsMegEngineDoes) {
  HostValue x = HostValue::Floats({3}, {4, 2, 3});
  std::string why;
  // -0.5 is sqrt(1/x): for x = 3 that is 0.57735026f, where powf(3, -0.5) gives the same or
  // the neighbouring float; the test pins the sqrt(1/x) bits.
  auto out = EvalPowC(x, -0.5f, &why);
  ASSERT_TRUE(out) << why;
  for (size_t k = 0; k < 3; ++k) EXPECT_EQ(out->f[k], std::sqrt(1.0f / x.f[k]));
  EXPECT_EQ(EvalPowC(x, 2, &why)->f, (std::vector<float>{16, 4, 9}));
  EXPECT_EQ(EvalPowC(x, -2, &why)->f[0], 1.0f / 4 * (1.0f / 4));
  EXPECT_EQ(EvalPowC(HostValue::Floats({1}, {-2}), 5, &why)->f[0],
            -32.0f);  // odd: the sign comes back
  EXPECT_EQ(EvalPowC(HostValue::Floats({1}, {-2}), 6, &why)->f[0], 64.0f);
  EXPECT_EQ(EvalPowC(x, 0.5f, &why)->f[0], 2.0f);
  EXPECT_EQ(EvalPowC(HostValue::Floats({1}, {8}), 1.0f / 3, &why)->f[0], 2.0f);
  EXPECT_EQ(EvalPowC(HostValue::Floats({1}, {-8}), 1.5f, &why)->f[0],
            std::pow(8.0f, 1.5f));  // powf of |x|
  EXPECT_FALSE(EvalPowC(I({1}, {2}), 2, &why));
}

TEST(EvalHalf, RoundsTiesAwayFromZero) {
  EXPECT_EQ(FloatToHalfBits(1.0f), 0x3c00);
  EXPECT_EQ(FloatToHalfBits(-2.0f), 0xc000);
  // 1 + 2^-11 lies halfway between 1 and 1 + 2^-10: away from zero gives 0x3c01 (IEEE
  // ties-to-even would give 0x3c00).
  EXPECT_EQ(FloatToHalfBits(1.0f + std::ldexp(1.0f, -11)), 0x3c01);
  EXPECT_EQ(FloatToHalfBits(65504.0f), 0x7bff);
  EXPECT_EQ(FloatToHalfBits(65520.0f), 0x7c00);  // rounds up into infinity
  EXPECT_EQ(FloatToHalfBits(std::numeric_limits<float>::infinity()), 0x7c00);
  EXPECT_EQ(FloatToHalfBits(std::ldexp(1.0f, -24)), 0x0001);  // smallest subnormal
  EXPECT_EQ(FloatToHalfBits(std::ldexp(1.0f, -25)), 0x0001);  // [2^-25, 2^-24) rounds up
  EXPECT_EQ(FloatToHalfBits(std::ldexp(1.0f, -26)), 0x0000);
  EXPECT_EQ(FloatToHalfBits(std::ldexp(3.0f, -16)), 0x0300);  // a subnormal, exact
  EXPECT_EQ(FloatToHalfBits(Bits(0x7fc00000)), 0x7e00);       // quiet NaN keeps its payload
  EXPECT_EQ(FloatToHalfBits(Bits(0x7f800001)), 0x7c00);       // payload only in the low bits
  for (uint32_t h : {0x0001u, 0x03ffu, 0x0400u, 0x3c00u, 0x7bffu, 0xfc00u, 0x8001u}) {
    EXPECT_EQ(FloatToHalfBits(HalfBitsToFloat(static_cast<uint16_t>(h))), h);
  }
  EXPECT_EQ(HalfBitsToFloat(0x0001), std::ldexp(1.0f, -24));
}

TEST(EvalTypeCvt, FloatHalfAndInts) {
  std::string why;
  auto h = EvalTypeCvt(HostValue::Floats({2}, {1.0f + std::ldexp(1.0f, -11), 0.1f}), kF16, &why);
  ASSERT_TRUE(h) << why;
  EXPECT_EQ(h->dtype, kF16);
  EXPECT_EQ(h->f[0], 1.0f + std::ldexp(1.0f, -10));
  EXPECT_EQ(h->f[1], HalfBitsToFloat(0x2e66));  // 0.1 -> 0x2e66
  auto back = EvalTypeCvt(*h, kF32, &why);
  EXPECT_EQ(back->f, h->f);
  auto f = EvalTypeCvt(I({2}, {16777217, -3}), kF32, &why);
  EXPECT_EQ(f->f, (std::vector<float>{16777216.0f, -3.0f}));
  auto i8 = EvalTypeCvt(I({2}, {200, -1}), kI8, &why);
  EXPECT_EQ(i8->i, (std::vector<int32_t>{-56, -1}));
  EXPECT_FALSE(
      EvalTypeCvt(HostValue::Floats({1}, {1.5f}), kI32, &why));  // rounding not pinned: stop
  EXPECT_FALSE(EvalTypeCvt(HostValue::Floats({1}, {1.5f}), 13 /*QuantizedS8*/, &why));
}

TEST(EvalShapes, ReshapeBroadcastDimshuffleAxisConcat) {
  std::string why;
  HostValue x = HostValue::Floats({2, 3}, {0, 1, 2, 3, 4, 5});
  auto r = EvalReshape(x, I({2}, {3, 2}), 7, &why);
  ASSERT_TRUE(r) << why;
  EXPECT_EQ(r->shape, (Shape{3, 2}));
  EXPECT_EQ(r->f, x.f);
  r = EvalReshape(x, I({3}, {1, -1, 2}), 1, &why);  // unspecified axis 1
  ASSERT_TRUE(r) << why;
  EXPECT_EQ(r->shape, (Shape{1, 3, 2}));
  EXPECT_FALSE(EvalReshape(x, I({1}, {5}), 7, &why));

  auto b = EvalBroadcast(HostValue::Floats({2, 1}, {1, 2}), I({3}, {2, 2, 3}), &why);
  ASSERT_TRUE(b) << why;
  EXPECT_EQ(b->f, (std::vector<float>{1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2}));
  EXPECT_FALSE(EvalBroadcast(x, I({2}, {4, 3}), &why));

  auto d = EvalDimshuffle(x, {1, -1, 0}, &why);
  ASSERT_TRUE(d) << why;
  EXPECT_EQ(d->shape, (Shape{3, 1, 2}));
  EXPECT_EQ(d->f, (std::vector<float>{0, 3, 1, 4, 2, 5}));
  EXPECT_FALSE(EvalDimshuffle(x, {0, 0}, &why));

  auto a = EvalAxisAddRemove(HostValue::Floats({3, 1}, {1, 2, 3}),
                             {{true, 1}, {false, 0}, {false, -1}}, &why);
  ASSERT_TRUE(a) << why;
  EXPECT_EQ(a->shape, (Shape{1, 3, 1}));
  EXPECT_FALSE(EvalAxisAddRemove(x, {{true, 0}}, &why));

  HostValue y = HostValue::Floats({2, 1}, {9, 8});
  auto c = EvalConcat({&x, &y}, 1, &why);
  ASSERT_TRUE(c) << why;
  EXPECT_EQ(c->shape, (Shape{2, 4}));
  EXPECT_EQ(c->f, (std::vector<float>{0, 1, 2, 9, 3, 4, 5, 8}));
  EXPECT_FALSE(EvalConcat({&x, &y}, 0, &why));

  auto s = EvalGetVarShape({{2, 1, 4}, {3, 1}}, 7, &why);
  ASSERT_TRUE(s) << why;
  EXPECT_EQ(s->dtype, kI32);
  EXPECT_EQ(s->i, (std::vector<int32_t>{2, 3, 4}));
  EXPECT_EQ(EvalGetVarShape({{2, 5}}, -1, &why)->i, (std::vector<int32_t>{5}));
  EXPECT_FALSE(EvalGetVarShape({{2}, {3}}, 7, &why));
}

// LayerNorm's converter reshapes x to shape[:2] ++ [-1] (megengine_dump_details.md §1.8):
// without this value the Reshape's shape, and every shape after it, is unknown.
TEST(EvalSubtensor, SlicesAndIndicesAsMegEngineDoes) {
  HostValue shape = I({3}, {2, 3, 4}), two = I({1}, {2}), minus_one = I({1}, {-1});
  std::string why;
  auto head = EvalSubtensor(shape, {{0, false, true, false, false}}, {&two}, &why);
  ASSERT_TRUE(head) << why;
  EXPECT_EQ(head->dtype, kI32);
  EXPECT_EQ(head->shape, (Shape{2}));
  EXPECT_EQ(head->i, (std::vector<int32_t>{2, 3}));
  // A single index removes its axis; a value of one axis is shape (1).
  auto last = EvalSubtensor(shape, {{0, false, false, false, true}}, {&minus_one}, &why);
  ASSERT_TRUE(last) << why;
  EXPECT_EQ(last->shape, (Shape{1}));
  EXPECT_EQ(last->i, (std::vector<int32_t>{4}));
  // x[1:, ::2] of a 3 x 4 matrix, then x[:, 1] of it.
  HostValue x = HostValue::Floats({3, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  HostValue one = I({1}, {1});
  auto rows = EvalSubtensor(x, {{1, false, false, true, false}, {0, true, false, false, false}},
                            {&two, &one}, &why);
  ASSERT_TRUE(rows) << why;
  EXPECT_EQ(rows->shape, (Shape{2, 2}));
  EXPECT_EQ(rows->f, (std::vector<float>{4, 6, 8, 10}));
  auto column = EvalSubtensor(x, {{1, false, false, false, true}}, {&one}, &why);
  ASSERT_TRUE(column) << why;
  EXPECT_EQ(column->shape, (Shape{3}));
  EXPECT_EQ(column->f, (std::vector<float>{1, 5, 9}));
  // A shape-only placeholder gives the shape alone (static shape inference).
  HostValue placeholder;
  placeholder.shape = {5, 6};
  auto shaped = EvalSubtensor(placeholder, {{0, false, true, false, false}}, {&two}, &why);
  ASSERT_TRUE(shaped) << why;
  EXPECT_EQ(shaped->shape, (Shape{2, 6}));
  EXPECT_TRUE(shaped->shape_only());
  // What MegEngine's rules are not pinned down for here is refused, never guessed.
  EXPECT_FALSE(EvalSubtensor(shape, {{0, false, false, true, false}}, {&minus_one}, &why));
  EXPECT_NE(why.find("step below 1"), std::string::npos) << why;
  HostValue nine = I({1}, {9});
  EXPECT_FALSE(EvalSubtensor(shape, {{0, false, false, false, true}}, {&nine}, &why));
  EXPECT_FALSE(EvalSubtensor(shape, {{0, false, true, false, false}}, {}, &why));
  EXPECT_FALSE(EvalSubtensor(shape, {{0, false, true, false, false}}, {&two, &two}, &why));
}

TEST(EvalReduce, AxesTargetsAndPinnedOrder) {
  std::string why;
  HostValue x = HostValue::Floats({2, 2}, {1, 2, 3, 4});
  auto s = EvalReduce(x, 0 /*SUM*/, 1, nullptr, true, &why);
  ASSERT_TRUE(s) << why;
  EXPECT_EQ(s->shape, (Shape{2, 1}));
  EXPECT_EQ(s->f, (std::vector<float>{3, 7}));
  HostValue target = I({2}, {1, 2});
  s = EvalReduce(x, 4 /*MAX*/, 2147483647, &target, true, &why);
  ASSERT_TRUE(s) << why;
  EXPECT_EQ(s->f, (std::vector<float>{3, 4}));
  EXPECT_EQ(EvalReduce(x, 1 /*SUM_SQR*/, 0, nullptr, true, &why)->f, (std::vector<float>{10, 20}));
  HostValue long_axis = HostValue::Floats({3}, {1e8f, 1, -1e8f});
  EXPECT_FALSE(EvalReduce(long_axis, 0, 0, nullptr, true, &why));  // order not pinned
  EXPECT_NE(why.find("not pinned"), std::string::npos);
  auto left_to_right = EvalReduce(long_axis, 0, 0, nullptr, false, &why);
  ASSERT_TRUE(left_to_right);
  EXPECT_EQ(left_to_right->f[0], 0.0f);  // (1e8 + 1) rounds to 1e8
  EXPECT_EQ(EvalReduce(long_axis, 3 /*MIN*/, 0, nullptr, true, &why)->f[0], -1e8f);
  HostValue ints = I({3}, {1, 2, 4});
  EXPECT_EQ(EvalReduce(ints, 5 /*MEAN*/, 0, nullptr, true, &why)->i[0], 2);
}

// x (1, 2, 3, 3), w (1, 2, 2, 2) of ones and twos: each output sums 8 products.
// Channel 0 of x is 0..8, channel 1 is 10..18; w's channel 0 is 1, channel 1 is 2.
// Output (0, 0): (0 + 1 + 3 + 4) + 2 (10 + 11 + 13 + 14) = 8 + 96 = 104; moving right adds
// 4 + 2·4 = 12, moving down 12 + 2·12 = 36.
TEST(EvalConvolution, DenseGroupPaddingAndFlip) {
  std::vector<float> xs(18);
  for (int i = 0; i < 9; ++i) xs[i] = static_cast<float>(i), xs[9 + i] = 10.0f + i;
  HostValue x = HostValue::Floats({1, 2, 3, 3}, xs);
  HostValue w = HostValue::Floats({1, 2, 2, 2}, {1, 1, 1, 1, 2, 2, 2, 2});
  std::string why;
  ConvolutionParams p;
  auto out = EvalConvolution(x, w, p, /*exact_only=*/false, &why);
  ASSERT_TRUE(out) << why;
  EXPECT_EQ(out->shape, (Shape{1, 1, 2, 2}));
  EXPECT_EQ(out->f, (std::vector<float>{104, 116, 140, 152}));
  // Eight products per output: an order MegEngine leaves open.
  EXPECT_FALSE(EvalConvolution(x, w, p, /*exact_only=*/true, &why));
  EXPECT_NE(why.find("8 products"), std::string::npos) << why;
  // Padding 1: the corner window sees x[0][0] = 0 and x[1][0] = 10 only: 0 + 2·10.
  p.pad_h = p.pad_w = 1;
  out = EvalConvolution(x, w, p, false, &why);
  ASSERT_TRUE(out);
  EXPECT_EQ(out->shape, (Shape{1, 1, 4, 4}));
  EXPECT_EQ(out->f[0], 20.0f);
  // Group (2 groups of one channel), a 1x1 filter of 3 and -1: one product per output,
  // which is exact.
  ConvolutionParams g;
  g.group = true;
  HostValue gw = HostValue::Floats({2, 1, 1, 1, 1}, {3, -1});
  out = EvalConvolution(x, gw, g, true, &why);
  ASSERT_TRUE(out) << why;
  EXPECT_EQ(out->shape, (Shape{1, 2, 3, 3}));
  EXPECT_EQ(out->f[4], 12.0f);    // 3·4
  EXPECT_EQ(out->f[13], -14.0f);  // -1·14
  // CONVOLUTION flips the filter: a (1, 1, 1, 2) filter (1, 0) reads the right neighbour.
  ConvolutionParams f;
  f.flip = true;
  HostValue x1 = HostValue::Floats({1, 1, 1, 3}, {5, 6, 7});
  HostValue w1 = HostValue::Floats({1, 1, 1, 2}, {1, 0});
  out = EvalConvolution(x1, w1, f, true, &why);
  ASSERT_TRUE(out) << why;
  EXPECT_EQ(out->f, (std::vector<float>{6, 7}));
  // Channels that do not match the weights are refused, not guessed.
  HostValue bad = HostValue::Floats({1, 3, 1, 1}, {1, 1, 1});
  EXPECT_FALSE(EvalConvolution(x, bad, p, false, &why));
}

// A (2, 3) · B (3, 2) and the transposed forms; float32 sums left to right.
TEST(EvalMatrixMul, ProductsAndTransposes) {
  HostValue a = HostValue::Floats({2, 3}, {1, 2, 3, 4, 5, 6});
  HostValue b = HostValue::Floats({3, 2}, {1, 0, 0, 1, 1, 1});
  std::string why;
  auto out = EvalMatrixMul(a, b, false, false, false, &why);
  ASSERT_TRUE(out) << why;
  EXPECT_EQ(out->shape, (Shape{2, 2}));
  EXPECT_EQ(out->f, (std::vector<float>{4, 5, 10, 11}));
  HostValue at = HostValue::Floats({3, 2}, {1, 4, 2, 5, 3, 6});  // a transposed
  HostValue bt = HostValue::Floats({2, 3}, {1, 0, 1, 0, 1, 1});  // b transposed
  out = EvalMatrixMul(at, bt, true, true, false, &why);
  ASSERT_TRUE(out) << why;
  EXPECT_EQ(out->f, (std::vector<float>{4, 5, 10, 11}));
  // 2^24 + 1 + 1: left to right each 1 is lost (2^24 + 1 rounds to 2^24); the order shows.
  HostValue big = HostValue::Floats({1, 3}, {16777216.0f, 1, 1});
  HostValue ones = HostValue::Floats({3, 1}, {1, 1, 1});
  out = EvalMatrixMul(big, ones, false, false, false, &why);
  ASSERT_TRUE(out);
  EXPECT_EQ(out->f[0], 16777216.0f);
  EXPECT_FALSE(EvalMatrixMul(big, ones, false, false, true, &why));
  // Two products: exact in any order.
  HostValue two = HostValue::Floats({1, 2}, {3, 4});
  HostValue col = HostValue::Floats({2, 1}, {0.5f, 0.25f});
  out = EvalMatrixMul(two, col, false, false, true, &why);
  ASSERT_TRUE(out) << why;
  EXPECT_EQ(out->f[0], 2.5f);
  EXPECT_FALSE(EvalMatrixMul(a, a, false, false, false, &why));  // inner dims differ
}

TEST(EvalHostValue, DecodesAndEncodes) {
  HostValue v = HostValue::Floats({2}, {1.0f, -0.5f}, kF16);
  std::string bytes = EncodeValue(v);
  EXPECT_EQ(bytes, std::string("\x00\x3c\x00\xb8", 4));
  auto back = DecodeValue(kF16, {2}, bytes);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->f, v.f);
  EXPECT_FALSE(DecodeValue(kF32, {2}, bytes.substr(0, 3)));
  EXPECT_FALSE(DecodeValue(13 /*QuantizedS8*/, {1}, "x"));
  auto i16 = DecodeValue(kI16, {1}, std::string("\xff\xff", 2));
  EXPECT_EQ(i16->i[0], -1);
}

}  // namespace
}  // namespace graphport::mge::opt

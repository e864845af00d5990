// ArithFuse on MegEngine's own test graphs (src/gopt/test/basic_arith.cpp, ArithFusePass
// FMA, ADD and ADD_HSWISH; research megengine_optimize.md §5.1): the structure of MegEngine's
// expected graph up to the order of commutative operands (printed sorted; MegEngine's test
// builds the expected graph in the same graph, whose constructor sorts them by id), and the
// same outputs.
#include "mge/optimize/arith_fuse/arith_fuse.h"

#include <gtest/gtest.h>

#include "test_graph.h"

namespace graphport::mge::opt {
namespace {

using testing::ApplyPass;
using testing::TestGraph;

// a·b + c·d + e·f + g + h -> fma4(a, b, c, d) + g + fma3(e, f, h): the two products of one
// shape pair make an FMA4, the lone one takes the bias of its smaller operand's shape, and
// the bias terms are summed group by group.
TEST(ArithFuse, ProductsBecomeFma4AndFma3) {
  TestGraph t;
  VarRef a = t.Input("a", {1, 1}), b = t.Input("b", {1, 3}), c = t.Input("c", {1, 1}),
         d = t.Input("d", {1, 3}), e = t.Input("e", {2, 1}), f = t.Input("f", {2, 3}),
         g = t.Input("g", {1, 3}), h = t.Input("h", {2, 1});
  VarRef s = t.Elemwise(kAdd, {t.Elemwise(kMul, {a, b}), t.Elemwise(kMul, {c, d})});
  s = t.Elemwise(kAdd, {s, t.Elemwise(kMul, {e, f})});
  s = t.Elemwise(kAdd, {g, s});
  t.Output(t.Elemwise(kAdd, {h, s}, "out"));
  PassReport report;
  std::vector<std::string> out = ApplyPass(&t, ArithFuse, &report, true);
  EXPECT_EQ(out[0], "ADD(ADD(FMA4(a,b,c,d),g),FMA3(e,f,h))");
  EXPECT_EQ(report.summary, "1 FUSE_MUL_ADD3, 1 FUSE_MUL_ADD4, 0 FUSE_ADD_*");
}

// b·a + c·a + c -> fma3(a, b, fma3(a, c, c)): products of equal shapes first, their result
// the bias of the next; f·g + (b·i + d·i) -> fma3(f, g, fma4(b, i, d, i)).
TEST(ArithFuse, FusedResultsAreBiasOfTheNext) {
  TestGraph t;
  VarRef a = t.Input("a", {1, 1}), b = t.Input("b", {1, 3}), c = t.Input("c", {1, 1}),
         d = t.Input("d", {1, 3}), f = t.Input("f", {2, 3}), g = t.Input("g", {1, 3}),
         i = t.Input("i", {1});
  VarRef ab = t.Elemwise(kMul, {a, b}), ac = t.Elemwise(kMul, {a, c});
  t.Output(t.Elemwise(kAdd, {c, t.Elemwise(kAdd, {ab, ac})}));
  VarRef fg = t.Elemwise(kMul, {f, g}), bi = t.Elemwise(kMul, {b, i}),
         di = t.Elemwise(kMul, {d, i});
  t.Output(t.Elemwise(kAdd, {fg, t.Elemwise(kAdd, {bi, di})}));
  std::vector<std::string> out = ApplyPass(&t, ArithFuse, nullptr, true);
  EXPECT_EQ(out[0], "FMA3(a,b,FMA3(a,c,c))");
  EXPECT_EQ(out[1], "FMA3(f,g,FMA4(b,i,d,i))");
}

// pow(exp(a·b + c), a·d + g) -> pow(exp(fma3(a, b, c)), fma3(a, d, g)): a lone product
// takes the bias of its larger operand's shape when the smaller's has none. (MegEngine's
// test has sin where this has exp: the evaluator computes exp.)
TEST(ArithFuse, BiasOfTheLargerOperandsShape) {
  TestGraph t;
  VarRef a = t.Input("a", {1, 1}), b = t.Input("b", {1, 3}), c = t.Input("c", {1, 1}),
         d = t.Input("d", {1, 3}), g = t.Input("g", {1, 3});
  VarRef x = t.Elemwise(kExp, {t.Elemwise(kAdd, {c, t.Elemwise(kMul, {a, b})})});
  VarRef y = t.Elemwise(kAdd, {g, t.Elemwise(kMul, {a, d})});
  t.Output(t.Elemwise(kPow, {x, y}));
  EXPECT_EQ(ApplyPass(&t, ArithFuse, nullptr, true)[0], "POW(EXP(FMA3(a,b,c)),FMA3(a,d,g))");
}

// ArithFusePass.ADD: sigmoid(relu(a·b + c) + a) -> FUSE_ADD_SIGMOID(relu(fma3(a, b, c)), a)
// (the FMA is preferred); an ADD read twice is not fused into either reader; a product
// over a fused activation becomes an FMA3 in turn.
TEST(ArithFuse, ActivationsOfSumsFuse) {
  TestGraph t;
  VarRef a = t.Input("a", {1}), b = t.Input("b", {1}), c = t.Input("c", {1});
  auto relu = [&](VarRef x) { return t.Elemwise(kRelu, {x}); };
  auto sigmoid = [&](VarRef x) { return t.Elemwise(kSigmoid, {x}); };
  t.Output(sigmoid(t.Elemwise(kAdd, {a, relu(t.Elemwise(kAdd, {c, t.Elemwise(kMul, {a, b})}))})));
  VarRef p0 = t.Elemwise(kAdd, {c, relu(t.Elemwise(kAdd, {a, t.Elemwise(kMul, {b, c})}))});
  t.Output(t.Elemwise(kAdd, {sigmoid(t.Elemwise(kAdd, {c, sigmoid(p0)})), relu(p0)}));
  VarRef inner = relu(t.Elemwise(kAdd, {c, t.Elemwise(kMul, {b, c})}));
  VarRef s = sigmoid(t.Elemwise(kAdd, {a, inner}));
  t.Output(t.Elemwise(kAdd, {a, t.Elemwise(kMul, {c, s})}));
  PassReport report;
  std::vector<std::string> out = ApplyPass(&t, ArithFuse, &report, true);
  EXPECT_EQ(out[0], "FUSE_ADD_SIGMOID(RELU(FMA3(a,b,c)),a)");
  EXPECT_EQ(out[1],
            "ADD(FUSE_ADD_SIGMOID(SIGMOID(ADD(RELU(FMA3(b,c,a)),c)),c),"
            "RELU(ADD(RELU(FMA3(b,c,a)),c)))");
  EXPECT_EQ(out[2], "FMA3(FUSE_ADD_SIGMOID(RELU(FMA3(b,c,c)),a),c,a)");
  EXPECT_EQ(report.summary, "4 FUSE_MUL_ADD3, 0 FUSE_MUL_ADD4, 3 FUSE_ADD_*");
}

// ArithFusePass.ADD_HSWISH: FUSE_ADD_H_SWISH keeps the ADD's input order (its inputs are not
// sorted as a commutative mode's are).
TEST(ArithFuse, HSwishOfSumFuses) {
  TestGraph t;
  VarRef a = t.Input("a", {1}), b = t.Input("b", {1}), c = t.Input("c", {1});
  VarRef r = t.Elemwise(kRelu, {t.Elemwise(kAdd, {c, t.Elemwise(kMul, {a, b})})});
  t.Output(t.Elemwise(kHSwishMode, {t.Elemwise(kAdd, {a, r})}));
  EXPECT_EQ(ApplyPass(&t, ArithFuse, nullptr, true)[0], "FUSE_ADD_H_SWISH(a,RELU(FMA3(a,b,c)))");
}

}  // namespace
}  // namespace graphport::mge::opt

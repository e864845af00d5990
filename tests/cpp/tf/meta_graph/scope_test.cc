// Name-scope rules of export_scope (tensorflow.md §1.4): membership, stripping, unbound inputs.
#include "tf/meta_graph/scope.h"

#include <gtest/gtest.h>

namespace graphport::tf {
namespace {

TEST(ScopeTest, EmptyScopeContainsEveryNameAndStripsNothing) {
  Scope scope("");
  EXPECT_TRUE(scope.empty());
  for (const char* name : {"a", "a/b", "^a", "loc:@a/b", "x:1", "", "$unbound_inputs_x"}) {
    EXPECT_TRUE(scope.Contains(name)) << name;
    EXPECT_EQ(scope.Strip(name), name);
  }
}

TEST(ScopeTest, ContainsTheScopeItselfAndNamesUnderIt) {
  Scope scope("s");
  EXPECT_FALSE(scope.empty());
  EXPECT_EQ(scope.name(), "s");
  for (const char* name :
       {"s", "s/a", "s/a/b", "s///a", "^s/a", "^s", "loc:@s/a", "s/a:1", "s:0", "^s/a/b"}) {
    EXPECT_TRUE(scope.Contains(name)) << name;
  }
  for (const char* name : {"t", "t/s/a", "^t/a", "loc:@t/a", "t/a:1", "", "^", "loc:@", "/s/a",
                           "$unbound_inputs_s/a"}) {
    EXPECT_FALSE(scope.Contains(name)) << name;
  }
}

// graphport's documented difference: TensorFlow's bare startswith puts "ab/x" in scope "a".
TEST(ScopeTest, ScopeIsAWholePathComponentNotAStringPrefix) {
  Scope a("a");
  for (const char* name : {"ab/x", "ab", "^ab/x", "loc:@ab/x", "ab/x:0", "a_1/x", "a.b/x"}) {
    EXPECT_FALSE(a.Contains(name)) << name;
    EXPECT_EQ(a.Strip(name), name) << "a name outside the scope comes back unchanged";
  }
  Scope hidden1("hidden1");
  EXPECT_FALSE(hidden1.Contains("hidden10/x"));
  EXPECT_TRUE(hidden1.Contains("hidden1/x"));
}

// TensorFlow strips with the scope as an unescaped regex; in graphport "." is just a dot.
TEST(ScopeTest, DotInTheScopeIsNotAWildcard) {
  Scope scope("a.b");
  EXPECT_TRUE(scope.Contains("a.b/x"));
  EXPECT_EQ(scope.Strip("a.b/x"), "x");
  EXPECT_FALSE(scope.Contains("axb/x"));
  EXPECT_EQ(scope.Strip("axb/x"), "axb/x");
  EXPECT_EQ(scope.Strip("^axb/x"), "^axb/x");
  EXPECT_EQ(scope.Strip("loc:@axb/x"), "loc:@axb/x");
}

TEST(ScopeTest, StripRemovesTheScopeFromEveryNameForm) {
  Scope scope("s");
  EXPECT_EQ(scope.Strip("s/a"), "a");
  EXPECT_EQ(scope.Strip("s/a/b"), "a/b");
  EXPECT_EQ(scope.Strip("s///a"), "a");  // TensorFlow's regex eats every "/" after the scope
  EXPECT_EQ(scope.Strip("^s/a"), "^a");
  EXPECT_EQ(scope.Strip("loc:@s/a"), "loc:@a");
  EXPECT_EQ(scope.Strip("s/a:1"), "a:1");
  EXPECT_EQ(scope.Strip("s/s/a"), "s/a");  // once, at the start only
  EXPECT_EQ(scope.Strip("t/s/a"), "t/s/a");
  // The scope's own node: TensorFlow's pattern needs a "/" after the scope, so it stays.
  EXPECT_EQ(scope.Strip("s"), "s");
  EXPECT_EQ(scope.Strip("^s"), "^s");
  EXPECT_EQ(scope.Strip("s:0"), "s:0");
}

TEST(ScopeTest, TrailingSlashesOfTheScopeAreDropped) {
  for (const char* given : {"s/", "s//"}) {
    Scope scope(given);
    EXPECT_EQ(scope.name(), "s") << given;
    EXPECT_TRUE(scope.Contains("s/a"));
    EXPECT_FALSE(scope.Contains("sa"));
    EXPECT_EQ(scope.Strip("s/a"), "a");
    EXPECT_EQ(scope.Strip("^s/a:0"), "^a:0");
  }
}

TEST(ScopeTest, NestedScopes) {
  Scope scope("hidden1/hidden2");
  EXPECT_TRUE(scope.Contains("hidden1/hidden2/hidden3/weights"));
  EXPECT_TRUE(scope.Contains("loc:@hidden1/hidden2/hidden3/weights"));
  EXPECT_FALSE(scope.Contains("hidden1/hidden20/x"));
  EXPECT_FALSE(scope.Contains("hidden1/x"));
  EXPECT_FALSE(scope.Contains("hidden1"));
  EXPECT_EQ(scope.Strip("hidden1/hidden2/hidden3/weights"), "hidden3/weights");
  EXPECT_EQ(scope.Strip("loc:@hidden1/hidden2/hidden3/weights"), "loc:@hidden3/weights");
  EXPECT_EQ(scope.Strip("hidden1/hidden3/weights"), "hidden1/hidden3/weights");
}

TEST(ScopeTest, UnboundInputNameForDataAndControlInputs) {
  EXPECT_EQ(UnboundInputName("images"), "$unbound_inputs_images");
  EXPECT_EQ(UnboundInputName("x:1"), "$unbound_inputs_x:1");
  EXPECT_EQ(UnboundInputName("a/b:0"), "$unbound_inputs_a/b:0");
  // The prefix goes after the "^" of a control input.
  EXPECT_EQ(UnboundInputName("^x"), "^$unbound_inputs_x");
  EXPECT_EQ(UnboundInputName("^a/b"), "^$unbound_inputs_a/b");
  EXPECT_EQ(std::string(kUnboundInputPrefix), "$unbound_inputs_");
}

}  // namespace
}  // namespace graphport::tf

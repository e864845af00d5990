// What both writers check before writing: an operator FBS v1 cannot hold without the
// compatibility rewrite is refused by name, with its mode named as the schema names it.
#include "mge/write_common.h"

#include <gtest/gtest.h>

#include <string>

#include "core/error.h"
#include "mge/read.h"
#include "one_op_model.h"

namespace graphport::mge {
namespace {

using testing::Model;
using testing::OneOp;
namespace fbsp = mgb::serialization::fbs::param;

// The message CheckExpressibleInV1 throws for the model's one operator (after its input),
// or "" when it accepts it.
std::string RefusalOf(const OneOp& spec) {
  auto file = ReadMgeFile(Model(spec), "t");
  const Graph& g = file->graphs[0];
  try {
    CheckExpressibleInV1(g, g.oprs.size() - 1);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

OneOp Elemwise(fbsp::ElemwiseMode mode, size_t inputs) {
  return {"Elemwise", mgb::serialization::fbs::OperatorParam_param_Elemwise,
          [mode](flatbuffers::FlatBufferBuilder& fbb) {
            return fbsp::CreateElemwise(fbb, mode).Union();
          },
          std::vector<std::vector<uint32_t>>(inputs, {4})};
}

TEST(CheckExpressibleInV1, NamesTheModesTheRewriteDecomposes) {
  EXPECT_NE(RefusalOf(Elemwise(fbsp::ElemwiseMode_SQRT, 1)).find("Elemwise mode SQRT: FBS v1"),
            std::string::npos);
  EXPECT_NE(RefusalOf(Elemwise(fbsp::ElemwiseMode_LOGSIGMOID, 1)).find("Elemwise mode LOGSIGMOID"),
            std::string::npos);
  EXPECT_EQ(RefusalOf(Elemwise(fbsp::ElemwiseMode_ADD, 2)), "");
  OneOp lt = {"ElemwiseMultiType",
              mgb::serialization::fbs::OperatorParam_param_ElemwiseMultiType,
              [](flatbuffers::FlatBufferBuilder& fbb) {
                return fbsp::CreateElemwiseMultiType(fbb, fbsp::ElemwiseMultiTypeMode_LT).Union();
              },
              {{4}, {4}}};
  EXPECT_NE(RefusalOf(lt).find("ElemwiseMultiType mode LT: FBS v1"), std::string::npos);
}

}  // namespace
}  // namespace graphport::mge

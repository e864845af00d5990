// MegEngine's compatibility converters for whole operators (dump_details §1.6-§1.10): each
// test builds an FBS_V2 graph holding one Softmax, Dropout, LayerNorm, GroupNorm,
// InstanceNorm or CheckNonFinite, dumps it as FBS v1 (and FBS_V2 where MegEngine converts
// there too), and checks the written operators one by one, in the dumper's order, with the
// params MegEngine's converter gives them; the result loads back and dumps again unchanged.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>

#include "mge/opr_registry.h"
#include "mge/param_json.h"
#include "mge/read.h"
#include "mge_test_util.h"
#include "one_op_model.h"

namespace graphport::mge {
namespace {

using namespace testing;  // NOLINT
namespace fbsp = mgb::serialization::fbs::param;
// Each operator as "Class field=value ... (inputs)"; Host2DeviceCopy without its param,
// ImmutableTensor with its dtype, shape and values.
std::vector<std::string> Written(const std::string& bytes) {
  auto file = ReadMgeFile(bytes, "t");
  std::vector<std::string> seq;
  for (const Operator& op : file->graphs[0].oprs) {
    std::string s = op.cls->key;
    if (op.cls->key == "ImmutableTensor") {
      const Tensor& t = op.tensors[0];
      s += t.dtype && t.dtype->type == 4 ? " Int32{" : " Float32{";
      for (size_t i = 0; i < t.shape->size(); ++i) {
        s += (i ? "," : "") + std::to_string((*t.shape)[i]);
      }
      s += "}";
      for (size_t i = 0; i + 4 <= t.value.size(); i += 4) {
        if (t.dtype && t.dtype->type == 4) {
          int32_t v;
          std::memcpy(&v, t.value.data() + i, 4);
          s += " " + std::to_string(v);
        } else {
          float v;
          std::memcpy(&v, t.value.data() + i, 4);
          char buf[32];
          std::snprintf(buf, sizeof buf, " %g", v);
          s += buf;
        }
      }
    } else if (!op.params.empty() && op.cls->key != "Host2DeviceCopy") {
      nlohmann::json p = ParamToJson(op.params[0]);
      for (auto it = p["fields"].begin(); it != p["fields"].end(); ++it) {
        s += " " + it.key() + "=" + (it->is_string() ? it->get<std::string>() : it->dump());
      }
    }
    if (op.inputs) {
      s += " (";
      for (size_t i = 0; i < op.inputs->size(); ++i) {
        s += (i ? "," : "") + std::to_string((*op.inputs)[i]);
      }
      s += ")";
    }
    seq.push_back(s);
  }
  return seq;
}

// Dumps `model` as `format`; checks the file verifies, keeps the output name, and dumps again
// byte for byte after loading back as loaded (the compat rewrite leaves its own output
// alone). A default re-dump optimizes the converter's operators, which the dumper wrote
// after the passes had run and so were never optimized: MegEngine's re-dump of such a file
// optimizes them too (MUL(x, x) becomes PowC 2, the affine ADD(b, MUL(w, res)) one
// FUSE_MUL_ADD3, ...), so the first re-dump may differ from the dump, and the second must be
// the first, byte for byte (research megengine_optimize.md §6.1: an optimized graph is a
// fixed point; §6.3's cases do not occur in these graphs).
std::string Dump(const std::string& model, const std::string& format,
                 const nlohmann::json& more = nlohmann::json::object()) {
  auto l = Load(model);
  nlohmann::json options = more;
  options["dumpFormat"] = format;
  Exported e = Export(l.model.get(), options);
  std::string out = e.model();
  EXPECT_TRUE(format == "FBS" ? VerifiesAsV1(out) : VerifiesAsV2(out)) << format;
  auto reloaded = Load(out);
  EXPECT_EQ(reloaded.model->Inspect()["megengine"]["outputs"][0]["name"], "o0");
  EXPECT_EQ(Export(reloaded.model.get(), AsLoaded(options)).model(), out) << format;
  std::string last = out;
  for (int round = 0; round < 2; ++round) {
    auto back = Load(last);
    Exported next = Export(back.model.get(), options);
    EXPECT_TRUE(format == "FBS" ? VerifiesAsV1(next.model()) : VerifiesAsV2(next.model()));
    if (round == 1) {
      // The same file but for the outputs' original_id (ids of the graph that dumps).
      EXPECT_EQ(next.model(), testing::WithOriginalIdsOf(last, next.model()))
          << format << ": the second re-dump differs from the first";
      // FBS_V2 stores every var's name, so the passes find the graph as they leave it. FBS
      // stores only the outputs' names: a var the passes take apart and put together again
      // shows the name MegEngine's replace_var gives it, not its load name (a renaming the
      // file cannot show: the bytes above are the same).
      if (format != "FBS") {
        EXPECT_EQ(next.info["optimized"]["passes"], nlohmann::json::array()) << format;
      }
    }
    last = next.model();
  }
  return out;
}

std::string ErrorOf(const std::string& model, const std::string& format) {
  auto l = Load(model);
  try {
    Export(l.model.get(), {{"dumpFormat", format}});
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kUnsupported);
    return std::string(e.what()) + " @" + e.where().opr;
  }
  return "no error";
}

OneOp Softmax(int32_t axis) {
  return {"Softmax",
          90,
          [axis](flatbuffers::FlatBufferBuilder& fbb) {
            return fbsp::CreateSoftmax(fbb, axis).Union();
          },
          {{2, 5}}};
}

TEST(MgeCompatRewriteOps, SoftmaxBecomesReduceMaxSubExpReduceSumDiv) {
  std::vector<std::string> expected = {"Host2DeviceCopy",
                                       "Reduce axis=1 data_type=DEFAULT mode=MAX_ (0)",
                                       "Elemwise mode=SUB (0,1)",
                                       "Elemwise mode=EXP (2)",
                                       "Reduce axis=1 data_type=DEFAULT mode=SUM (3)",
                                       "Elemwise mode=TRUE_DIV (3,4)"};
  EXPECT_EQ(Written(Dump(Model(Softmax(1)), "FBS")), expected);
  EXPECT_EQ(Written(Dump(Model(Softmax(1)), "FBS", {{"compatOlderVersion", "8.14"}})), expected);
  // FBS_V2 has no Softmax converter: the operator stays.
  EXPECT_EQ(Written(Dump(Model(Softmax(1)), "FBS_V2")),
            (std::vector<std::string>{"Host2DeviceCopy", "Softmax axis=1 (0)"}));
}

OneOp Dropout(float prob, uint64_t seed, std::vector<uint32_t> used = {0}) {
  return {"Dropout",
          86,
          [prob, seed](flatbuffers::FlatBufferBuilder& fbb) {
            return fbsp::CreateDropout(fbb, prob, seed).Union();
          },
          {{3, 4}},
          2,
          used};
}

TEST(MgeCompatRewriteOps, DropoutBecomesAUniformMaskScaledByTheKeepProbability) {
  // Creation order: shape, uniform, p, LT(p, u), as Bool, as Float32, MUL(x, mask) (x is
  // older), 1/(1-p), MUL; the DFS from the output reaches p before the uniform.
  EXPECT_EQ(Written(Dump(Model(Dropout(0.25f, 7)), "FBS")),
            (std::vector<std::string>{
                "Host2DeviceCopy", "ImmutableTensor Float32{1} 0.25", "GetVarShape axis=7 (0)",
                "UniformRNG dtype=Float32 seed=7 (2)", "Elemwise mode=LT (1,3)",
                "TypeCvt dtype=Bool (4)", "TypeCvt dtype=Float32 (5)", "Elemwise mode=MUL (0,6)",
                "ImmutableTensor Float32{1} 1.33333", "Elemwise mode=MUL (7,8)"}));
  // drop_prob 0: the scale is 1 and Elemwise::make returns x * mask itself.
  std::vector<std::string> zero = Written(Dump(Model(Dropout(0.0f, 1)), "FBS"));
  ASSERT_EQ(zero.size(), 8u);
  EXPECT_EQ(zero.back(), "Elemwise mode=MUL (0,6)");
  EXPECT_EQ(Written(Dump(Model(Dropout(0.25f, 7)), "FBS_V2"))[1].substr(0, 8), "Dropout ");
}

TEST(MgeCompatRewriteOps, AnOperatorWhoseOtherOutputsAreUsedStaysForThem) {
  // Dropout's mask is a graph output too: the converted output 0 and the old operator for
  // the mask, which FBS v1 holds as MegEngine's v1 dumper writes it.
  auto l = Load(Model(Dropout(0.5f, 3, {0, 1})));
  std::string out = Export(l.model.get(), {{"dumpFormat", "FBS"}}).model();
  EXPECT_TRUE(VerifiesAsV1(out));
  std::vector<std::string> seq = Written(out);
  EXPECT_EQ(seq.back().substr(0, 8), "Dropout ");
  EXPECT_EQ(seq[seq.size() - 2], "Elemwise mode=MUL (7,8)");
  auto file = ReadMgeFile(out, "t");
  const Graph& g = file->graphs[0];
  ASSERT_EQ(g.outputs.size(), 2u);
  EXPECT_EQ(g.oprs[g.vars[g.outputs[0].compact_id].opr].cls->key, "Elemwise");
  EXPECT_EQ(g.vars[g.outputs[1].compact_id].index, 1u);  // the old Dropout's mask
}

OneOp LayerNorm(bool affine, std::vector<std::vector<uint32_t>> shapes) {
  return {"LayerNorm", 85,
          [affine](flatbuffers::FlatBufferBuilder& fbb) {
            return fbsp::CreateLayerNorm(fbb, affine, 1e-5f, 1, 4).Union();
          },
          shapes, 3};
}

TEST(MgeCompatRewriteOps, LayerNormBecomesReduceAndElemwiseOverAReshapedInput) {
  std::vector<std::string> expected = {
      "Host2DeviceCopy",
      "GetVarShape axis=7 (0)",
      "ImmutableTensor Int32{1} 2",
      "Subtensor items=[{\"axis\":0,\"begin\":false,\"end\":true,\"idx\":false,\"step\":false}] "
      "(1,2)",
      "ImmutableTensor Int32{1} -1",
      "Concat axis=0 (3,4)",
      "Reshape axis=2 (0,5)",
      "Reduce axis=-1 data_type=DEFAULT mode=SUM_SQR (6)",
      "Reduce axis=0 data_type=DEFAULT mode=PRODUCT (1)",
      "GetVarShape axis=7 (7)",
      "Reduce axis=0 data_type=DEFAULT mode=PRODUCT (9)",
      "Elemwise mode=FLOOR_DIV (8,10)",
      "TypeCvt dtype=Float32 (11)",
      "PowC exp=-1.0 (12)",
      "ImmutableTensor Float32{1} 1e-05",
      "Elemwise mode=FUSE_MUL_ADD3 (7,13,14)",
      "Reduce axis=-1 data_type=DEFAULT mode=MEAN (6)",
      "PowC exp=2.0 (16)",
      "Elemwise mode=SUB (15,17)",
      "PowC exp=-0.5 (18)",
      "Elemwise mode=NEGATE (16)",
      "Elemwise mode=MUL (19,20)",
      "Elemwise mode=FUSE_MUL_ADD3 (6,19,21)",
      "Reshape axis=7 (22,1)"};
  EXPECT_EQ(Written(Dump(Model(LayerNorm(false, {{2, 3, 4}})), "FBS")), expected);
  // Affine: b and w are older than anything the converter makes, so the DFS from
  // ADD(b, MUL(w, res)) writes b, then w, then x and the normalization.
  std::vector<std::string> affine =
      Written(Dump(Model(LayerNorm(true, {{2, 3, 4}, {4}, {4}})), "FBS"));
  ASSERT_EQ(affine.size(), 3 + (expected.size() - 1) + 2);
  EXPECT_EQ(affine[2], "Host2DeviceCopy");
  const std::string res = std::to_string(affine.size() - 3);
  EXPECT_EQ(affine[affine.size() - 2], "Elemwise mode=MUL (1," + res + ")");
  EXPECT_EQ(affine.back(), "Elemwise mode=ADD (0," + std::to_string(affine.size() - 2) + ")");
  EXPECT_EQ(Written(Dump(Model(LayerNorm(false, {{2, 3, 4}})), "FBS_V2")).size(), 2u);
}

// The default re-dump of the rewritten LayerNorm is the same file. The Reshape's target is
// Concat(GetVarShape(x)[:2], -1), whose value MegEngine's static inference knows (research
// megengine_optimize.md §3.5), so every shape below it is known: ReorderArithChain and
// ArithFuse group the variance sum sum_sqr / n + eps - mean^2 by shape and rebuild the
// converter's FUSE_MUL_ADD3 and SUB. Without the Subtensor's value NormalizeArithChain
// re-associated the sum from each load's BFS order and the re-dumps cycled with period four.
TEST(MgeCompatRewriteOps, LayerNormsRewriteIsAFixedPointOfTheDefaultReDump) {
  for (const nlohmann::json& more :
       {nlohmann::json::object(), nlohmann::json{{"compatOlderVersion", "8.14"}}}) {
    const std::string once = Dump(Model(LayerNorm(false, {{2, 3, 4}})), "FBS", more);
    auto back = Load(once);
    nlohmann::json options = more;
    options["dumpFormat"] = "FBS";
    Exported twice = Export(back.model.get(), options);
    EXPECT_EQ(twice.model(), testing::WithOriginalIdsOf(once, twice.model())) << more.dump();
    // The passes put the same operators together again (the inner vars' names, which FBS
    // does not store, are those replace_var gives: see Dump()).
    const nlohmann::json& o = twice.info["optimized"]["operators"];
    EXPECT_EQ(o["before"], o["after"]) << more.dump();
  }
}

OneOp GroupNorm(const std::string& key, uint32_t group,
                std::vector<uint32_t> x_shape = {2, 4, 3, 3}) {
  return {key,
          92,
          [group](flatbuffers::FlatBufferBuilder& fbb) {
            return fbsp::CreateGroupNorm(fbb, true, 1e-5f, group).Union();
          },
          {x_shape, {1, 4, 1, 1}, {1, 4, 1, 1}},
          3};
}

// GroupNorm(x, w, b): the target shape (N, groups, C*H*W / groups) is the only difference
// between the two. The DFS reaches b first: ADD(MUL(res, w), b) is written (b, (w, res)) as
// b and w are older than anything the converter makes.
std::vector<std::string> NormExpected(const std::string& target) {
  return {"Host2DeviceCopy",           "Host2DeviceCopy",
          "Host2DeviceCopy",           "ImmutableTensor Int32{3} " + target,
          "Reshape axis=7 (2,3)",      "Reduce axis=2 data_type=DEFAULT mode=MEAN (4)",
          "Elemwise mode=SUB (4,5)",   "ImmutableTensor Float32{1} 1e-05",
          "Elemwise mode=MUL (4,4)",   "Reduce axis=2 data_type=DEFAULT mode=MEAN (8)",
          "Elemwise mode=MUL (5,5)",   "Elemwise mode=SUB (9,10)",
          "Elemwise mode=ADD (7,11)",  "ImmutableTensor Float32{1} 0.5",
          "Elemwise mode=POW (12,13)", "Elemwise mode=TRUE_DIV (6,14)",
          "GetVarShape axis=7 (2)",    "Reshape axis=7 (15,16)",
          "Elemwise mode=MUL (1,17)",  "Elemwise mode=ADD (0,18)"};
}

TEST(MgeCompatRewriteOps, GroupNormAndInstanceNormBecomeReduceMeanOverGroups) {
  // Both registries convert them: FBS_V2 dumps hold the same operators.
  for (const char* format : {"FBS", "FBS_V2"}) {
    EXPECT_EQ(Written(Dump(Model(GroupNorm("GroupNorm", 2)), format)), NormExpected("2 2 18"))
        << format;
    // InstanceNorm ignores the group: one group per channel.
    EXPECT_EQ(Written(Dump(Model(GroupNorm("InstanceNorm", 3)), format)), NormExpected("2 4 9"))
        << format;
  }
}

TEST(MgeCompatRewriteOps, CheckNonFiniteKeepsOnlyItsFlagOutputInFbsV1) {
  OneOp spec = {"CheckNonFinite",
                84,
                [](flatbuffers::FlatBufferBuilder& fbb) {
                  return fbsp::CreateCheckNonFinite(fbb, 2.0f).Union();
                },
                {{4}, {4}},
                3,
                {2}};
  auto l = Load(Model(spec));
  std::string out = Export(l.model.get(), {{"dumpFormat", "FBS"}}).model();
  EXPECT_TRUE(VerifiesAsV1(out));
  auto file = ReadMgeFile(out, "t");
  const Graph& g = file->graphs[0];
  ASSERT_EQ(g.oprs.size(), 3u);
  EXPECT_EQ(g.oprs[2].outputs.size(), 1u);
  EXPECT_EQ(g.outputs[0].compact_id, 2u);
  EXPECT_EQ(g.oprs[2].params[0].type, 84);
  EXPECT_EQ(ParamToJson(g.oprs[2].params[0])["fields"]["scale"], 2.0);
  // compat "8.14": the param is written as Empty.
  std::string old =
      Export(l.model.get(), {{"dumpFormat", "FBS"}, {"compatOlderVersion", "8.14"}}).model();
  auto old_file = ReadMgeFile(old, "t");
  EXPECT_EQ(old_file->graphs[0].oprs[2].params[0].type, 1);
  // FBS_V2 keeps all three outputs.
  std::string v2 = Export(l.model.get(), {{"dumpFormat", "FBS_V2"}}).model();
  EXPECT_EQ(ReadMgeFile(v2, "t")->graphs[0].oprs[2].outputs.size(), 3u);
  // From FBS v1 to FBS_V2 the scaled outputs are numbered again, as MegEngine's loader makes
  // them, and back to FBS v1 the same bytes.
  auto from_v1 = Load(out);
  std::string v2_again = Export(from_v1.model.get(), {{"dumpFormat", "FBS_V2"}}).model();
  EXPECT_TRUE(VerifiesAsV2(v2_again));
  auto v2_file = ReadMgeFile(v2_again, "t");
  EXPECT_EQ(v2_file->graphs[0].oprs[2].outputs, (std::vector<uint32_t>{2, 3, 4}));
  EXPECT_EQ(v2_file->graphs[0].outputs[0].compact_id, 4u);
  EXPECT_EQ(Export(Load(v2_again).model.get(), {{"dumpFormat", "FBS"}}).model(), out);
  // A graph using a scaled output cannot be dumped as FBS v1: MegEngine gives it no var id.
  spec.graph_outputs = {0, 2};
  std::string err = ErrorOf(Model(spec), "FBS");
  EXPECT_NE(err.find("output 0 is used"), std::string::npos) << err;
  EXPECT_NE(err.find("@#2 (CheckNonFinite)"), std::string::npos) << err;
}

TEST(MgeCompatRewriteOps, ConvertersRefuseWhatTheyCannotBuildAsMegEngineWould) {
  std::string err = ErrorOf(Model(GroupNorm("GroupNorm", 2, {2, 4, 9})), "FBS");
  EXPECT_NE(err.find("needs a 4-dimensional input"), std::string::npos) << err;
  EXPECT_NE(err.find("@#3 (GroupNorm)"), std::string::npos) << err;
  OneOp deep = LayerNorm(false, {{6}});
  deep.param = [](flatbuffers::FlatBufferBuilder& fbb) {
    return fbsp::CreateLayerNorm(fbb, false, 1e-5f, 2, 6).Union();
  };
  err = ErrorOf(Model(deep), "FBS");
  EXPECT_NE(err.find("normalized_dim 2 exceeds the input's 1 dimensions"), std::string::npos)
      << err;
  // MegEngine's backward converters are not implemented: FBS v1 refuses them by name.
  OneOp backward = GroupNorm("GroupNormBackward", 2);
  backward.param_type = 0;
  err = ErrorOf(Model(backward), "FBS");
  EXPECT_NE(err.find("GroupNormBackward: FBS v1 needs MegEngine's compatibility rewrite"),
            std::string::npos)
      << err;
}

}  // namespace
}  // namespace graphport::mge

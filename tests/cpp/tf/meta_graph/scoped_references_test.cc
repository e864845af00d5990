// export_scope applied to the references outside the graph: signatures and the saver.
#include "tf/meta_graph/scoped_references.h"

#include <gtest/gtest.h>

#include "api/model.h"
#include "meta_graph_test_util.h"

namespace graphport::tf::mgtest {
namespace {

using nlohmann::json;

TEST(ScopedReferencesTest, ReferencesInsideTheScopeAreStrippedOfIt) {
  auto mg = Text<tensorflow::MetaGraphDef>(R"pb(
    saver_def {
      filename_tensor_name: "tower/save/Const:0"
      save_tensor_name: "tower/save/control_dependency:0"
      restore_op_name: "tower/save/restore_all"
    }
    signature_def {
      key: "serving_default"
      value {
        inputs {
          key: "x"
          value { name: "tower/x:0" }
        }
        inputs {
          key: "sparse"
          value {
            coo_sparse {
              values_tensor_name: "tower/v:0"
              indices_tensor_name: "tower/i:0"
              dense_shape_tensor_name: "tower/s:0"
            }
          }
        }
        outputs {
          key: "y"
          value { composite_tensor { components { name: "tower/y:0" } } }
        }
        method_name: "tensorflow/serving/predict"
      }
    }
  )pb");
  json dropped = ScopeSignaturesAndSaver(Scope("tower"), &mg);
  EXPECT_TRUE(dropped.empty()) << dropped.dump();
  const auto& sig = mg.signature_def().at("serving_default");
  EXPECT_EQ(sig.inputs().at("x").name(), "x:0");
  EXPECT_EQ(sig.inputs().at("sparse").coo_sparse().values_tensor_name(), "v:0");
  EXPECT_EQ(sig.inputs().at("sparse").coo_sparse().indices_tensor_name(), "i:0");
  EXPECT_EQ(sig.inputs().at("sparse").coo_sparse().dense_shape_tensor_name(), "s:0");
  EXPECT_EQ(sig.outputs().at("y").composite_tensor().components(0).name(), "y:0");
  EXPECT_EQ(sig.method_name(), "tensorflow/serving/predict");
  EXPECT_EQ(mg.saver_def().filename_tensor_name(), "save/Const:0");
  EXPECT_EQ(mg.saver_def().restore_op_name(), "save/restore_all");
}

TEST(ScopedReferencesTest, ASignatureWithOneTensorOutsideIsDroppedAndSaysWhy) {
  auto mg = Text<tensorflow::MetaGraphDef>(R"pb(
    signature_def {
      key: "inside"
      value {
        inputs {
          key: "x"
          value { name: "tower/x:0" }
        }
      }
    }
    signature_def {
      key: "mixed"
      value {
        inputs {
          key: "x"
          value { name: "tower/x:0" }
        }
        outputs {
          key: "y"
          value { name: "head/y:0" }
        }
      }
    }
  )pb");
  json dropped = ScopeSignaturesAndSaver(Scope("tower"), &mg);
  ASSERT_EQ(dropped.size(), 1u) << dropped.dump();
  EXPECT_EQ(dropped[0]["what"], "signature_def 'mixed'");
  EXPECT_EQ(dropped[0]["reason"], "output 'y' is tensor 'head/y:0', outside scope 'tower'");
  EXPECT_EQ(mg.signature_def().count("mixed"), 0u);
  EXPECT_EQ(mg.signature_def().at("inside").inputs().at("x").name(), "x:0");
  // A scope is a name prefix up to a '/': "towerX/a" is not inside "tower".
  auto other = Text<tensorflow::MetaGraphDef>(R"pb(
    signature_def {
      key: "s"
      value {
        inputs {
          key: "x"
          value { name: "towerX/x:0" }
        }
      }
    }
  )pb");
  EXPECT_EQ(ScopeSignaturesAndSaver(Scope("tower"), &other).size(), 1u);
}

// The case that was found by trying it: a scoped export of TensorFlow 2's half_plus_two kept
// its 7 signatures and its saver, which name tensors the output does not hold.
TEST(ScopedReferencesTest, ScopedExportOfTf2HalfPlusTwoDropsWhatPointsOutside) {
  ASSERT_TRUE(CorpusPresent()) << MissingCorpusMessage();
  std::string bytes = ReadCorpus(
      "tf/serving/servables/tensorflow/testdata/saved_model_half_plus_two_tf2_cpu/00000123/"
      "saved_model.pb");
  MemorySource source(bytes);
  std::unique_ptr<Model> model = Model::Load(&source, LoadOptions{});
  MemoryOutputSet out;
  json info = json::parse(model->ExportJson(R"({"exportScope": "Variable"})", &out));
  ASSERT_EQ(info["droppedReferences"].size(), 8u) << info.dump();
  EXPECT_EQ(info["droppedReferences"][0]["what"], "saver_def");
  tensorflow::MetaGraphDef exported;
  ASSERT_TRUE(exported.ParseFromString(out.files()[0].bytes));
  EXPECT_EQ(exported.signature_def_size(), 0);
  EXPECT_FALSE(exported.has_saver_def());
  // Every node the output names is in it.
  for (const auto& node : exported.graph_def().node()) {
    EXPECT_EQ(node.name().rfind("Variable/", 0), std::string::npos) << node.name();
  }
  // Without a scope nothing is dropped or reported.
  MemoryOutputSet whole;
  json plain = json::parse(model->ExportJson("{}", &whole));
  EXPECT_FALSE(plain.contains("droppedReferences"));
  tensorflow::MetaGraphDef all;
  ASSERT_TRUE(all.ParseFromString(whole.files()[0].bytes));
  EXPECT_EQ(all.signature_def_size(), 7);
}

}  // namespace
}  // namespace graphport::tf::mgtest

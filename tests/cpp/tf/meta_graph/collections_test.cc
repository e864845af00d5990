// Collections under export_scope and clear_extraneous_savers (tensorflow.md §1.8; the to_proto
// methods of Variable, Saver, QueueRunner, CondContext and WhileContext).
#include "tf/meta_graph/collections.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "meta_graph_test_util.h"
#include "tensorflow/control_flow.pb.h"
#include "tensorflow/queue_runner.pb.h"
#include "tensorflow/variable.pb.h"

namespace graphport::tf {
namespace {

using mgtest::MessagesEqual;
using mgtest::Text;
using mgtest::ToVector;
using Strings = std::vector<std::string>;

const std::set<std::string> kNoExclusions;

struct Exported {
  bool written = false;
  tensorflow::CollectionDef def;
};

Exported ExportOne(const std::string& key, const tensorflow::CollectionDef& in,
                   const std::string& scope,
                   const std::set<std::string>& excluded = kNoExclusions) {
  Scope s(scope);
  CollectionRules rules{&s, &excluded};
  Exported e;
  e.written = ExportCollection(key, in, rules, &e.def);
  return e;
}

tensorflow::CollectionDef NodeList(const Strings& values) {
  tensorflow::CollectionDef def;
  for (const auto& v : values) def.mutable_node_list()->add_value(v);
  return def;
}

tensorflow::CollectionDef BytesList(const Strings& values) {
  tensorflow::CollectionDef def;
  for (const auto& v : values) def.mutable_bytes_list()->add_value(v);
  return def;
}

template <typename Proto>
std::vector<Proto> Decode(const tensorflow::CollectionDef& def) {
  std::vector<Proto> out;
  for (const auto& bytes : def.bytes_list().value()) {
    Proto p;
    EXPECT_TRUE(p.ParseFromString(bytes));
    out.push_back(p);
  }
  return out;
}

TEST(CollectionsTest, NodeListIsFilteredAndStripped) {
  Exported e = ExportOne(
      "train_op", NodeList({"s/a:0", "s/b", "t/c:0", "$unbound_inputs_x", "sa/d:0", "^s/e", "s"}),
      "s");
  ASSERT_TRUE(e.written);
  EXPECT_EQ(ToVector(e.def.node_list().value()),
            (Strings{"a:0", "b", "$unbound_inputs_x", "^e", "s"}));
}

TEST(CollectionsTest, NodeListWithNothingInTheScopeIsNotWritten) {
  Exported e = ExportOne("logits", NodeList({"softmax_linear/add:0"}), "hidden1");
  EXPECT_FALSE(e.written);
}

// Excluded saver nodes leave collections by node name; tensor names ("x:0") never equal a node
// name, so they stay (TensorFlow compares item.name with the excluded names).
TEST(CollectionsTest, ExcludedNodesLeaveByNodeNameOnly) {
  std::set<std::string> excluded = {"save_1/Const", "save_1/restore_all"};
  Exported e =
      ExportOne("misc", NodeList({"save_1/Const", "save_1/Const:0", "save_1/restore_all", "x"}), "",
                excluded);
  ASSERT_TRUE(e.written);
  EXPECT_EQ(ToVector(e.def.node_list().value()), (Strings{"save_1/Const:0", "x"}));
  Exported plain = ExportOne("names", BytesList({"save_1/Const", "y"}), "", excluded);
  EXPECT_EQ(ToVector(plain.def.bytes_list().value()), (Strings{"y"}));
}

// Plain strings are filtered as node names, but TensorFlow does not strip them.
TEST(CollectionsTest, PlainBytesListIsFilteredNotStripped) {
  Exported e = ExportOne(
      "my_strings", BytesList({"s/a", "t/b", "s/c:0", "queue_name: \"q\"\n", "$unbound_inputs_z"}),
      "s");
  ASSERT_TRUE(e.written);
  EXPECT_EQ(ToVector(e.def.bytes_list().value()), (Strings{"s/a", "s/c:0", "$unbound_inputs_z"}));
}

TEST(CollectionsTest, NoScopeAndNoExclusionsKeepsTheCollectionByteForByte) {
  tensorflow::CollectionDef in = BytesList({"\x01\x02not a proto", "t/x"});
  Exported e = ExportOne("variables", in, "");
  ASSERT_TRUE(e.written);
  EXPECT_EQ(e.def.SerializeAsString(), in.SerializeAsString());
}

tensorflow::VariableDef Variable(const std::string& scope_prefix, const std::string& name) {
  std::string p = scope_prefix + name;
  tensorflow::VariableDef v;
  v.set_variable_name(p + ":0");
  v.set_initial_value_name(p + "/initial_value:0");
  v.set_initializer_name(p + "/Assign");
  v.set_snapshot_name(p + "/read:0");
  v.set_trainable(true);
  v.set_is_resource(false);
  v.set_synchronization(tensorflow::VARIABLE_SYNCHRONIZATION_ON_READ);
  v.set_aggregation(tensorflow::VARIABLE_AGGREGATION_MEAN);
  tensorflow::SaveSliceInfoDef* slice = v.mutable_save_slice_info_def();
  slice->set_full_name(p);
  slice->add_full_shape(4);
  slice->add_var_offset(2);
  slice->add_var_shape(2);
  return v;
}

// Variable.to_proto(export_scope): kept when the variable is in the scope, with every name
// (save_slice_info's full_name too) stripped and everything else unchanged.
TEST(CollectionsTest, VariableDefsAreDecodedScopedOrDropped) {
  for (const char* key : {"variables", "trainable_variables", "local_variables", "model_variables",
                          "moving_average_variables", "metric_variables"}) {
    SCOPED_TRACE(key);
    tensorflow::CollectionDef in =
        BytesList({Variable("s/", "v").SerializeAsString(), Variable("t/", "w").SerializeAsString(),
                   Variable("s/inner/", "u").SerializeAsString()});
    Exported e = ExportOne(key, in, "s");
    ASSERT_TRUE(e.written);
    std::vector<tensorflow::VariableDef> vars = Decode<tensorflow::VariableDef>(e.def);
    ASSERT_EQ(vars.size(), 2u);
    EXPECT_TRUE(MessagesEqual(Variable("", "v"), vars[0]));
    EXPECT_TRUE(MessagesEqual(Variable("inner/", "u"), vars[1]));
  }
}

TEST(CollectionsTest, VariablesAllOutsideTheScopeDropTheKey) {
  Exported e = ExportOne("variables", BytesList({Variable("t/", "w").SerializeAsString()}), "s");
  EXPECT_FALSE(e.written);
}

TEST(CollectionsTest, VariableWithoutOptionalNamesKeepsThemEmpty) {
  tensorflow::VariableDef v;
  v.set_variable_name("s/v:0");
  v.set_initializer_name("s/v/Assign");
  Exported e = ExportOne("variables", BytesList({v.SerializeAsString()}), "s");
  ASSERT_TRUE(e.written);
  tensorflow::VariableDef expected;
  expected.set_variable_name("v:0");
  expected.set_initializer_name("v/Assign");
  EXPECT_TRUE(MessagesEqual(expected, Decode<tensorflow::VariableDef>(e.def).at(0)));
}

// graphport cannot scope what it cannot read; it keeps such values rather than lose data.
TEST(CollectionsTest, UnparseableProtoValuesAreKeptAsTheyAre) {
  std::string garbage = "\xff\xff\xff";
  Exported e =
      ExportOne("variables", BytesList({garbage, Variable("s/", "v").SerializeAsString()}), "s");
  ASSERT_TRUE(e.written);
  ASSERT_EQ(e.def.bytes_list().value_size(), 2);
  EXPECT_EQ(e.def.bytes_list().value(0), garbage);
}

tensorflow::SaverDef Saver(const std::string& filename, const std::string& save,
                           const std::string& restore) {
  tensorflow::SaverDef s;
  s.set_filename_tensor_name(filename);
  s.set_save_tensor_name(save);
  s.set_restore_op_name(restore);
  s.set_max_to_keep(5);
  s.set_sharded(true);
  s.set_keep_checkpoint_every_n_hours(10000);
  s.set_version(tensorflow::SaverDef::V2);
  return s;
}

// Saver.to_proto(export_scope): all three names in the scope, or the saver is left out.
TEST(CollectionsTest, SaverDefsAreScopedByToProtoRules) {
  tensorflow::SaverDef inside =
      Saver("s/save/Const:0", "s/save/control_dependency:0", "s/save/restore_all");
  tensorflow::SaverDef scoped;
  ASSERT_TRUE(ScopeSaverDef(inside, Scope("s"), &scoped));
  EXPECT_TRUE(MessagesEqual(Saver("save/Const:0", "save/control_dependency:0", "save/restore_all"),
                            scoped));

  for (const auto& partial :
       {Saver("t/Const:0", "s/save/control_dependency:0", "s/save/restore_all"),
        Saver("s/save/Const:0", "t/control_dependency:0", "s/save/restore_all"),
        Saver("s/save/Const:0", "s/save/control_dependency:0", "t/restore_all")}) {
    tensorflow::SaverDef out;
    EXPECT_FALSE(ScopeSaverDef(partial, Scope("s"), &out))
        << graphport::testing::ShortText(partial);
  }

  Exported e =
      ExportOne("savers",
                BytesList({inside.SerializeAsString(),
                           Saver("t/Const:0", "s/x:0", "s/restore_all").SerializeAsString()}),
                "s");
  ASSERT_TRUE(e.written);
  std::vector<tensorflow::SaverDef> savers = Decode<tensorflow::SaverDef>(e.def);
  ASSERT_EQ(savers.size(), 1u);
  EXPECT_TRUE(MessagesEqual(scoped, savers[0]));
}

TEST(CollectionsTest, SaverDefWithEmptyScopeIsUnchanged) {
  tensorflow::SaverDef in = Saver("save/Const:0", "save/Identity:0", "save/restore_all");
  tensorflow::SaverDef out;
  ASSERT_TRUE(ScopeSaverDef(in, Scope(""), &out));
  EXPECT_TRUE(MessagesEqual(in, out));
}

// QueueRunner.to_proto(export_scope).
TEST(CollectionsTest, QueueRunnerDefsAreScoped) {
  auto in = Text<tensorflow::QueueRunnerDef>(R"pb(
    queue_name: "queue1/fifo_queue"
    enqueue_op_name: "queue1/fifo_queue_enqueue"
    enqueue_op_name: "queue1/fifo_queue_enqueue_1"
    close_op_name: "queue1/fifo_queue_Close"
    cancel_op_name: "queue1/fifo_queue_Close_1"
    queue_closed_exception_types: OUT_OF_RANGE
  )pb");
  auto outside = Text<tensorflow::QueueRunnerDef>(R"pb(queue_name: "queue2/fifo_queue")pb");
  Exported e = ExportOne(
      "queue_runners", BytesList({in.SerializeAsString(), outside.SerializeAsString()}), "queue1");
  ASSERT_TRUE(e.written);
  std::vector<tensorflow::QueueRunnerDef> runners = Decode<tensorflow::QueueRunnerDef>(e.def);
  ASSERT_EQ(runners.size(), 1u);
  EXPECT_TRUE(MessagesEqual(Text<tensorflow::QueueRunnerDef>(R"pb(
                              queue_name: "fifo_queue"
                              enqueue_op_name: "fifo_queue_enqueue"
                              enqueue_op_name: "fifo_queue_enqueue_1"
                              close_op_name: "fifo_queue_Close"
                              cancel_op_name: "fifo_queue_Close_1"
                              queue_closed_exception_types: OUT_OF_RANGE
                            )pb"),
                            runners[0]));
}

// CondContext.to_proto(export_scope), with a nested while context. TensorFlow's own exporter
// leaves nested contexts unscoped, but its importer prefixes them with import_scope
// (from_control_flow_context_def(nested_def, import_scope)); stripping them is what makes the
// round trip land on the right names.
TEST(CollectionsTest, CondContextsAndNestedContextsAreScoped) {
  auto in = Text<tensorflow::CondContextDef>(R"pb(
    context_name: "s/cond/cond_text"
    pred_name: "s/cond/pred_id:0"
    pivot_name: "s/cond/switch_t:0"
    branch: 1
    values_def {
      values: "s/cond/pred_id:0"
      values: "s/cond/switch_t:0"
      values: "s/a:0"
      external_values { key: "s/a:0" value: "s/cond/Switch_1:1" }
    }
    nested_contexts {
      while_ctxt {
        context_name: "s/cond/while/while_context"
        parallel_iterations: 10
        pivot_name: "s/cond/while/LoopCond:0"
        pivot_for_pred_name: "s/cond/while/Merge:0"
        pivot_for_body_name: "s/cond/while/Identity:0"
        loop_exit_names: "s/cond/while/Exit:0"
        loop_enter_names: "s/cond/while/Enter:0"
        values_def { values: "s/cond/while/Identity:0" }
      }
    }
  )pb");
  auto outside = Text<tensorflow::CondContextDef>(R"pb(context_name: "t/cond/cond_text"
                                                       pred_name: "t/p:0")pb");
  Exported e = ExportOne("cond_context",
                         BytesList({in.SerializeAsString(), outside.SerializeAsString()}), "s");
  ASSERT_TRUE(e.written);
  std::vector<tensorflow::CondContextDef> conds = Decode<tensorflow::CondContextDef>(e.def);
  ASSERT_EQ(conds.size(), 1u);
  EXPECT_TRUE(MessagesEqual(Text<tensorflow::CondContextDef>(R"pb(
                              context_name: "cond/cond_text"
                              pred_name: "cond/pred_id:0"
                              pivot_name: "cond/switch_t:0"
                              branch: 1
                              values_def {
                                values: "cond/pred_id:0"
                                values: "cond/switch_t:0"
                                values: "a:0"
                                external_values { key: "a:0" value: "cond/Switch_1:1" }
                              }
                              nested_contexts {
                                while_ctxt {
                                  context_name: "cond/while/while_context"
                                  parallel_iterations: 10
                                  pivot_name: "cond/while/LoopCond:0"
                                  pivot_for_pred_name: "cond/while/Merge:0"
                                  pivot_for_body_name: "cond/while/Identity:0"
                                  loop_exit_names: "cond/while/Exit:0"
                                  loop_enter_names: "cond/while/Enter:0"
                                  values_def { values: "cond/while/Identity:0" }
                                }
                              }
                            )pb"),
                            conds[0]));
}

// WhileContext.to_proto(export_scope), with a nested cond context.
TEST(CollectionsTest, WhileContextsAndNestedContextsAreScoped) {
  auto in = Text<tensorflow::WhileContextDef>(R"pb(
    context_name: "export/while/while_context"
    parallel_iterations: 32
    back_prop: true
    swap_memory: true
    pivot_name: "export/while/LoopCond:0"
    pivot_for_pred_name: "export/while/Merge:0"
    pivot_for_body_name: "export/while/Identity:0"
    loop_exit_names: "export/while/Exit:0"
    loop_exit_names: "export/while/Exit_1:0"
    loop_enter_names: "export/while/Enter:0"
    loop_enter_names: "export/while/Enter_1:0"
    maximum_iterations_name: "export/while/maximum_iterations:0"
    values_def {
      values: "export/while/Identity:0"
      external_values { key: "export/x:0" value: "export/while/Enter_1:0" }
    }
    nested_contexts {
      cond_ctxt {
        context_name: "export/while/cond/cond_text"
        pred_name: "export/while/cond/pred_id:0"
        pivot_name: "export/while/cond/switch_t:0"
      }
    }
  )pb");
  auto no_max =
      Text<tensorflow::WhileContextDef>(R"pb(context_name: "export/while_1/while_context"
                                             pivot_name: "export/while_1/LoopCond:0")pb");
  Exported e = ExportOne("while_context",
                         BytesList({in.SerializeAsString(), no_max.SerializeAsString()}), "export");
  ASSERT_TRUE(e.written);
  std::vector<tensorflow::WhileContextDef> loops = Decode<tensorflow::WhileContextDef>(e.def);
  ASSERT_EQ(loops.size(), 2u);
  EXPECT_TRUE(MessagesEqual(Text<tensorflow::WhileContextDef>(R"pb(
                              context_name: "while/while_context"
                              parallel_iterations: 32
                              back_prop: true
                              swap_memory: true
                              pivot_name: "while/LoopCond:0"
                              pivot_for_pred_name: "while/Merge:0"
                              pivot_for_body_name: "while/Identity:0"
                              loop_exit_names: "while/Exit:0"
                              loop_exit_names: "while/Exit_1:0"
                              loop_enter_names: "while/Enter:0"
                              loop_enter_names: "while/Enter_1:0"
                              maximum_iterations_name: "while/maximum_iterations:0"
                              values_def {
                                values: "while/Identity:0"
                                external_values { key: "x:0" value: "while/Enter_1:0" }
                              }
                              nested_contexts {
                                cond_ctxt {
                                  context_name: "while/cond/cond_text"
                                  pred_name: "while/cond/pred_id:0"
                                  pivot_name: "while/cond/switch_t:0"
                                }
                              }
                            )pb"),
                            loops[0]));
  // No maximum_iterations: the name stays unset.
  EXPECT_TRUE(
      MessagesEqual(Text<tensorflow::WhileContextDef>(R"pb(context_name: "while_1/while_context"
                                                           pivot_name: "while_1/LoopCond:0")pb"),
                    loops[1]));
  EXPECT_FALSE(ExportOne("while_context", BytesList({in.SerializeAsString()}), "other").written);
}

// Numbers and Any values have no name, so TensorFlow's filter keeps them all.
TEST(CollectionsTest, Int64FloatAndAnyListsPassThrough) {
  auto ints = Text<tensorflow::CollectionDef>("int64_list { value: 1 value: -2 }");
  auto floats = Text<tensorflow::CollectionDef>("float_list { value: 0.5 value: -0.0 }");
  auto anys = Text<tensorflow::CollectionDef>(
      R"pb(any_list {
             value { type_url: "type.googleapis.com/tensorflow.AssetFileDef" value: "\n\003t/x" }
           })pb");
  for (const auto* in : {&ints, &floats, &anys}) {
    Exported e = ExportOne("k", *in, "s", {"t/x"});
    ASSERT_TRUE(e.written);
    EXPECT_TRUE(MessagesEqual(*in, e.def));
  }
}

TEST(CollectionsTest, EmptyResultsAreNotWritten) {
  EXPECT_FALSE(ExportOne("k", NodeList({"t/a"}), "s").written);
  EXPECT_FALSE(ExportOne("k", BytesList({"t/a"}), "s").written);
  EXPECT_FALSE(
      ExportOne("savers", BytesList({Saver("t/c:0", "t/s:0", "t/r").SerializeAsString()}), "s")
          .written);
  EXPECT_FALSE(ExportOne("k", tensorflow::CollectionDef(), "s").written) << "no kind at all";
  EXPECT_FALSE(ExportOne("k", NodeList({"save_1/x"}), "", {"save_1/x"}).written);
}

}  // namespace
}  // namespace graphport::tf

// save_debug_info: the debug file's name and the traces it keeps (tensorflow.md §1.9).
#include "tf/meta_graph/debug_info.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "meta_graph_test_util.h"

namespace graphport::tf {
namespace {

using mgtest::MessagesEqual;
using mgtest::Text;

// The documented rule, "_debug" before the extension (README: TensorFlow's code writes
// "<stem>.debug" against its docs; graphport follows the docs).
// r1.15/2.x layout: traces keyed "<op name>@<function>" plus the file list they index.
TEST(DebugInfoTest, OldLayoutKeepsOnlyTheExportedTopLevelNodes) {
  auto in = Text<tensorflow::GraphDebugInfo>(R"pb(
    files: "model.py"
    files: "layers.py"
    traces {
      key: "a@"
      value { file_line_cols { file_index: 0 line: 10 } }
    }
    traces {
      key: "s/b@"
      value { file_line_cols { file_index: 1 line: 20 col: 4 } }
    }
    traces {
      key: "c"
      value { file_line_cols { file_index: 0 line: 30 } }
    }
    traces {
      key: "d@fn"
      value { file_line_cols { file_index: 1 line: 40 } }
    }
    traces {
      key: "e@"
      value { file_line_cols { file_index: 0 line: 50 } }
    }
  )pb");
  tensorflow::GraphDebugInfo out;
  // Names before scope stripping, as TensorFlow keys them; "d" lives only in function fn.
  EXPECT_EQ(FilterDebugInfo(in, {"a", "s/b", "c", "d"}, &out), 3);
  EXPECT_TRUE(MessagesEqual(Text<tensorflow::GraphDebugInfo>(R"pb(
                              files: "model.py"
                              files: "layers.py"
                              traces {
                                key: "a@"
                                value { file_line_cols { file_index: 0 line: 10 } }
                              }
                              traces {
                                key: "s/b@"
                                value { file_line_cols { file_index: 1 line: 20 col: 4 } }
                              }
                              traces {
                                key: "c"
                                value { file_line_cols { file_index: 0 line: 30 } }
                              }
                            )pb"),
                            out));
}

TEST(DebugInfoTest, NoTracedNodeGivesAnEmptyMessage) {
  auto in = Text<tensorflow::GraphDebugInfo>(R"pb(
    files: "model.py"
    traces {
      key: "a@"
      value { file_line_cols { file_index: 0 line: 10 } }
    }
  )pb");
  tensorflow::GraphDebugInfo out;
  EXPECT_EQ(FilterDebugInfo(in, {"b"}, &out), 0);
  EXPECT_EQ(out.ByteSizeLong(), 0u);
  EXPECT_EQ(FilterDebugInfo(tensorflow::GraphDebugInfo(), {"a"}, &out), 0);
  EXPECT_EQ(out.ByteSizeLong(), 0u);
}

// Current layout (GraphDebugInfoBuilder): names -> trace ids -> frame ids.
TEST(DebugInfoTest, NewLayoutKeepsTheTracesAndFramesOfTheExportedNodes) {
  auto in = Text<tensorflow::GraphDebugInfo>(R"pb(
    frames_by_id {
      key: 10
      value { file_index: 0 line: 1 func: "f" }
    }
    frames_by_id {
      key: 11
      value { file_index: 0 line: 2 }
    }
    frames_by_id {
      key: 12
      value { file_index: 0 line: 3 }
    }
    frames_by_id {
      key: 13
      value { file_index: 0 line: 4 }
    }
    traces_by_id {
      key: 1
      value { frame_id: 10 frame_id: 11 }
    }
    traces_by_id {
      key: 2
      value { frame_id: 12 }
    }
    traces_by_id {
      key: 3
      value { frame_id: 13 frame_id: 10 }
    }
    name_to_trace_id { key: "a@" value: 1 }
    name_to_trace_id { key: "b@" value: 2 }
    name_to_trace_id { key: "c@" value: 1 }
    name_to_trace_id { key: "d@fn" value: 3 }
  )pb");
  tensorflow::GraphDebugInfo out;
  EXPECT_EQ(FilterDebugInfo(in, {"a", "c", "d"}, &out), 2);
  EXPECT_TRUE(MessagesEqual(Text<tensorflow::GraphDebugInfo>(R"pb(
                              frames_by_id {
                                key: 10
                                value { file_index: 0 line: 1 func: "f" }
                              }
                              frames_by_id {
                                key: 11
                                value { file_index: 0 line: 2 }
                              }
                              traces_by_id {
                                key: 1
                                value { frame_id: 10 frame_id: 11 }
                              }
                              name_to_trace_id { key: "a@" value: 1 }
                              name_to_trace_id { key: "c@" value: 1 }
                            )pb"),
                            out));

  tensorflow::GraphDebugInfo only_b;
  EXPECT_EQ(FilterDebugInfo(in, {"b"}, &only_b), 1);
  EXPECT_TRUE(MessagesEqual(Text<tensorflow::GraphDebugInfo>(R"pb(
                              frames_by_id {
                                key: 12
                                value { file_index: 0 line: 3 }
                              }
                              traces_by_id {
                                key: 2
                                value { frame_id: 12 }
                              }
                              name_to_trace_id { key: "b@" value: 2 }
                            )pb"),
                            only_b));
}

TEST(DebugInfoTest, BothLayoutsInOneMessage) {
  auto in = Text<tensorflow::GraphDebugInfo>(R"pb(
    files: "m.py"
    traces {
      key: "a@"
      value { file_line_cols { file_index: 0 line: 1 } }
    }
    frames_by_id {
      key: 7
      value { line: 9 }
    }
    traces_by_id {
      key: 5
      value { frame_id: 7 }
    }
    name_to_trace_id { key: "a@" value: 5 }
    name_to_trace_id { key: "z@" value: 5 }
  )pb");
  tensorflow::GraphDebugInfo out;
  EXPECT_EQ(FilterDebugInfo(in, {"a"}, &out), 1) << "a node traced in both layouts counts once";
  EXPECT_EQ(out.traces_size(), 1);
  EXPECT_EQ(out.files_size(), 1);
  EXPECT_EQ(out.name_to_trace_id_size(), 1);
  EXPECT_EQ(out.traces_by_id_size(), 1);
  EXPECT_EQ(out.frames_by_id_size(), 1);
}

}  // namespace
}  // namespace graphport::tf

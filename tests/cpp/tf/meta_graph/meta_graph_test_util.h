// Helpers shared by the export_meta_graph tests: the corpus, TensorFlow's op registry from
// the corpus (tf/ops.pbtxt), protos written as text, and message comparison.
#ifndef GRAPHPORT_TESTS_CPP_TF_META_GRAPH_META_GRAPH_TEST_UTIL_H_
#define GRAPHPORT_TESTS_CPP_TF_META_GRAPH_META_GRAPH_TEST_UTIL_H_

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/message.h>
#include <google/protobuf/text_format.h>
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "tensorflow/graph.pb.h"
#include "tensorflow/meta_graph.pb.h"
#include "tensorflow/op_def.pb.h"
#include "tensorflow/saved_model.pb.h"
#include "test_util.h"
#include "tf/tf_format.h"

namespace graphport::tf::mgtest {

// Corpus access and message comparison are the whole suite's (tests/cpp/test_util.h).
namespace fs = std::filesystem;
using graphport::testing::CorpusDir;
using graphport::testing::CorpusPresent;
using graphport::testing::MessagesEqual;
using graphport::testing::MissingCorpusMessage;
using graphport::testing::ReadCorpus;
using graphport::testing::ReadFile;

inline constexpr char kOpsPbtxt[] = "tf/ops.pbtxt";

// Parses protobuf text format with libprotobuf's own parser; throws when it does not parse.
template <typename T>
T Text(const std::string& text) {
  return graphport::testing::FromText<T>(text);
}

// TensorFlow's own op registry (tensorflow/core/ops/ops.pbtxt, a text OpList), parsed once.
inline const tensorflow::OpList& TfOps() {
  static const tensorflow::OpList* ops = [] {
    auto* list = new tensorflow::OpList();
    *list = Text<tensorflow::OpList>(ReadCorpus(kOpsPbtxt));
    return list;
  }();
  return *ops;
}

inline const tensorflow::OpDef* FindOp(const tensorflow::OpList& ops, const std::string& name) {
  for (const auto& op : ops.op()) {
    if (op.name() == name) return &op;
  }
  return nullptr;
}

inline const tensorflow::OpDef::AttrDef* FindAttr(const tensorflow::OpDef& op,
                                                  const std::string& name) {
  for (const auto& attr : op.attr()) {
    if (attr.name() == name) return &attr;
  }
  return nullptr;
}

inline std::vector<std::string> NodeNames(const tensorflow::GraphDef& graph) {
  std::vector<std::string> names;
  for (const auto& node : graph.node()) names.push_back(node.name());
  return names;
}

inline const tensorflow::NodeDef* FindNode(const tensorflow::GraphDef& graph,
                                           const std::string& name) {
  for (const auto& node : graph.node()) {
    if (node.name() == name) return &node;
  }
  return nullptr;
}

// The node named `name`; when there is none the test fails here, naming it, and an empty node
// stands in, so a regression reads as a failure instead of a null dereference.
inline const tensorflow::NodeDef& NodeOrFail(const tensorflow::GraphDef& graph,
                                             const std::string& name) {
  const tensorflow::NodeDef* node = FindNode(graph, name);
  if (node != nullptr) return *node;
  ADD_FAILURE() << "the graph has no node '" << name << "'";
  static const tensorflow::NodeDef* const kNone = new tensorflow::NodeDef();
  return *kNone;
}

template <typename Repeated>
std::vector<std::string> ToVector(const Repeated& values) {
  return std::vector<std::string>(values.begin(), values.end());
}

// A MetaGraphDef or SavedModel of the corpus.
struct CorpusFile {
  std::string relative;
  TfKind kind = TfKind::kMetaGraphDef;
  fs::path path() const { return CorpusDir() / relative; }
};

inline void PrintTo(const CorpusFile& f, std::ostream* os) { *os << f.relative; }

// Every saved_model.pb and *.meta under corpus/tf, sorted. When the corpus is missing, one
// entry that cannot be read, so every parameterized test fails instead of running nothing.
inline std::vector<CorpusFile> CorpusMetaGraphFiles() {
  std::vector<CorpusFile> out;
  if (!CorpusPresent()) return {{"missing-corpus/saved_model.pb", TfKind::kSavedModel}};
  for (const auto& entry : fs::recursive_directory_iterator(CorpusDir() / "tf")) {
    if (!entry.is_regular_file()) continue;
    std::string rel = fs::relative(entry.path(), CorpusDir()).generic_string();
    if (entry.path().filename() == "saved_model.pb") out.push_back({rel, TfKind::kSavedModel});
    if (entry.path().extension() == ".meta") out.push_back({rel, TfKind::kMetaGraphDef});
  }
  std::sort(out.begin(), out.end(),
            [](const CorpusFile& a, const CorpusFile& b) { return a.relative < b.relative; });
  return out;
}

inline std::string CorpusFileTestName(const ::testing::TestParamInfo<CorpusFile>& info) {
  std::string rel = info.param.relative;
  for (const char* prefix : {"tf/serving/servables/tensorflow/testdata/", "tf/serving/"}) {
    if (rel.rfind(prefix, 0) == 0) {
      rel = rel.substr(std::string(prefix).size());
      break;
    }
  }
  std::string name;
  for (char c : rel) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

}  // namespace graphport::tf::mgtest

#endif  // GRAPHPORT_TESTS_CPP_TF_META_GRAPH_META_GRAPH_TEST_UTIL_H_

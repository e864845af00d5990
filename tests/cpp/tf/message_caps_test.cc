// Error messages quote a bounded amount of the input (issue 11, fault 7).
#include <gtest/gtest.h>

#include "core/error.h"
#include "tf/export.h"
#include "tf/tf_model.h"

namespace graphport::tf {
namespace {

constexpr size_t kMaxMessageBytes = 1000;

std::unique_ptr<TfModel> Load(const std::string& bytes, const TfLoadOptions& options = {}) {
  MemorySource source(bytes);
  return TfModel::Load(&source, options);
}

TEST(MessageCapsTest, AHugeExportScopeIsNotEchoedWhole) {
  auto model = Load("node { name: \"a/b\" op: \"NoOp\" }\n");
  for (std::string scope : {std::string(100000, 'x'), std::string(100000, '/')}) {
    MemoryOutputSet out;
    TfExportOptions options;
    options.export_scope = scope;
    try {
      Export(model.get(), options, &out);
      FAIL() << "exported";
    } catch (const Error& e) {
      std::string msg = e.what();
      EXPECT_LT(msg.size(), kMaxMessageBytes) << msg.size();
      EXPECT_NE(msg.find("more bytes)"), std::string::npos) << msg.substr(0, 400);
    }
  }
}

TEST(MessageCapsTest, TenThousandTagSetsAreNotListedWhole) {
  tensorflow::SavedModel saved;
  for (int i = 0; i < 10000; ++i) {
    auto* mg = saved.add_meta_graphs();
    mg->mutable_meta_info_def()->add_tags("tag" + std::to_string(i));
    mg->mutable_graph_def()->add_node()->set_name("n");
  }
  TfLoadOptions options;
  options.format = "saved-model";
  options.tags = {"missing"};
  options.tags_explicit = true;
  try {
    Load(saved.SerializeAsString(), options);
    FAIL() << "loaded";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kNotFound);
    std::string msg = e.what();
    EXPECT_LT(msg.size(), kMaxMessageBytes) << msg.size();
    EXPECT_NE(msg.find("[tag0], [tag1]"), std::string::npos) << msg;
    EXPECT_NE(msg.find("... and 9990 more"), std::string::npos) << msg;
  }
}

TEST(MessageCapsTest, ALongMissingCollectionListIsCapped) {
  auto model = Load("meta_info_def { tags: \"serve\" }\ngraph_def { node { name: \"a\" } }\n");
  MemoryOutputSet out;
  TfExportOptions options;
  options.collection_list = std::vector<std::string>();
  for (int i = 0; i < 5000; ++i) options.collection_list->push_back(std::string(300, 'c'));
  try {
    Export(model.get(), options, &out);
    FAIL() << "exported";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kNotFound);
    std::string msg = e.what();
    EXPECT_LT(msg.size(), 4 * kMaxMessageBytes) << msg.size();
    EXPECT_NE(msg.find("and 4990 more"), std::string::npos) << msg;
  }
}

TEST(MessageCapsTest, ALongTextTokenIsNotEchoedWhole) {
  // The parser's message quotes the token it did not expect: here a 1 MB identifier.
  std::string text = "node { name: \"a\" " + std::string(1 << 20, 'z') + " }\n";
  try {
    Load(text);
    FAIL() << "loaded";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kParseError);
    EXPECT_LT(std::string(e.what()).size(), kMaxMessageBytes);
  }
}

}  // namespace
}  // namespace graphport::tf

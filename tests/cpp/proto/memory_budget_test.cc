// One memory budget for a load, checked as the parse grows (issue 11, fault 6).
#include <gtest/gtest.h>

#include <chrono>

#include "core/error.h"
#include "proto/schema.h"
#include "proto/wire_scalar.h"
#include "test_util.h"
#include "tf/tf_model.h"

namespace graphport::tf {
namespace {

void AppendField(int number, const std::string& payload, std::string* out) {
  proto::AppendTag(out, number, proto::kWireLength);
  proto::AppendVarint(out, payload.size());
  *out += payload;
}

// GraphDef { node { name: "c" attr { key: "value" value { tensor { int64_val: [0 x count] } } } } }
// with int64_val packed: one byte per value on disk, eight in memory.
std::string PackedInt64Graph(size_t count) {
  std::string tensor;
  AppendField(10, std::string(count, '\0'), &tensor);  // TensorProto.int64_val
  std::string value;
  AppendField(8, tensor, &value);  // AttrValue.tensor
  std::string entry;
  AppendField(1, "value", &entry);
  AppendField(2, value, &entry);
  std::string node;
  AppendField(1, "c", &node);
  AppendField(5, entry, &node);  // NodeDef.attr
  std::string graph;
  AppendField(1, node, &graph);
  return graph;
}

Error LoadError(ByteSource* source, uint64_t budget) {
  TfLoadOptions options;
  options.name = "packed.pb";
  options.format = "graph-def";
  options.max_memory_bytes = budget;
  try {
    TfModel::Load(source, options);
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "loaded";
  return Error(ErrorCode::kInternal, "loaded");
}

TEST(MemoryBudgetTest, AnExpandingInputFailsFastInMemoryAndStreamed) {
  // 8 MiB on disk is 64 MiB in memory, and more while the field doubles as it grows.
  std::string bytes = PackedInt64Graph(size_t{8} << 20);
  MemorySource memory(bytes);
  testing::ChunkedSource chunks(bytes);
  for (ByteSource* source :
       {static_cast<ByteSource*>(&memory), static_cast<ByteSource*>(&chunks)}) {
    Error e = LoadError(source, uint64_t{16} << 20);
    EXPECT_EQ(e.code(), ErrorCode::kTooLarge) << e.what();
    std::string msg = e.what();
    EXPECT_EQ(msg.rfind("packed.pb: ", 0), 0u) << msg;
    EXPECT_NE(msg.find("memory budget of 16777216 bytes"), std::string::npos) << msg;
    EXPECT_NE(msg.find("maxMemoryBytes"), std::string::npos) << msg;
    EXPECT_EQ(e.where().file, "packed.pb");
  }
}

TEST(MemoryBudgetTest, TheSameInputLoadsUnderALargerBudgetOrNone) {
  std::string bytes = PackedInt64Graph(size_t{1} << 20);
  for (uint64_t budget : {uint64_t{64} << 20, uint64_t{0}}) {
    MemorySource source(bytes);
    TfLoadOptions options;
    options.max_memory_bytes = budget;
    auto model = TfModel::Load(&source, options);
    EXPECT_EQ(model->graph().node(0).attr().at("value").tensor().int64_val_size(), 1 << 20);
  }
}

TEST(MemoryBudgetTest, TextInputIsHeldToTheBudgetToo) {
  std::string text = "node { name: \"c\" attr { key: \"value\" value { tensor {";
  for (int i = 0; i < (1 << 20); ++i) text += " int64_val: 7";
  text += " } } } }\n";
  MemorySource source(text);
  Error e = LoadError(&source, uint64_t{4} << 20);
  EXPECT_EQ(e.code(), ErrorCode::kTooLarge) << e.what();
}

// While text is read, the wire bytes made of it so far are what it holds: a long string
// stops the read before the text's end, in memory or streamed.
TEST(MemoryBudgetTest, TextIsStoppedAsItsWireBytesGrow) {
  const std::string text = "node { name: \"" + std::string(size_t{24} << 20, 'x') + "\" }\n";
  MemorySource memory(text);
  testing::ChunkedSource chunks(text);
  for (ByteSource* source :
       {static_cast<ByteSource*>(&memory), static_cast<ByteSource*>(&chunks)}) {
    Error e = LoadError(source, uint64_t{4} << 20);
    EXPECT_EQ(e.code(), ErrorCode::kTooLarge) << e.what();
    const std::string msg = e.what();
    EXPECT_NE(msg.find("memory budget of 4194304 bytes"), std::string::npos) << msg;
    const size_t at = msg.find(" bytes held after reading ");
    ASSERT_NE(at, std::string::npos) << msg;
    EXPECT_LT(std::stoull(msg.substr(at + 26)), text.size()) << msg;
  }
}

TEST(MemoryBudgetTest, TheDefaultIsTheSameBoundAsProtobufsMessageSize) {
  EXPECT_EQ(TfLoadOptions().max_memory_bytes, uint64_t{2} << 30);
}

}  // namespace
}  // namespace graphport::tf

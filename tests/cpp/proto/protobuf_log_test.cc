// libprotobuf's log goes into graphport's errors, never to stderr (issue 11, fault 4).
#include "proto/protobuf_log.h"

#include <google/protobuf/stubs/logging.h>
#include <gtest/gtest.h>

#include "core/error.h"
#include "proto/proto_io.h"
#include "tensorflow/graph.pb.h"

namespace graphport::tf {
namespace {

namespace pb = google::protobuf;

std::vector<std::string>* seen_by_embedder = nullptr;
void EmbedderHandler(pb::LogLevel, const char*, int, const std::string& message) {
  if (seen_by_embedder != nullptr) seen_by_embedder->push_back(message);
}

TEST(ProtobufLogTest, ParseFaultsAreNamedInTheErrorAndNotPrinted) {
  // node { name: "\xff" }: well-formed wire bytes; libprotobuf logs the string's fault, which
  // must not reach stderr.
  const std::string bytes("\x0a\x03\x0a\x01\xff", 5);
  tensorflow::GraphDef graph;
  MemorySource source(bytes);
  ::testing::internal::CaptureStderr();
  std::string message;
  try {
    proto::ParseBinary(&source, &graph, "utf8.pb");
  } catch (const Error& e) {
    message = e.what();
  }
  std::string printed = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(printed, "");
  // The field, where it is and the byte, found in the bytes: libprotobuf-lite's log does not
  // name the field.
  EXPECT_NE(message.find("string field 'tensorflow.NodeDef.name' (node[0].name) is not valid "
                         "UTF-8 at byte 4"),
            std::string::npos)
      << message;
  // The handler names no source path of the machine that built libprotobuf.
  EXPECT_EQ(message.find(".cc"), std::string::npos) << message;
}

TEST(ProtobufLogTest, AnEmbeddersHandlerIsPutBackAfterTheCall) {
  std::vector<std::string> seen;
  seen_by_embedder = &seen;
  pb::LogHandler* original = pb::SetLogHandler(&EmbedderHandler);
  {
    proto::ProtobufLogCapture capture;
    GOOGLE_LOG(ERROR) << "inside";
    EXPECT_EQ(capture.errors().size(), 1u);
    {
      proto::ProtobufLogCapture nested;  // the innermost capture gets the message
      GOOGLE_LOG(ERROR) << "nested";
      EXPECT_EQ(nested.Summary(), "libprotobuf: nested");
    }
    EXPECT_EQ(capture.errors().size(), 1u);
  }
  GOOGLE_LOG(ERROR) << "outside";
  EXPECT_EQ(pb::SetLogHandler(original), &EmbedderHandler);
  seen_by_embedder = nullptr;
  EXPECT_EQ(seen, std::vector<std::string>{"outside"});
}

TEST(ProtobufLogTest, ManyErrorsAreCounted) {
  proto::ProtobufLogCapture capture;
  for (int i = 0; i < 250; ++i) GOOGLE_LOG(ERROR) << "e" << i;
  EXPECT_EQ(capture.errors().size(), proto::ProtobufLogCapture::kMaxKeptErrors);
  EXPECT_EQ(capture.error_count(), 250u);
  EXPECT_EQ(capture.Summary(), "libprotobuf: e0 (and 249 more)");
}

}  // namespace
}  // namespace graphport::tf

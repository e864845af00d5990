// Reading protobuf text format: graphport's schema-driven parser (proto/text_parse.h, text to
// wire bytes, then the generated lite class's parser) against libprotobuf's
// TextFormat::Parser, on one file. graphport's classes are lite and have no descriptors, so
// libprotobuf parses into a DynamicMessage of the same type, from the schemas' descriptor set
// (both set fields through reflection's offsets; the generated class would do the same).
//
//   graphport_text_parse_bench FILE [--type tensorflow.GraphDef] [--repeat N] [--wire-only]
//
// FILE is text, or binary (.pb, .meta): then it is first printed as text by libprotobuf.
// Both parse the same text from memory, in 1 MiB chunks, with the recursion limit of the
// project; the results must be the same message (checked), and only the time is compared.
// --wire-only times graphport's text to wire bytes alone (for a profiler).
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/message.h>
#include <google/protobuf/text_format.h>

#include <cstdio>
#include <string>

#include "bench/bench_util.h"
#include "core/limits.h"
#include "proto/deterministic_bytes.h"
#include "proto/text_parse.h"
#include "tensorflow/graph.pb.h"
#include "tensorflow/meta_graph.pb.h"
#include "tensorflow/op_def.pb.h"
#include "tensorflow/saved_model.pb.h"
#include "tensorflow/schemas.h"
#include "tests/cpp/reference_pool.h"

namespace graphport::bench {
namespace {

namespace pb = google::protobuf;

int Main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: graphport_text_parse_bench FILE [--type tensorflow.GraphDef] "
                 "[--repeat N]\n");
    return 2;
  }
  const std::string path = argv[1];
  std::string type_name = "tensorflow.GraphDef";
  int repeat = 3;
  bool wire_only = false;
  for (int i = 2; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--wire-only") {
      wire_only = true;
    } else if (flag == "--type" && i + 1 < argc) {
      type_name = argv[++i];
    } else if (flag == "--repeat" && i + 1 < argc) {
      repeat = std::atoi(argv[++i]);
    }
  }
  std::unique_ptr<pb::MessageLite> lite;
  if (type_name == "tensorflow.GraphDef") lite = std::make_unique<tensorflow::GraphDef>();
  if (type_name == "tensorflow.MetaGraphDef") lite = std::make_unique<tensorflow::MetaGraphDef>();
  if (type_name == "tensorflow.SavedModel") lite = std::make_unique<tensorflow::SavedModel>();
  if (type_name == "tensorflow.OpList") lite = std::make_unique<tensorflow::OpList>();
  const proto::MessageSchema* schema = tf::TfSchemas().Find(type_name);
  if (lite == nullptr || schema == nullptr) {
    std::fprintf(stderr, "no message type %s\n", type_name.c_str());
    return 2;
  }
  const testing::ReferencePool& pool = testing::ReferencePool::Tf();

  std::string text = ReadWholeFile(path);
  const bool binary = path.size() > 3 && (path.rfind(".pb") == path.size() - 3 ||
                                          path.rfind(".meta") == path.size() - 5);
  if (binary) {
    std::unique_ptr<pb::Message> message = pool.New(type_name);
    if (!message->ParseFromString(text)) {
      std::fprintf(stderr, "%s: not a binary %s\n", path.c_str(), type_name.c_str());
      return 1;
    }
    text.clear();
    pb::TextFormat::PrintToString(*message, &text);
  }
  std::printf("%s: %.1f MiB of text, as %s\n", path.c_str(), text.size() / kMiB, type_name.c_str());
  const int chunk = static_cast<int>(kStreamChunkBytes);

  std::string wire;
  size_t wire_size = 0;
  const double wire_ms = BestOf(repeat, [&] {
    pb::io::ArrayInputStream input(text.data(), static_cast<int>(text.size()), chunk);
    proto::TextParseError error;
    if (!proto::TextToWire(&input, *schema, &wire, &error)) {
      std::fprintf(stderr, "%d:%d: %s\n", error.line, error.column, error.message.c_str());
      std::exit(1);
    }
    wire_size = wire.size();
    std::string().swap(wire);
  });
  if (wire_only) {
    std::printf("  %-34s %9.1f ms %8.1f MB/s\n", "graphport text to wire", wire_ms,
                text.size() / 1e6 / (wire_ms / 1e3));
    return 0;
  }

  std::unique_ptr<pb::Message> message;
  std::unique_ptr<pb::MessageLite> ours;
  // The message of the run before is freed outside the time measured.
  auto best_parse = [&](const std::function<void()>& parse) {
    double best = 1e300;
    for (int i = 0; i < repeat; ++i) {
      message = pool.New(type_name);
      ours.reset(lite->New());
      best = std::min(best, TimeOnce(parse));
    }
    return best;
  };
  const double reference_ms = best_parse([&] {
    pb::io::ArrayInputStream input(text.data(), static_cast<int>(text.size()), chunk);
    pb::TextFormat::Parser parser;
    parser.SetRecursionLimit(kMaxProtoNesting);
    if (!parser.Parse(&input, message.get())) std::exit(1);
  });
  const std::string reference_bytes = proto::DeterministicBytes(*message);

  const double ours_ms = best_parse([&] {
    pb::io::ArrayInputStream input(text.data(), static_cast<int>(text.size()), chunk);
    proto::TextParseError error;
    std::string bytes;
    if (!proto::TextToWire(&input, *schema, &bytes, &error) || !ours->ParseFromString(bytes)) {
      std::exit(1);
    }
  });
  if (proto::DeterministicBytes(*ours) != reference_bytes) {
    std::fprintf(stderr, "the two parsers disagree\n");
    return 1;
  }

  const double mb = text.size() / 1e6;
  std::printf("  %-34s %9.1f ms %8.1f MB/s\n", "libprotobuf TextFormat::Parser", reference_ms,
              mb / (reference_ms / 1e3));
  std::printf("  %-34s %9.1f ms %8.1f MB/s  %.2fx libprotobuf (%.1f MiB of wire bytes)\n",
              "graphport text to wire", wire_ms, mb / (wire_ms / 1e3), wire_ms / reference_ms,
              wire_size / kMiB);
  std::printf("  %-34s %9.1f ms %8.1f MB/s  %.2fx libprotobuf\n",
              "graphport text to wire to message", ours_ms, mb / (ours_ms / 1e3),
              ours_ms / reference_ms);
  return 0;
}

}  // namespace
}  // namespace graphport::bench

int main(int argc, char** argv) { return graphport::bench::Main(argc, argv); }

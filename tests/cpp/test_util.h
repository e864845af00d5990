// Shared helpers for graphport's GoogleTest suite: finding and reading the corpus, byte
// sources that behave like a stream, running protoc, and comparing messages.
#ifndef GRAPHPORT_TESTS_CPP_TEST_UTIL_H_
#define GRAPHPORT_TESTS_CPP_TEST_UTIL_H_

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/message.h>
#include <google/protobuf/message_lite.h>
#include <google/protobuf/text_format.h>
#include <google/protobuf/unknown_field_set.h>
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/byte_stream.h"
#include "core/error.h"
#include "reference_pool.h"
#include "tensorflow/graph.pb.h"
#include "tensorflow/meta_graph.pb.h"
#include "tensorflow/saved_model.pb.h"
#include "tf/tf_format.h"
#include "tf/tf_model.h"

#ifndef GRAPHPORT_CORPUS_DIR
#error "GRAPHPORT_CORPUS_DIR must be defined by tests/cpp/CMakeLists.txt"
#endif

namespace graphport::testing {

namespace fs = std::filesystem;

inline fs::path CorpusDir() { return fs::path(GRAPHPORT_CORPUS_DIR); }

// The message every corpus-dependent test fails with when the corpus is not where CI puts it.
inline std::string MissingCorpusMessage() {
  return "the shared corpus was not found at " + CorpusDir().string() +
         " (it must sit beside the clone as ../shared/corpus); corpus tests fail, never skip";
}

inline bool CorpusPresent() { return fs::is_directory(CorpusDir() / "tf"); }

// A TensorFlow graph of the corpus and the kind detection must find for it.
struct CorpusGraph {
  std::string relative;  // path under the corpus directory
  tf::TfKind kind = tf::TfKind::kGraphDef;
  fs::path path() const { return CorpusDir() / relative; }
};

// GoogleTest prints parameters with this; keeps failure output readable.
inline void PrintTo(const CorpusGraph& g, std::ostream* os) { *os << g.relative; }

// Every saved_model.pb and *.meta under corpus/tf, plus the frozen GraphDef of the tfjs
// corpus. When the corpus is missing the list holds one entry that cannot be read, so each
// parameterized test fails with MissingCorpusMessage() instead of silently running nothing.
inline std::vector<CorpusGraph> CorpusGraphs() {
  std::vector<CorpusGraph> out;
  if (!CorpusPresent()) {
    out.push_back({"missing-corpus", tf::TfKind::kGraphDef});
    return out;
  }
  for (const auto& entry : fs::recursive_directory_iterator(CorpusDir() / "tf")) {
    if (!entry.is_regular_file()) continue;
    std::string name = entry.path().filename().string();
    std::string rel = fs::relative(entry.path(), CorpusDir()).generic_string();
    if (name == "saved_model.pb") out.push_back({rel, tf::TfKind::kSavedModel});
    if (entry.path().extension() == ".meta") out.push_back({rel, tf::TfKind::kMetaGraphDef});
  }
  out.push_back({"tfjs/tfjs-to-tf/simple/frozen_graph.pb", tf::TfKind::kGraphDef});
  std::sort(out.begin(), out.end(),
            [](const CorpusGraph& a, const CorpusGraph& b) { return a.relative < b.relative; });
  return out;
}

// A test name from a corpus path: "serving_..._00000123_saved_model_pb".
inline std::string CorpusTestName(const ::testing::TestParamInfo<CorpusGraph>& info) {
  std::string rel = info.param.relative;
  for (const char* prefix : {"tf/serving/servables/tensorflow/testdata/", "tf/serving/"}) {
    if (rel.rfind(prefix, 0) == 0) {
      rel = rel.substr(std::strlen(prefix));
      break;
    }
  }
  std::string name;
  for (char c : rel) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

// A string's bytes as the wire readers take them.
inline const uint8_t* Data(const std::string& bytes) {
  return reinterpret_cast<const uint8_t*>(bytes.data());
}

inline std::set<std::string> AsSet(const std::vector<std::string>& v) {
  return {v.begin(), v.end()};
}

// A binary GraphDef loaded as such (no detection).
inline std::unique_ptr<tf::TfModel> LoadGraphDefBinary(const std::string& bytes) {
  MemorySource source(bytes);
  tf::TfLoadOptions options;
  options.format = "graph-def-binary";
  return tf::TfModel::Load(&source, options);
}

// Everything a byte source gives, read `chunk` bytes at a time (a small chunk exercises the
// source's short reads).
inline std::string ReadAll(ByteSource* source, size_t chunk = 1000) {
  std::string out;
  std::vector<uint8_t> buffer(chunk);
  size_t n;
  while ((n = source->Read(buffer.data(), buffer.size())) > 0) {
    out.append(reinterpret_cast<const char*>(buffer.data()), n);
  }
  return out;
}

// Reads a file whole. Throws std::runtime_error with a clear message (so the test fails)
// when it cannot be read.
inline std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw std::runtime_error(CorpusPresent() ? "cannot read " + path.string()
                                             : MissingCorpusMessage());
  }
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline std::string ReadCorpus(const std::string& relative) {
  return ReadFile(CorpusDir() / relative);
}

inline constexpr char kKerasMetadata[] =
    "tf/serving/servables/tensorflow/testdata/tf_text_regression/01/keras_metadata.pb";
inline constexpr char kSessionBundleMeta[] =
    "tf/serving/session_bundle/testdata/half_plus_two/00000123/export.meta";
inline constexpr char kBadHalfPlusTwoMeta[] =
    "tf/serving/servables/tensorflow/testdata/bad_half_plus_two/00000123/export.meta";
inline constexpr char kFrozenGraph[] = "tfjs/tfjs-to-tf/simple/frozen_graph.pb";
inline constexpr char kTf2CpuSavedModel[] =
    "tf/serving/servables/tensorflow/testdata/saved_model_half_plus_two_tf2_cpu/00000123/"
    "saved_model.pb";
inline constexpr char kMatrixSavedModel[] =
    "tf/serving/batching/testdata/matrix_half_plus_two/1/saved_model.pb";

// A fresh, empty message of the root type of `kind`.
inline std::unique_ptr<google::protobuf::MessageLite> NewRoot(tf::TfKind kind) {
  switch (kind) {
    case tf::TfKind::kSavedModel:
      return std::make_unique<tensorflow::SavedModel>();
    case tf::TfKind::kMetaGraphDef:
      return std::make_unique<tensorflow::MetaGraphDef>();
    case tf::TfKind::kGraphDef:
      break;
  }
  return std::make_unique<tensorflow::GraphDef>();
}

// The reference parse: plain libprotobuf, none of graphport's code.
inline std::unique_ptr<google::protobuf::MessageLite> ReferenceParse(tf::TfKind kind,
                                                                     const std::string& bytes) {
  auto message = NewRoot(kind);
  if (!message->ParseFromString(bytes)) return nullptr;
  return message;
}

// The GraphDef inside a root of `kind` (a SavedModel's first MetaGraphDef's).
inline const tensorflow::GraphDef& GraphOf(tf::TfKind kind,
                                           const google::protobuf::MessageLite& root) {
  switch (kind) {
    case tf::TfKind::kMetaGraphDef:
      return static_cast<const tensorflow::MetaGraphDef&>(root).graph_def();
    case tf::TfKind::kSavedModel:
      return static_cast<const tensorflow::SavedModel&>(root).meta_graphs(0).graph_def();
    default:
      return static_cast<const tensorflow::GraphDef&>(root);
  }
}

// libprotobuf's deterministic serialisation (map entries sorted by key), as TensorFlow and
// graphport write messages.
inline std::string DeterministicBytes(const google::protobuf::MessageLite& m) {
  std::string out;
  {
    google::protobuf::io::StringOutputStream stream(&out);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    m.SerializeToCodedStream(&coded);
  }
  return out;
}

// graphport's message classes are lite. What needs libprotobuf's full runtime (text format as
// the reference, differences field by field, unknown fields one by one) goes through a
// DynamicMessage of the same type and bytes, from the schemas' descriptor set.
inline const ReferencePool& PoolFor([[maybe_unused]] const std::string& type) {
#ifdef GRAPHPORT_TEST_DESCRIPTOR_SET
  if (type.rfind("graphport.test.", 0) == 0) return ReferencePool::Test();
#endif
  return ReferencePool::Tf();
}

inline std::unique_ptr<google::protobuf::Message> ReferenceCopy(
    const google::protobuf::MessageLite& message) {
  const std::string type = message.GetTypeName();
  return PoolFor(type).New(type, message.SerializeAsString());
}

// The message in text format (libprotobuf's printer), for expected values and failure
// messages.
inline std::string ReferenceText(const google::protobuf::MessageLite& message) {
  std::string text;
  google::protobuf::TextFormat::PrintToString(*ReferenceCopy(message), &text);
  return text;
}

// The same on one line.
inline std::string ShortText(const google::protobuf::MessageLite& message) {
  return ReferenceCopy(message)->ShortDebugString();
}

// Reads text format with libprotobuf's own parser into `message` (of a generated class):
// how tests write their inputs, independently of graphport's text parser. False when
// libprotobuf refuses the text.
inline bool ParseTextReference(const std::string& text, google::protobuf::MessageLite* message) {
  const std::string type = message->GetTypeName();
  auto dynamic = PoolFor(type).New(type);
  if (!google::protobuf::TextFormat::ParseFromString(text, dynamic.get())) return false;
  return message->ParseFromString(dynamic->SerializeAsString());
}

template <typename Message>
Message FromText(const std::string& text) {
  Message message;
  if (!ParseTextReference(text, &message)) {
    throw std::runtime_error("libprotobuf cannot read the test's text as " + message.GetTypeName() +
                             ":\n" + text);
  }
  return message;
}

// Unknown fields made as a newer schema's writer would leave them: records appended to the
// message's bytes, which the parse keeps as unknown fields of its top level.
inline void AddUnknownVarint(google::protobuf::MessageLite* message, int number, uint64_t value) {
  std::string record;
  {
    google::protobuf::io::StringOutputStream stream(&record);
    google::protobuf::io::CodedOutputStream out(&stream);
    out.WriteTag(static_cast<uint32_t>(number) << 3);
    out.WriteVarint64(value);
  }
  if (!message->MergeFromString(record)) throw std::runtime_error("cannot add a varint field");
}

inline void AddUnknownLengthDelimited(google::protobuf::MessageLite* message, int number,
                                      const std::string& value) {
  std::string record;
  {
    google::protobuf::io::StringOutputStream stream(&record);
    google::protobuf::io::CodedOutputStream out(&stream);
    out.WriteTag((static_cast<uint32_t>(number) << 3) | 2);
    out.WriteVarint32(static_cast<uint32_t>(value.size()));
    out.WriteString(value);
  }
  if (!message->MergeFromString(record)) throw std::runtime_error("cannot add a bytes field");
}

// How many unknown fields the message's top level holds.
inline int UnknownFieldCount(const google::protobuf::MessageLite& message) {
  auto reference = ReferenceCopy(message);
  return reference->GetReflection()->GetUnknownFields(*reference).field_count();
}

inline ::testing::AssertionResult MessagesEqual(const google::protobuf::MessageLite& expected,
                                                const google::protobuf::MessageLite& actual) {
  if (expected.GetTypeName() != actual.GetTypeName()) {
    return ::testing::AssertionFailure()
           << "a " << expected.GetTypeName() << " and a " << actual.GetTypeName();
  }
  std::string report;
  google::protobuf::util::MessageDifferencer differencer;
  differencer.ReportDifferencesToString(&report);
  if (differencer.Compare(*ReferenceCopy(expected), *ReferenceCopy(actual))) {
    return ::testing::AssertionSuccess();
  }
  if (report.size() > 2000) report = report.substr(0, 2000) + "...";
  return ::testing::AssertionFailure() << "messages differ:\n" << report;
}

// A GraphDef with one node whose attr "deep" nests `levels` AttrValues, each inside the
// previous one's list { func { attr { key: "f" value: ... } } }: four message levels per step.
inline tensorflow::GraphDef DeeplyNestedGraph(int levels) {
  tensorflow::AttrValue value;
  value.set_s("bottom");
  for (int i = 1; i < levels; ++i) {
    tensorflow::AttrValue outer;
    tensorflow::NameAttrList* func = outer.mutable_list()->add_func();
    func->set_name("f" + std::to_string(i));
    (*func->mutable_attr())["f"] = std::move(value);
    value = std::move(outer);
  }
  tensorflow::GraphDef graph;
  tensorflow::NodeDef* node = graph.add_node();
  node->set_name("deep");
  node->set_op("NoOp");
  (*node->mutable_attr())["deep"] = std::move(value);
  return graph;
}

// A source that behaves like a pipe: not contiguous, no size known in advance, cannot rewind,
// and hands out small chunks of odd, varying sizes.
class ChunkedSource : public ByteSource {
 public:
  explicit ChunkedSource(std::string bytes) : bytes_(std::move(bytes)) {}
  size_t Read(uint8_t* dst, size_t max) override {
    static constexpr size_t kSizes[] = {1, 7, 3, 61, 13, 509, 5, 127};
    size_t want = kSizes[reads_++ % (sizeof(kSizes) / sizeof(kSizes[0]))];
    size_t n = std::min({max, want, bytes_.size() - offset_});
    std::memcpy(dst, bytes_.data() + offset_, n);
    offset_ += n;
    return n;
  }
  size_t reads() const { return reads_; }

 private:
  std::string bytes_;
  size_t offset_ = 0;
  size_t reads_ = 0;
};

// Like ChunkedSource, but it can start again (a file descriptor that can seek).
class RewindableChunkedSource : public ChunkedSource {
 public:
  explicit RewindableChunkedSource(std::string bytes)
      : ChunkedSource(bytes), bytes_(std::move(bytes)) {}
  bool Rewind() override {
    static_cast<ChunkedSource&>(*this) = ChunkedSource(bytes_);
    ++rewinds_;
    return true;
  }
  int rewinds() const { return rewinds_; }

 private:
  std::string bytes_;
  int rewinds_ = 0;
};

// Runs a shell command and returns what it printed on stdout; `status` gets its exit status.
inline std::string RunCommand(const std::string& command, int* status) {
  std::string out;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) {
    *status = -1;
    return out;
  }
  char buffer[65536];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof(buffer), pipe)) > 0) out.append(buffer, n);
  *status = pclose(pipe);
  return out;
}

inline std::string ShellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

// A temporary file removed when the object dies.
class TempFile {
 public:
  explicit TempFile(const std::string& bytes) {
    std::string pattern = (fs::temp_directory_path() / "graphport_test_XXXXXX").string();
    std::vector<char> name(pattern.begin(), pattern.end());
    name.push_back('\0');
    int fd = mkstemp(name.data());
    if (fd < 0) throw std::runtime_error("mkstemp failed");
    path_ = name.data();
    FILE* f = fdopen(fd, "wb");
    if (f == nullptr || std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size() ||
        std::fclose(f) != 0) {
      throw std::runtime_error("cannot write " + path_.string());
    }
  }
  ~TempFile() {
    std::error_code ignored;
    fs::remove(path_, ignored);
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// The schema file that defines the root message of `kind`.
inline const char* SchemaFile(tf::TfKind kind) {
  switch (kind) {
    case tf::TfKind::kSavedModel:
      return "tensorflow/saved_model.proto";
    case tf::TfKind::kMetaGraphDef:
      return "tensorflow/meta_graph.proto";
    case tf::TfKind::kGraphDef:
      break;
  }
  return "tensorflow/graph.proto";
}

// What Debian's `protoc --decode=tensorflow.<Root>` prints for the file `input`, with the
// project's .proto files. Fails the calling test when protoc fails.
inline std::optional<std::string> ProtocDecode(tf::TfKind kind, const fs::path& input,
                                               std::string* error) {
  TempFile stderr_file("");
  std::string command = ShellQuote(GRAPHPORT_PROTOC) + " --decode=tensorflow." +
                        tf::MessageName(kind) + " -I " + ShellQuote(GRAPHPORT_PROTO_DIR) + " -I " +
                        ShellQuote(GRAPHPORT_PROTO_STD_INCLUDE) + " " + SchemaFile(kind) + " < " +
                        ShellQuote(input.string()) + " 2> " +
                        ShellQuote(stderr_file.path().string());
  int status = 0;
  std::string out = RunCommand(command, &status);
  if (status != 0) {
    *error = "`" + command + "` exited with status " + std::to_string(status) + ":\n" +
             ReadFile(stderr_file.path());
    return std::nullopt;
  }
  return out;
}

// Top-level field boundaries of protobuf wire bytes (offsets where a field starts, plus the
// end), found by a minimal wire walk written here independently of graphport's scanner.
// Returns an empty list when the bytes are not a well-formed top-level field sequence.
inline std::vector<size_t> TopLevelFieldBoundaries(std::string_view bytes) {
  auto varint = [&](size_t* pos, uint64_t* value) {
    *value = 0;
    for (int shift = 0; shift < 64 && *pos < bytes.size(); shift += 7) {
      uint8_t b = static_cast<uint8_t>(bytes[(*pos)++]);
      *value |= uint64_t{b & 0x7Fu} << shift;
      if (!(b & 0x80)) return true;
    }
    return false;
  };
  std::vector<size_t> out;
  size_t pos = 0;
  while (pos < bytes.size()) {
    out.push_back(pos);
    uint64_t tag, v;
    if (!varint(&pos, &tag)) return {};
    switch (tag & 7) {
      case 0:
        if (!varint(&pos, &v)) return {};
        break;
      case 1:
        pos += 8;
        break;
      case 5:
        pos += 4;
        break;
      case 2:
        if (!varint(&pos, &v) || v > bytes.size() - pos) return {};
        pos += v;
        break;
      default:
        return {};
    }
    if (pos > bytes.size()) return {};
  }
  out.push_back(bytes.size());
  return out;
}

// The first number after "at byte " in an error message, if any.
inline std::optional<uint64_t> ByteOffsetIn(const std::string& message) {
  for (const char* marker : {"at byte ", "within the first "}) {
    size_t at = message.find(marker);
    if (at == std::string::npos) continue;
    at += std::strlen(marker);
    size_t end = at;
    while (end < message.size() && std::isdigit(static_cast<unsigned char>(message[end]))) ++end;
    if (end > at) return std::stoull(message.substr(at, end - at));
  }
  return std::nullopt;
}

}  // namespace graphport::testing

#endif  // GRAPHPORT_TESTS_CPP_TEST_UTIL_H_

#include "text_parse_reference.h"

#include <google/protobuf/dynamic_message.h>
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/text_format.h>

#include <algorithm>
#include <map>
#include <memory>

#include "core/limits.h"
#include "proto/protobuf_log.h"
#include "proto/text_parse.h"
#include "tensorflow/schemas.h"
#include "test_util.h"
#include "text_test/schemas.h"

namespace graphport::proto::text_parse_testing {

const ReferencePool& TestPool() {
  static const ReferencePool* pool = new ReferencePool(GRAPHPORT_TEXT_TEST_DESCRIPTOR_SET);
  return *pool;
}

namespace {

// `text` in chunks of the given sizes, cycled ({1}: a byte at a time); BackUp as the
// interface wants it.
class ChunkStream : public pb::io::ZeroCopyInputStream {
 public:
  ChunkStream(std::string_view text, std::vector<int> sizes)
      : text_(text), sizes_(std::move(sizes)) {}
  bool Next(const void** data, int* size) override {
    if (position_ >= text_.size()) return false;
    const size_t want = static_cast<size_t>(sizes_[calls_++ % sizes_.size()]);
    last_ = std::min(want, text_.size() - position_);
    *data = text_.data() + position_;
    *size = static_cast<int>(last_);
    position_ += last_;
    return true;
  }
  void BackUp(int count) override {
    EXPECT_LE(static_cast<size_t>(count), last_);
    position_ -= static_cast<size_t>(count);
    last_ = 0;
  }
  bool Skip(int count) override {
    position_ = std::min(text_.size(), position_ + static_cast<size_t>(count));
    return position_ < text_.size();
  }
  int64_t ByteCount() const override { return static_cast<int64_t>(position_); }

 private:
  std::string_view text_;
  std::vector<int> sizes_;
  size_t position_ = 0;
  size_t last_ = 0;
  size_t calls_ = 0;
};

class FirstError : public pb::io::ErrorCollector {
 public:
  void AddError(int line, int column, const std::string& message) override {
    if (seen_) return;
    seen_ = true;
    line_ = line;
    column_ = column;
    message_ = message;
  }
  bool seen_ = false;
  int line_ = 0;
  int column_ = 0;
  std::string message_;
};

// The value of every Any in deterministic form, recursively (map entries sorted), where it
// parses: what TensorFlow wrote in a binary file has its map entries in hash order, what
// libprotobuf's text parser writes has them in the text's order.
void SettleAnys(pb::Message* message) {
  const pb::Descriptor* type = message->GetDescriptor();
  const pb::Reflection* reflection = message->GetReflection();
  if (type->full_name() == "google.protobuf.Any") {
    const std::string url = reflection->GetString(*message, type->FindFieldByNumber(1));
    const pb::Descriptor* value_type =
        type->file()->pool()->FindMessageTypeByName(url.substr(url.rfind('/') + 1));
    if (value_type == nullptr) return;
    // One factory per pool for the whole run: a factory builds each type's layout once.
    static auto* factories =
        new std::map<const pb::DescriptorPool*, std::unique_ptr<pb::DynamicMessageFactory>>();
    std::unique_ptr<pb::DynamicMessageFactory>& factory = (*factories)[value_type->file()->pool()];
    if (factory == nullptr) factory = std::make_unique<pb::DynamicMessageFactory>();
    std::unique_ptr<pb::Message> value(factory->GetPrototype(value_type)->New());
    if (!value->ParseFromString(reflection->GetString(*message, type->FindFieldByNumber(2)))) {
      return;
    }
    SettleAnys(value.get());
    reflection->SetString(message, type->FindFieldByNumber(2), testing::DeterministicBytes(*value));
    return;
  }
  std::vector<const pb::FieldDescriptor*> fields;
  reflection->ListFields(*message, &fields);
  for (const pb::FieldDescriptor* field : fields) {
    if (field->cpp_type() != pb::FieldDescriptor::CPPTYPE_MESSAGE) continue;
    if (!field->is_repeated()) {
      SettleAnys(reflection->MutableMessage(message, field));
      continue;
    }
    for (int i = 0; i < reflection->FieldSize(*message, field); ++i) {
      SettleAnys(reflection->MutableRepeatedMessage(message, field, i));
    }
  }
}

// Whether libprotobuf logged a proto3 string that is not UTF-8 (its text parser takes one,
// then logs it when it serializes an Any's value or when the message is parsed back).
bool LoggedBadUtf8(const ProtobufLogCapture& log) {
  for (const std::string& error : log.errors()) {
    if (error.find("invalid UTF-8") != std::string::npos) return true;
  }
  return false;
}

const ReferencePool& PoolOf(const std::string& type) {
  return type.rfind("tensorflow.", 0) == 0 ? ReferencePool::Tf() : TestPool();
}
const SchemaSet& SetOf(const std::string& type) {
  return type.rfind("tensorflow.", 0) == 0 ? tf::TfSchemas() : testing::TextTestSchemas();
}

}  // namespace

std::ostream& operator<<(std::ostream& os, const Outcome& o) {
  if (o.ok) return os << "accepted (" << o.bytes.size() << " bytes)";
  return os << "refused at " << o.line << ":" << o.column << ": " << o.message;
}

std::optional<std::string> Normalized(const pb::Message& message, bool settle_anys) {
  std::unique_ptr<pb::Message> copy(message.New());
  if (!copy->ParseFromString(message.SerializePartialAsString())) return std::nullopt;
  if (settle_anys) SettleAnys(copy.get());
  return testing::DeterministicBytes(*copy);
}

Outcome Reference(const std::string& type, std::string_view text) {
  std::unique_ptr<pb::Message> message = PoolOf(type).New(type);
  pb::TextFormat::Parser parser;
  FirstError errors;
  parser.RecordErrorsTo(&errors);
  parser.SetRecursionLimit(kMaxProtoNesting);
  pb::io::ArrayInputStream input(text.data(), static_cast<int>(text.size()));
  Outcome out;
  ProtobufLogCapture log;
  out.ok = parser.Parse(&input, message.get());
  if (out.ok) {
    out.bytes = Normalized(*message).value_or("");
    out.bad_utf8 = LoggedBadUtf8(log);
  } else {
    out.line = errors.line_ + 1;
    out.column = errors.column_ + 1;
    out.message = errors.message_;
  }
  return out;
}

Outcome Ours(const std::string& type, std::string_view text, std::vector<int> chunks,
             std::string* wire_out) {
  const MessageSchema* schema = SetOf(type).Find(type);
  EXPECT_NE(schema, nullptr) << type;
  std::unique_ptr<pb::io::ZeroCopyInputStream> input;
  if (chunks.empty()) {
    input = std::make_unique<pb::io::ArrayInputStream>(text.data(), static_cast<int>(text.size()));
  } else {
    input = std::make_unique<ChunkStream>(text, chunks);
  }
  std::string wire = "left over";
  TextParseError error;
  Outcome out;
  out.ok = TextToWire(input.get(), *schema, &wire, &error);
  if (out.ok) {
    std::unique_ptr<pb::Message> message = PoolOf(type).New(type);
    EXPECT_TRUE(message->ParseFromString(wire)) << "the wire bytes do not parse";
    std::optional<std::string> bytes = Normalized(*message);
    EXPECT_TRUE(bytes.has_value()) << "a string is not UTF-8";
    out.bytes = bytes.value_or("");
    if (wire_out != nullptr) *wire_out = std::move(wire);
  } else {
    out.line = error.line;
    out.column = error.column;
    out.message = error.message;
  }
  return out;
}

::testing::AssertionResult Same(const Outcome& want, const Outcome& got) {
  if (want.ok != got.ok) {
    return ::testing::AssertionFailure() << "libprotobuf: " << want << "\n      ours: " << got;
  }
  if (want.ok && want.bytes != got.bytes) {
    return ::testing::AssertionFailure()
           << "both accepted, different messages (" << want.bytes.size() << " and "
           << got.bytes.size() << " bytes)";
  }
  if (!want.ok &&
      (want.line != got.line || want.column != got.column || want.message != got.message)) {
    return ::testing::AssertionFailure() << "libprotobuf: " << want << "\n      ours: " << got;
  }
  return ::testing::AssertionSuccess();
}

void ExpectLikeLibprotobuf(const std::string& type, std::string_view text) {
  const Outcome want = Reference(type, text);
  EXPECT_TRUE(Same(want, Ours(type, text))) << type << " <<" << text << ">>";
  EXPECT_TRUE(Same(want, Ours(type, text, {1})))
      << "byte by byte: " << type << " <<" << text << ">>";
  EXPECT_TRUE(Same(want, Ours(type, text, {3, 1, 7, 2, 64, 5})))
      << "in chunks: " << type << " <<" << text << ">>";
}

std::string AnyOf(const std::string& url, const std::string& body) {
  return "any { [" + url + "] " + body + " }";
}
const std::string kEveryUrl = "type.googleapis.com/graphport.text_test.EveryField";

}  // namespace graphport::proto::text_parse_testing

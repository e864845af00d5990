// The TensorFlow reader: TfModel::Load detects the kind and encoding of one GraphDef,
// MetaGraphDef or SavedModel, parses it under the memory budget and selects the MetaGraphDef
// the tags name. TfModel::Build is the door for readers that make a graph in memory (TF.js).
#include <algorithm>
#include <set>

#include "core/error.h"
#include "core/limits.h"
#include "core/message_text.h"
#include "core/resize_for_overwrite.h"
#include "core/strings.h"
#include "proto/graph_arena.h"
#include "proto/proto_io.h"
#include "tensorflow/schemas.h"
#include "tf/detect.h"
#include "tf/tf_model.h"
#include "tf/wire_nested.h"

namespace graphport::tf {
namespace {

using google::protobuf::Arena;

// Counts the bytes that pass through, so inspect() can report the input size of a stream.
class CountingSource : public ByteSource {
 public:
  explicit CountingSource(ByteSource* inner) : inner_(inner) {}
  size_t Read(uint8_t* dst, size_t max) override {
    size_t n = inner_->Read(dst, max);
    count_ += n;
    return n;
  }
  bool SizeHint(uint64_t* size) const override { return inner_->SizeHint(size); }
  bool Contiguous(std::string_view* bytes) const override { return inner_->Contiguous(bytes); }
  bool Rewind() override { return inner_->Rewind(); }
  uint64_t count() const { return count_; }

 private:
  ByteSource* inner_;
  uint64_t count_ = 0;
};

std::string JoinTags(const google::protobuf::RepeatedPtrField<std::string>& tags) {
  return "[" + JoinForMessage(std::vector<std::string>(tags.begin(), tags.end()), ", ") + "]";
}

// The largest binary GraphDef held whole to index its nodes. A larger one is parsed as it
// streams in (its weights, not its nodes, make it large): holding it would need a buffer of
// the size the source declares, which a source may get wrong, and which a WebAssembly heap
// never gives back.
constexpr uint64_t kMaxHeldGraphBytes = uint64_t{256} << 20;

// The most of a binary input held whole: the cap above, or the caller's memory budget.
uint64_t HoldAtMost(const TfLoadOptions& options) {
  return options.max_memory_bytes > 0 ? std::min(options.max_memory_bytes, kMaxHeldGraphBytes)
                                      : kMaxHeldGraphBytes;
}

}  // namespace

TfModel::TfModel() : arena_(proto::GraphArenaOptions()) {}

std::unique_ptr<TfModel> TfModel::Load(ByteSource* raw_source, const TfLoadOptions& options) {
  std::unique_ptr<TfModel> model(new TfModel());
  CountingSource source(raw_source);

  // Detection looks at a prefix; a contiguous source lends it for free, a stream is read
  // into a buffer that is then replayed in front of the rest.
  std::string_view contiguous;
  bool in_memory = source.Contiguous(&contiguous);
  std::string prefix_buffer;
  std::string_view prefix;
  bool complete;
  if (in_memory) {
    prefix = contiguous.substr(0, kDetectionPrefixBytes);
    complete = contiguous.size() <= kDetectionPrefixBytes;
  } else {
    // Read into the buffer a binary graph is then held in, sized once from the declared
    // size: the prefix is neither copied again nor left as a hole in a WebAssembly heap that
    // never shrinks.
    uint64_t size = 0;
    if (source.SizeHint(&size) && size <= HoldAtMost(options)) prefix_buffer.reserve(size);
    AppendPrefix(&source, kDetectionPrefixBytes, &prefix_buffer);
    prefix = prefix_buffer;
    complete = prefix_buffer.size() < kDetectionPrefixBytes;
  }
  if (prefix.empty()) throw Error(ErrorCode::kEmptyInput, options.name + ": the input is empty");

  std::string format = options.format.empty() ? "auto" : options.format;
  if (format == "auto") {
    TfDetection detection = DetectTf(prefix, complete);
    if (!detection.found) {
      throw Error(ErrorCode::kUnknownFormat,
                  options.name + ": not a TensorFlow GraphDef, MetaGraphDef or SavedModel (" +
                      detection.reason + ")");
    }
    model->format_ = detection.format;
    model->detection_reason_ = detection.reason;
  } else {
    std::string kind_name = format;
    int encoding = -1;  // -1 detect, 0 binary, 1 text
    if (EndsWith(format, "-text")) {
      kind_name = format.substr(0, format.size() - 5);
      encoding = 1;
    } else if (EndsWith(format, "-binary")) {
      kind_name = format.substr(0, format.size() - 7);
      encoding = 0;
    }
    TfKind kind;
    if (!ParseKindName(kind_name, &kind)) {
      throw Error(ErrorCode::kInvalidOption,
                  "unknown format '" + CapForMessage(format) +
                      "': use auto, graph-def, meta-graph or saved-model, optionally with "
                      "-text or -binary");
    }
    model->format_ = encoding < 0 ? DetectEncoding(kind, prefix) : TfFormat{kind, encoding == 1};
    model->detection_reason_ =
        options.detection_reason.empty() ? "format given by the caller" : options.detection_reason;
  }

  google::protobuf::MessageLite* root;
  const proto::MessageSchema& root_type = KindSchema(model->format_.kind);
  Arena* arena = &model->arena_;
  switch (model->format_.kind) {
    case TfKind::kSavedModel:
      root = model->saved_model_ = Arena::CreateMessage<tensorflow::SavedModel>(arena);
      break;
    case TfKind::kMetaGraphDef:
      root = model->meta_graph_ = Arena::CreateMessage<tensorflow::MetaGraphDef>(arena);
      break;
    case TfKind::kGraphDef:
    default:
      root = model->graph_ = Arena::CreateMessage<tensorflow::GraphDef>(arena);
      break;
  }

  // A stream's first bytes, read for detection, come first.
  std::unique_ptr<PrefixedSource> replay;
  ByteSource* input = &source;
  proto::MemoryBudget budget{arena, options.max_memory_bytes};
  const proto::MemoryBudget* watch = options.max_memory_bytes > 0 ? &budget : nullptr;
  model->name_ = options.name;
  model->max_memory_bytes_ = options.max_memory_bytes;
  // A binary graph keeps its nodes as its own bytes (tf/wire_graph.h): a GraphDef's, or the
  // one GraphDef of a MetaGraphDef or SavedModel, whose other fields are parsed. What the
  // index cannot vouch for is parsed as any other input is, which gives the exact error.
  std::string held;
  std::unique_ptr<ByteSource> held_source;
  if (!model->format_.text) {
    const uint64_t hold_at_most = HoldAtMost(options);
    held = std::move(prefix_buffer);  // a stream's first bytes; the rest is read after them
    if (ReadWhole(input, hold_at_most, &held)) {
      if (model->format_.kind == TfKind::kGraphDef) {
        model->wire_ = WireGraph::Index(&held, options.max_memory_bytes, arena);
        if (model->wire_ != nullptr) model->graph_ = nullptr;
      } else {
        model->wire_ = model->IndexNestedGraph(&held, root, watch);
      }
      if (model->wire_ != nullptr) {
        model->input_bytes_ = model->wire_->bytes().size();
        model->Select(options);
        return model;
      }
      held_source = std::make_unique<MemorySource>(held);
    } else {
      // Too large to hold: the parse goes on from where the reading stopped.
      held_source = std::make_unique<PrefixedSource>(std::move(held), input);
    }
    input = held_source.get();
  } else if (!in_memory) {
    prefix_buffer.shrink_to_fit();  // text is parsed as it streams: no room for all of it
    replay = std::make_unique<PrefixedSource>(std::move(prefix_buffer), &source);
    input = replay.get();
  }
  if (model->format_.text) {
    proto::ParseText(input, root, root_type, options.name, watch);
  } else {
    proto::ParseBinary(input, root, root_type, options.name, watch);
  }
  model->input_bytes_ = in_memory ? contiguous.size() : source.count();
  model->Select(options);
  return model;
}

std::unique_ptr<TfModel> TfModel::Build(
    TfFormat format, std::string reason, uint64_t input_bytes,
    const std::function<void(Arena*, tensorflow::MetaGraphDef*)>& build) {
  std::unique_ptr<TfModel> model(new TfModel());
  model->format_ = format;
  model->format_.kind = TfKind::kMetaGraphDef;
  model->detection_reason_ = std::move(reason);
  model->input_bytes_ = input_bytes;
  model->meta_graph_ = Arena::CreateMessage<tensorflow::MetaGraphDef>(&model->arena_);
  build(&model->arena_, model->meta_graph_);
  return model;
}

std::unique_ptr<WireGraph> TfModel::IndexNestedGraph(std::string* held,
                                                     google::protobuf::MessageLite* root,
                                                     const proto::MemoryBudget* budget) {
  GraphLocation location;
  if (!LocateGraph(*held, format_.kind, &location)) return nullptr;
  const RecordSpan& graph = location.back();
  return WireGraph::IndexNested(
      held, graph.value, graph.length, max_memory_bytes_,
      [&](std::string_view bytes, const std::string& header) -> tensorflow::GraphDef* {
        // The message without the graph's nodes is small: parsed whole, on the model's arena.
        std::string rest = ReplaceGraphPayload(bytes, location, header);
        try {
          MemorySource source(rest);
          proto::ParseBinary(&source, root, KindSchema(format_.kind), name_, budget);
        } catch (const Error&) {
          root->Clear();  // parsed again from the original bytes, for the exact error
          return nullptr;
        }
        if (saved_model_ != nullptr) {
          return saved_model_->meta_graphs_size() == 1
                     ? saved_model_->mutable_meta_graphs(0)->mutable_graph_def()
                     : nullptr;
        }
        return meta_graph_->mutable_graph_def();
      });
}

void TfModel::Materialize() const {
  tensorflow::GraphDef* graph = wire_->ParseIntoHeader();
  if (meta_graph_ == nullptr) graph_ = graph;  // else it is the MetaGraphDef's graph_def
  wire_.reset();
}

void TfModel::Select(const TfLoadOptions& options) {
  if (saved_model_ != nullptr) {
    if (saved_model_->meta_graphs_size() == 0) {
      throw Error(ErrorCode::kParseError, options.name + ": the SavedModel holds no MetaGraphDef");
    }
    std::set<std::string> wanted(options.tags.begin(), options.tags.end());
    for (int i = 0; i < saved_model_->meta_graphs_size(); ++i) {
      const auto& tags = saved_model_->meta_graphs(i).meta_info_def().tags();
      if (std::set<std::string>(tags.begin(), tags.end()) == wanted) {
        selected_ = i;
        break;
      }
    }
    if (selected_ < 0 && !options.tags_explicit && saved_model_->meta_graphs_size() == 1) {
      selected_ = 0;
    }
    if (selected_ < 0) {
      std::vector<std::string> available;
      for (const auto& mg : saved_model_->meta_graphs()) {
        available.push_back(JoinTags(mg.meta_info_def().tags()));
      }
      std::string asked =
          JoinForMessage(std::vector<std::string>(wanted.begin(), wanted.end()), ", ");
      throw Error(ErrorCode::kNotFound, options.name + ": no MetaGraphDef has the tags [" + asked +
                                            "]; the SavedModel has " +
                                            JoinForMessage(available, ", "));
    }
    meta_graph_ = saved_model_->mutable_meta_graphs(selected_);
  }
}

}  // namespace graphport::tf

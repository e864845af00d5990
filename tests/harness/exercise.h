// One hostile input through everything a user can do with it: load (format auto), inspect
// to JSON, export every kind in both encodings, and load each export back. Shared by the
// sweep test (tests/cpp/sweep/) and the libFuzzer targets (tests/fuzz/), so both hold the
// same properties:
//   - every failure is a graphport::Error whose code is not INTERNAL;
//   - the summary and the export info are JSON that can be printed;
//   - every output loads back with format "auto" as what it is, to an equal message.
#ifndef GRAPHPORT_TESTS_HARNESS_EXERCISE_H_
#define GRAPHPORT_TESTS_HARNESS_EXERCISE_H_

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/text_format.h>

#include <memory>
#include <string>
#include <string_view>

#include "core/error.h"
#include "core/output_set.h"
#include "cpp/reference_pool.h"
#include "tensorflow/graph.pb.h"
#include "tensorflow/meta_graph.pb.h"
#include "tensorflow/saved_model.pb.h"
#include "tf/export.h"
#include "tf/inspect.h"
#include "tf/tf_model.h"

namespace graphport::harness {

struct Outcome {
  std::string result;   // "ok", or the ErrorCode name the load failed with
  std::string failure;  // non-empty: a property did not hold (what and where)
};

// The reference reading of an output: libprotobuf's full runtime itself, told the type (a
// DynamicMessage from the schemas' descriptor set: graphport's own classes are lite).
inline std::unique_ptr<google::protobuf::Message> ReferenceRead(tf::TfKind kind, bool text,
                                                                const std::string& bytes) {
  auto message =
      testing::ReferencePool::Tf().New("tensorflow." + std::string(tf::MessageName(kind)));
  bool ok = text ? google::protobuf::TextFormat::ParseFromString(bytes, message.get())
                 : message->ParseFromString(bytes);
  if (!ok) return nullptr;
  return message;
}

inline std::string Deterministic(const google::protobuf::MessageLite& message) {
  std::string out;
  google::protobuf::io::StringOutputStream stream(&out);
  google::protobuf::io::CodedOutputStream coded(&stream);
  coded.SetSerializationDeterministic(true);
  message.ByteSizeLong();
  message.SerializeWithCachedSizes(&coded);
  return out;
}

// Exports `model` as `to`/`as_text` and loads the output back; "" or what went wrong.
// `auto_detect`: load the output back with format "auto" (else with its own kind and
// encoding given, which checks the bytes without asking detection).
inline std::string CheckExportReloads(tf::TfModel* model, tf::TfKind to, bool as_text,
                                      bool auto_detect = true) {
  const std::string what = std::string(tf::KindName(to)) + (as_text ? " text" : " binary");
  MemoryOutputSet out;
  tf::TfExportOptions options;
  options.to = to;
  options.as_text = as_text;
  try {
    nlohmann::json info = tf::Export(model, options, &out);
    (void)info.dump();
  } catch (const Error& e) {
    // An export may refuse (a graph over 2 GiB); it must say so with a real code.
    if (e.code() == ErrorCode::kInternal) return what + " export: INTERNAL: " + e.what();
    return "";
  }
  const std::string& bytes = out.files().at(0).bytes;
  std::unique_ptr<tf::TfModel> again;
  try {
    MemorySource source(bytes);
    tf::TfLoadOptions load;
    load.name = "export";
    if (!auto_detect) load.format = std::string(tf::KindName(to)) + (as_text ? "-text" : "-binary");
    again = tf::TfModel::Load(&source, load);
  } catch (const Error& e) {
    // An empty message (a GraphDef without nodes) is zero bytes, which no format detection
    // can tell apart and graphport refuses as EMPTY_INPUT by contract.
    if (bytes.empty() && e.code() == ErrorCode::kEmptyInput) return "";
    return what + " export is refused on reload: " + ErrorCodeName(e.code()) + ": " + e.what();
  }
  auto reference = ReferenceRead(to, as_text, bytes);
  if (reference == nullptr) return what + " export: libprotobuf cannot read it";
  if (again->format().kind != to || again->format().text != as_text) {
    return what + " export reloads as " + tf::KindName(again->format().kind) +
           (again->format().text ? " text" : " binary");
  }
  // Deterministic bytes compare messages field by field (unknown fields included), with
  // none of MessageDifferencer's cost (it unpacks every Any).
  if (Deterministic(*reference) != Deterministic(again->root())) {
    return what + " export reloads to another message than libprotobuf reads";
  }
  return "";
}

// `check_exports`: also export every kind and encoding and load each back; with
// `reload_auto`, with format "auto". That is promised for graphs and their damaged copies
// (the sweep); bytes of another kind that happen to load, or that the caller forced into a
// kind, can export bytes as valid as a MetaGraphDef as they are as a GraphDef, and then no
// detection can say which was meant (the fuzz targets reload with the kind given).
inline Outcome Exercise(std::string_view bytes, bool check_exports = true,
                        const std::string& format = "auto", bool reload_auto = true) {
  Outcome outcome;
  std::unique_ptr<tf::TfModel> model;
  try {
    MemorySource source(bytes);
    tf::TfLoadOptions options;
    options.name = "input";
    options.format = format;
    model = tf::TfModel::Load(&source, options);
    // What the API prints: it must be JSON that dumps (no string that is not UTF-8).
    (void)tf::Inspect(*model).dump();
  } catch (const Error& e) {
    outcome.result = ErrorCodeName(e.code());
    if (e.code() == ErrorCode::kInternal) outcome.failure = std::string("INTERNAL: ") + e.what();
    return outcome;
  } catch (const std::exception& e) {
    outcome.result = "other exception";
    outcome.failure = std::string("not a graphport::Error: ") + e.what();
    return outcome;
  }
  outcome.result = "ok";
  if (!check_exports) return outcome;
  try {
    for (tf::TfKind to :
         {tf::TfKind::kGraphDef, tf::TfKind::kMetaGraphDef, tf::TfKind::kSavedModel}) {
      for (bool as_text : {false, true}) {
        std::string failure = CheckExportReloads(model.get(), to, as_text, reload_auto);
        if (!failure.empty()) {
          outcome.failure = failure;
          return outcome;
        }
      }
    }
  } catch (const std::exception& e) {
    outcome.failure = std::string("export threw a non-graphport exception: ") + e.what();
  }
  return outcome;
}

}  // namespace graphport::harness

#endif  // GRAPHPORT_TESTS_HARNESS_EXERCISE_H_

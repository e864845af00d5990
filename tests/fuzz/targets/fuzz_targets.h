// The body of every libFuzzer target of tests/fuzz, as a function of the input's bytes that
// returns "" when every property held, or what went wrong. The fuzzer's entry point
// (fuzz_entry.cc) traps on a failure so libFuzzer keeps the input; the regression replay test
// (tests/cpp/fuzz/) runs the inputs of tests/fuzz/regressions/TARGET/ through the same
// function, so a fixed finding stays fixed in the normal and the sanitizer builds.
#ifndef GRAPHPORT_TESTS_FUZZ_TARGETS_FUZZ_TARGETS_H_
#define GRAPHPORT_TESTS_FUZZ_TARGETS_FUZZ_TARGETS_H_

#include <string>
#include <string_view>

namespace graphport::fuzz {

// TensorFlow binary readers: auto and each kind forced (tf_binary.cc).
std::string TfBinary(std::string_view bytes);
// TensorFlow text readers, each kind (tf_text.cc).
std::string TfText(std::string_view bytes);
// The protobuf JSON reader into each root type (tf_json.cc).
std::string TfJson(std::string_view bytes);
// The TensorFlow export path with options picked from a hash of the input (tf_export.cc).
std::string TfExport(std::string_view bytes);
// A SavedModel folder packed as an input container (input_container.h).
std::string TfSavedModelFolder(std::string_view bytes);
// A TensorFlow checkpoint index, its values read from data files of zeros (tf_checkpoint.cc).
std::string TfCheckpoint(std::string_view bytes);
// A SavedModel folder with its checkpoint, frozen to TF.js and to a GraphDef (tf_freeze.cc).
std::string TfFreeze(std::string_view bytes);
// A MegEngine dump, re-dumped as FBS_V2, FBS and FBS compatible with 8.14 (mge.cc).
std::string Mge(std::string_view bytes);
// A TensorFlow.js model.json and its shards packed as an input container (tfjs.cc).
std::string Tfjs(std::string_view bytes);

}  // namespace graphport::fuzz

#endif  // GRAPHPORT_TESTS_FUZZ_TARGETS_FUZZ_TARGETS_H_

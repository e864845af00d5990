// What the fuzz targets that go through graphport::Model (src/api) check: a step either works
// or throws a graphport::Error whose code is not INTERNAL; what an export writes loads back
// with format "auto".
#ifndef GRAPHPORT_TESTS_FUZZ_TARGETS_MODEL_CHECKS_H_
#define GRAPHPORT_TESTS_FUZZ_TARGETS_MODEL_CHECKS_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "api/model.h"
#include "fuzz/targets/input_container.h"

namespace graphport::fuzz {

// Runs `step`. Returns "" with *done = true when it returned, "" with *done = false when it
// threw a graphport::Error that is not INTERNAL (bad input, refused as the contract says), and
// "<what>: ..." for INTERNAL or any other exception.
std::string Attempt(const std::string& what, const std::function<void()>& step, bool* done);

// Loads `files` as one input set with format "auto" and inspects the model; *model is null
// when the input was refused.
std::string LoadAndInspect(const std::vector<PackedFile>& files, std::unique_ptr<Model>* model);

// Exports `model` with `options_json`. An export refused with a graphport::Error is fine; one
// that worked must load back with format "auto" and inspect: all its files as one input set
// (`whole_set`), or its first file alone. `check` (may be empty) looks at the files first.
std::string ExportLoadsBack(
    Model* model, const std::string& options_json, bool whole_set,
    const std::function<std::string(const MemoryOutputSet&)>& check = nullptr);

}  // namespace graphport::fuzz

#endif  // GRAPHPORT_TESTS_FUZZ_TARGETS_MODEL_CHECKS_H_

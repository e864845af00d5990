#include "mge/container.h"

#include "mge/detect.h"
#include "mge/read_error.h"

namespace graphport::mge {
namespace {

DumpSpan ReadOneDump(std::string_view bytes, uint64_t at, const std::string& file) {
  std::string_view rest = bytes.substr(at);
  DumpSpan span;
  span.start = at;
  Classification c = ClassifyMgeBytes(rest.substr(0, kFbsV2MinBytes));
  if (c.kind == FileKind::kFbsV1Mgbc || c.kind == FileKind::kFbsV1Mgbs) {
    span.format = DumpFormat::kFbsV1;
    span.magic = c.kind == FileKind::kFbsV1Mgbc ? V1Magic::kMgbc : V1Magic::kMgbs;
    size_t header = span.magic == V1Magic::kMgbc ? kMgbcHeaderBytes : kMgbsHeaderBytes;
    if (rest.size() < header) {
      ThrowAt(ErrorCode::kParseError, file, at,
              "truncated FBS v1 header: " + std::to_string(header) + " bytes needed, " +
                  std::to_string(rest.size()) + " present");
    }
    if (span.magic == V1Magic::kMgbc) span.feature_bits = LoadU64(rest, 4);
    uint64_t offset_to_fbs = LoadU64(rest, header - 8);
    span.values = at + header;
    uint64_t available = rest.size() - header;
    if (offset_to_fbs > available || available - offset_to_fbs < 4) {
      ThrowAt(ErrorCode::kParseError, file, at + header - 8,
              "the header puts the flatbuffer " + std::to_string(offset_to_fbs) +
                  " bytes after it, but only " + std::to_string(available) +
                  " bytes follow (truncated file?)");
    }
    span.values_size = offset_to_fbs;
    span.flatbuffer = span.values + offset_to_fbs;
  } else if (c.kind == FileKind::kFbsV2) {
    span.format = DumpFormat::kFbsV2;
    span.flatbuffer = at;
  } else {
    ThrowAt(ErrorCode::kParseError, file, at,
            "expected a MegEngine graph dump (MGBC/MGBS header or mgv2 flatbuffer), found " +
                HexBytes(rest, 8));
  }
  uint64_t size = LoadU32(bytes, span.flatbuffer);
  uint64_t after_prefix = bytes.size() - span.flatbuffer - 4;
  if (size > after_prefix) {
    ThrowAt(ErrorCode::kParseError, file, span.flatbuffer,
            "the flatbuffer's size prefix says " + std::to_string(size) + " bytes, but only " +
                std::to_string(after_prefix) + " follow (truncated file?)");
  }
  span.end = span.flatbuffer + 4 + size;
  return span;
}

}  // namespace

ContainerLayout SplitDumps(std::string_view bytes, const std::string& file) {
  ContainerLayout layout;
  uint64_t at = 0;
  if (bytes.substr(0, kTestContainerMagic.size()) == kTestContainerMagic) {
    layout.test_container = true;
    if (bytes.size() < kTestContainerMagic.size() + 4) {
      ThrowAt(ErrorCode::kParseError, file, 8, "truncated mgbtest0 header: no test-case count");
    }
    layout.declared_tests = LoadU32(bytes, 8);
    at = 12;
  }
  while (at < bytes.size()) {
    layout.dumps.push_back(ReadOneDump(bytes, at, file));
    at = layout.dumps.back().end;
  }
  if (layout.dumps.empty()) {
    ThrowAt(ErrorCode::kParseError, file, static_cast<int64_t>(at), "no graph dump in the file");
  }
  if (layout.test_container && layout.dumps.size() != uint64_t{layout.declared_tests} + 1) {
    ThrowAt(ErrorCode::kParseError, file, 8,
            "mgbtest0 declares " + std::to_string(layout.declared_tests) +
                " test cases, but the file holds " + std::to_string(layout.dumps.size()) +
                " dumps (the model and " + std::to_string(layout.dumps.size() - 1) + " tests)");
  }
  return layout;
}

}  // namespace graphport::mge

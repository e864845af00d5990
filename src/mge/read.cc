#include "mge/read.h"

#include <cstring>

#include "mge/container.h"
#include "mge/read_v1.h"
#include "mge/read_v2.h"

namespace graphport::mge {

std::unique_ptr<MgeFile> ReadMgeFile(std::string bytes, const std::string& display) {
  auto file = std::make_unique<MgeFile>();
  file->bytes = std::move(bytes);
  file->display = display;
  std::string_view all = file->bytes;
  ContainerLayout layout = SplitDumps(all, display);
  file->test_container = layout.test_container;
  file->declared_tests = layout.declared_tests;
  for (const DumpSpan& span : layout.dumps) {
    file->graphs.emplace_back();
    Graph& g = file->graphs.back();
    g.file_offset = span.start;
    g.file_bytes = span.end - span.start;
    g.flatbuffer_offset = span.flatbuffer;
    std::string_view fb = all.substr(span.flatbuffer, span.end - span.flatbuffer);
    // FlatBuffers reads 8-byte scalars in place: a flatbuffer behind an unaligned header or
    // value blob is copied into 8-aligned storage (FBS v1 flatbuffers hold no values).
    if (reinterpret_cast<uintptr_t>(fb.data()) % 8 != 0) {
      g.aligned_copy.resize((fb.size() + 7) / 8);
      std::memcpy(g.aligned_copy.data(), fb.data(), fb.size());
      fb = std::string_view(reinterpret_cast<const char*>(g.aligned_copy.data()), fb.size());
    }
    g.flatbuffer = fb;
    if (span.format == DumpFormat::kFbsV1) {
      ReadV1Graph(all, span, display, &g);
    } else {
      ReadV2Graph(span, display, &g);
    }
  }
  return file;
}

}  // namespace graphport::mge

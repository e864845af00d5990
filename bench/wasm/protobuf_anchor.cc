// The anchor of the WebAssembly benchmark: plain libprotobuf parsing and serialising a
// GraphDef, compiled from the same libprotobuf and generated code as graphport's module, with
// nothing of graphport around it. bench/wasm_bench.mjs times each call from JS; the native
// benchmark measures the same two steps in-process (native_bench.cc).
//
// The bytes are copied into the heap (GraphportAnchorAlloc) before any timing, as a C++
// program would have them in memory; each step keeps its result for the next one.
#include <emscripten/emscripten.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

#include "tensorflow/graph.pb.h"

namespace {

std::unique_ptr<google::protobuf::Arena> g_arena;
std::unique_ptr<tensorflow::GraphDef> g_owned;
tensorflow::GraphDef* g_graph = nullptr;
std::string g_serialized;

void Reset() {
  g_graph = nullptr;
  g_owned.reset();
  g_arena.reset();
  std::string().swap(g_serialized);
}

}  // namespace

extern "C" {

// A buffer of `size` bytes in the heap for the input (freed with GraphportAnchorFree).
EMSCRIPTEN_KEEPALIVE uint8_t* GraphportAnchorAlloc(uint32_t size) {
  return static_cast<uint8_t*>(std::malloc(size == 0 ? 1 : size));
}

EMSCRIPTEN_KEEPALIVE void GraphportAnchorFree(uint8_t* data) { std::free(data); }

// Drops the parsed message and the serialised bytes: outside the timed steps.
EMSCRIPTEN_KEEPALIVE void GraphportAnchorReset() { Reset(); }

// GraphDef::ParseFromArray, on the heap (`arena` 0) or on a fresh Arena; 1 on success.
EMSCRIPTEN_KEEPALIVE int GraphportAnchorParse(const uint8_t* data, uint32_t size, int arena) {
  Reset();
  if (arena != 0) {
    g_arena = std::make_unique<google::protobuf::Arena>();
    g_graph = google::protobuf::Arena::CreateMessage<tensorflow::GraphDef>(g_arena.get());
  } else {
    g_owned = std::make_unique<tensorflow::GraphDef>();
    g_graph = g_owned.get();
  }
  return g_graph->ParseFromArray(data, static_cast<int>(size)) ? 1 : 0;
}

// SerializeToString of the parsed GraphDef into the same string each time (its capacity kept,
// so no fresh pages are faulted in); its size in bytes, or -1 before a parse.
EMSCRIPTEN_KEEPALIVE double GraphportAnchorSerialize() {
  if (g_graph == nullptr) return -1;
  g_serialized.clear();
  if (!g_graph->SerializeToString(&g_serialized)) return -1;
  return static_cast<double>(g_serialized.size());
}

// The serialised bytes, for checking that they equal the input.
EMSCRIPTEN_KEEPALIVE const char* GraphportAnchorSerializedData() { return g_serialized.data(); }

}  // extern "C"

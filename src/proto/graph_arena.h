// Arena block sizes for messages that hold a whole graph (the loaded model, an export's
// rebuilt copy).
#ifndef GRAPHPORT_PROTO_GRAPH_ARENA_H_
#define GRAPHPORT_PROTO_GRAPH_ARENA_H_

#include <google/protobuf/arena.h>

namespace graphport::proto {

// libprotobuf's default blocks start at 256 bytes and stop growing at 8 KiB: a 200k-node graph
// then takes ~30,000 mallocs, interleaved with the heap buffers of its strings, and freeing it
// makes malloc coalesce every one of those small chunks (a quarter of a load+export). Blocks
// that grow to 1 MiB take a hundredth of the calls; a small graph still starts small, and at
// most the unused tail of one block is wasted.
inline google::protobuf::ArenaOptions GraphArenaOptions() {
  google::protobuf::ArenaOptions options;
  options.start_block_size = 16 << 10;
  options.max_block_size = 1 << 20;
  return options;
}

}  // namespace graphport::proto

#endif  // GRAPHPORT_PROTO_GRAPH_ARENA_H_

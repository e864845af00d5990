// Answers two questions about the wire bytes of one message without parsing them:
//   - would libprotobuf parse them? (conservatively: "no" also for inputs it would accept but
//     that are unusual, such as groups, so the caller falls back to a real parse, which then
//     gives the exact error or the exact message; proto_io's refuses groups, which no
//     TensorFlow schema has: proto/wire_groups.h);
//   - are they canonical, i.e. exactly what deterministic serialization of the parsed message
//     writes back? Then a writer may copy them instead of parsing and re-serialising.
// This is what lets a loaded graph keep its nodes as the input's own bytes (GUIDE: "node by
// node"): a node that is valid and canonical is copied; any other is parsed when written.
#ifndef GRAPHPORT_PROTO_WIRE_CHECK_H_
#define GRAPHPORT_PROTO_WIRE_CHECK_H_

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "proto/schema.h"

namespace graphport::proto {

struct WireCheck {
  bool valid = true;      // libprotobuf parses these bytes as the type (conservative)
  bool canonical = true;  // deterministic serialization of the parse gives these bytes back
  // An upper estimate of the memory the parsed message would take (arena bytes), for the
  // memory budget: packed numbers grow to their in-memory width, each field costs a little.
  uint64_t parsed_bytes = 0;
};

// A length-delimited record at the top level of a checked message (see WireChecker::Watch).
struct WatchedRecord {
  const uint8_t* start;  // its tag
  const uint8_t* value;  // its payload
  uint32_t length;       // of the payload
  int number;
};

// Walks `bytes` as one message of `type` (every nested message too).
WireCheck CheckWire(std::string_view bytes, const MessageSchema& type);

// The same for many messages of one type (a graph's nodes): what each field's schema says is
// looked up once, not once per field of every message.
class WireChecker {
 public:
  explicit WireChecker(const MessageSchema& type);
  ~WireChecker();
  WireChecker(const WireChecker&) = delete;
  WireChecker& operator=(const WireChecker&) = delete;
  WireCheck Check(std::string_view bytes);
  // From now on, each Check() lists in `*out` (cleared first) the top-level records of known
  // length-delimited fields whose numbers (1-31) are bits of `fields`, in their order: what
  // a caller reading a few fields of every message (a node's name, op, inputs and device)
  // would otherwise find by walking its records a second time. Only for a valid message.
  void Watch(uint32_t fields, std::vector<WatchedRecord>* out);
  // From now on, each Check() remembers what the walk found from a message's first top-level
  // record of field `from_field` or above to its end (its "tail": a node's device and attrs),
  // and takes that answer when the same tail comes again: a graph's nodes differ in their
  // names and inputs and repeat the rest. For a type without oneofs (else this does nothing).
  void MemoTails(int from_field);
  // How many tails the memo has answered for: what a test asks to know that it was used.
  uint32_t tails_known() const;

  struct Tables;

 private:
  const MessageSchema* type_;
  std::unique_ptr<Tables> tables_;
  uint32_t watched_fields_ = 0;
  std::vector<WatchedRecord>* watched_ = nullptr;
};

}  // namespace graphport::proto

#endif  // GRAPHPORT_PROTO_WIRE_CHECK_H_

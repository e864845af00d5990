// proto::WireTextPrinter must print exactly what TextFormat::Printer (unknown fields hidden)
// prints for the parsed message, whenever proto::CheckWire calls the bytes canonical: the text
// export of a graph kept as wire bytes goes through it, and its bytes must not change.
#include "proto/wire_text.h"

#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>

#include "graphport_test/schemas.h"
#include "proto/wire_check.h"
#include "proto_json_test.pb.h"
#include "reference_pool.h"
#include "tensorflow/graph.pb.h"
#include "tensorflow/meta_graph.pb.h"
#include "tensorflow/saved_model.pb.h"
#include "tensorflow/schemas.h"
#include "test_util.h"

namespace graphport::proto {
namespace {

using google::protobuf::MessageLite;
using graphport::test::Everything;
using graphport::test::Scalars;

// libprotobuf's full runtime, on a dynamic message of the same bytes: the reference.
std::string LibprotobufText(const MessageLite& message, int indent_level) {
  const std::string type = message.GetTypeName();
  const testing::ReferencePool& pool = type.rfind("graphport.test.", 0) == 0
                                           ? testing::ReferencePool::Test()
                                           : testing::ReferencePool::Tf();
  auto reference = pool.New(type, testing::DeterministicBytes(message));
  google::protobuf::TextFormat::Printer printer;
  printer.SetHideUnknownFields(true);
  printer.SetInitialIndentLevel(indent_level);
  std::string text;
  EXPECT_TRUE(printer.PrintToString(*reference, &text));
  return text;
}

// Prints through a small chunk, so that the tests also cross the output's flushes.
std::string WireText(WireTextPrinter* printer, std::string_view bytes, int indent_level,
                     size_t chunk = 64, int left_out = 0) {
  StringSink sink;
  TextOutput out(&sink, chunk);
  EXPECT_TRUE(printer->Print(bytes, indent_level, &out, left_out));
  out.Flush();
  EXPECT_FALSE(out.failed());
  return sink.Take();
}

template <typename Message>
std::string WireText(const Message& message, int indent_level = 0) {
  WireTextPrinter printer(SchemaOf<Message>());
  return WireText(&printer, testing::DeterministicBytes(message), indent_level);
}

// Asserts the premise (the bytes are canonical) and the claim (the texts are equal).
template <typename Message>
void ExpectSameText(const Message& message) {
  std::string bytes = testing::DeterministicBytes(message);
  WireCheck check = CheckWire(bytes, SchemaOf<Message>());
  ASSERT_TRUE(check.valid && check.canonical) << LibprotobufText(message, 0);
  for (int indent : {0, 3}) {
    EXPECT_EQ(WireText(message, indent), LibprotobufText(message, indent)) << "indent " << indent;
  }
}

Scalars EveryScalar() {
  Scalars s;
  s.set_i32(-42);
  s.set_i64(-9000000000LL);
  s.set_u32(4000000000U);
  s.set_u64(18000000000000000000ULL);
  s.set_s32(-7);
  s.set_s64(-70000000000LL);
  s.set_f32(4294967295U);
  s.set_f64(1ULL << 63);
  s.set_sf32(-2147483647 - 1);
  s.set_sf64(std::numeric_limits<int64_t>::min());
  s.set_flt(0.1f);
  s.set_dbl(0.1);
  s.set_flag(true);
  s.set_str("plain");
  s.set_raw("r\0w", 3);
  s.set_color(graphport::test::GREEN);
  s.set_opt_i32(0);  // proto3 optional: printed although zero
  return s;
}

TEST(WireTextTest, EveryScalarTypeAtItsExtremes) {
  ExpectSameText(EveryScalar());
  Scalars s;
  s.set_i32(std::numeric_limits<int32_t>::min());
  s.set_i64(std::numeric_limits<int64_t>::max());
  s.set_u32(std::numeric_limits<uint32_t>::max());
  s.set_u64(std::numeric_limits<uint64_t>::max());
  s.set_s32(std::numeric_limits<int32_t>::min());
  s.set_s64(std::numeric_limits<int64_t>::min());
  s.set_sf32(std::numeric_limits<int32_t>::max());
  s.set_sf64(std::numeric_limits<int64_t>::max());
  ExpectSameText(s);
  s.Clear();
  s.set_s32(std::numeric_limits<int32_t>::max());
  s.set_s64(std::numeric_limits<int64_t>::max());
  s.set_i32(-1);
  s.set_i64(-1);
  ExpectSameText(s);
}

TEST(WireTextTest, FloatsAndDoublesAsSimpleFtoaAndSimpleDtoa) {
  const double doubles[] = {
      1.0,
      -1.0,
      0.5,
      1.0 / 3,
      2.0 / 3,
      1e15,
      1e15 - 1,
      -1e15 + 1,
      123456789012345678.0,
      1e100,
      1e-5,
      1e-4,
      0.0001234,
      3.141592653589793,
      0.30000000000000004,
      -0.0,
      std::numeric_limits<double>::max(),
      std::numeric_limits<double>::lowest(),
      std::numeric_limits<double>::min(),
      std::numeric_limits<double>::denorm_min(),
      std::numeric_limits<double>::min() / 3,
      std::numeric_limits<double>::epsilon(),
      std::numeric_limits<double>::infinity(),
      -std::numeric_limits<double>::infinity(),
      std::numeric_limits<double>::quiet_NaN(),
      -std::numeric_limits<double>::quiet_NaN(),
      9007199254740993.0,
      4503599627370497.5,
  };
  for (double d : doubles) {
    SCOPED_TRACE(d);
    Scalars s;
    s.set_dbl(d);
    s.set_flt(static_cast<float>(d));
    ExpectSameText(s);
  }
  const float floats[] = {
      0.1f,        1e6f,        1e6f - 1,      999999.5f,
      16777216.0f, 16777217.0f, 3.4028235e38f, 1.17549435e-38f,
      1e-45f,      1.5e-40f,    -0.0f,         0.2f,
      1.1f,        100.25f,     7e-7f,         123456.7f,
  };
  for (float f : floats) {
    SCOPED_TRACE(f);
    Scalars s;
    s.set_flt(f);
    ExpectSameText(s);
  }
  // Bit patterns at random, both widths: every float is printed as the printer does.
  std::mt19937_64 random(20261201);
  WireTextPrinter printer(SchemaOf<Scalars>());
  for (int i = 0; i < 20000; ++i) {
    uint64_t bits = random();
    double d;
    float f;
    uint32_t low = static_cast<uint32_t>(bits);
    std::memcpy(&d, &bits, sizeof d);
    std::memcpy(&f, &low, sizeof f);
    Scalars s;
    s.set_dbl(d);
    s.set_flt(f);
    std::string bytes = testing::DeterministicBytes(s);
    ASSERT_EQ(WireText(&printer, bytes, 0), LibprotobufText(s, 0)) << LibprotobufText(s, 0);
  }
}

TEST(WireTextTest, StringsAndBytesAreEscapedAsCEscape) {
  std::string every_byte;
  for (int c = 0; c < 256; ++c) every_byte.push_back(static_cast<char>(c));
  Scalars s;
  s.set_str(
      "tab\t, newline\n, return\r, quotes \" and ', backslash \\, del \x7f, "
      "UTF-8 \xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
  s.set_raw(every_byte + "\xff\xfe not UTF-8" + every_byte);
  ExpectSameText(s);
  // A string longer than one escaping piece and than the output's chunk.
  std::string long_text;
  for (int i = 0; i < 50000; ++i) long_text += (i % 7 == 0) ? "\n\xe2\x82\xac" : "abc";
  s.set_str(long_text);
  s.set_raw(long_text + every_byte);
  ExpectSameText(s);
}

// Plain text is copied eight bytes at a time: every character that needs escaping is found at
// every position of a word, and at every length around a word's.
TEST(WireTextTest, EachEscapedByteIsFoundWhereverItSits) {
  const char specials[] = {'\0', '\x1f', '\x7f', '\x80', '\xff', '"', '\'', '\\', '\n', '\t'};
  const char plain[] = {' ', '~', '!', '&', '(', '[', ']', 'a'};  // neighbours of the specials
  WireTextPrinter printer(SchemaOf<Scalars>());
  for (size_t length = 1; length <= 33; ++length) {
    for (size_t at = 0; at < length; ++at) {
      for (char special : specials) {
        std::string text;
        for (size_t i = 0; i < length; ++i) text += plain[i % sizeof plain];
        text[at] = special;
        Scalars s;
        s.set_raw(text);
        s.set_str(std::string(length, 'x'));
        ASSERT_EQ(WireText(&printer, testing::DeterministicBytes(s), 1), LibprotobufText(s, 1))
            << "length " << length << ", at " << at << ", byte " << int{special};
      }
    }
  }
}

TEST(WireTextTest, EnumsKnownAndUnknown) {
  Everything e;
  e.mutable_scalars()->set_color(graphport::test::RED);
  e.add_color_list(graphport::test::COLOR_UNSPECIFIED);
  e.add_color_list(graphport::test::GREEN);
  e.add_color_list(static_cast<graphport::test::Color>(17));    // unknown: printed as 17
  e.add_color_list(static_cast<graphport::test::Color>(-300));  // and negative
  ExpectSameText(e);
  Scalars s;
  s.set_color(static_cast<graphport::test::Color>(123456));
  ExpectSameText(s);
  // TensorFlow's DataType enum, from a node.
  tensorflow::NodeDef node;
  node.set_name("n");
  (*node.mutable_attr())["T"].set_type(tensorflow::DT_HALF);
  (*node.mutable_attr())["U"].set_type(static_cast<tensorflow::DataType>(999));
  ExpectSameText(node);
}

TEST(WireTextTest, EmptyMessagesNestedMessagesAndMaps) {
  ExpectSameText(Scalars());
  ExpectSameText(Everything());
  Everything e;
  e.mutable_scalars();  // present and empty: "scalars {\n}\n"
  e.add_scalars_list();
  *e.add_scalars_list() = EveryScalar();
  (*e.mutable_str_map())["b"] = "second";
  (*e.mutable_str_map())["a"] = "first";
  (*e.mutable_str_map())[""] = "";  // both of an entry are printed, even when empty
  (*e.mutable_int_map())[-5] = "minus";
  (*e.mutable_int_map())[7] = "";
  (*e.mutable_long_map())[1LL << 40] = EveryScalar();
  (*e.mutable_long_map())[0];
  (*e.mutable_uint_map())[4000000000U] = -1;
  (*e.mutable_bool_map())[true] = "yes";
  (*e.mutable_bool_map())[false] = "no";
  (*e.mutable_fixed_map())[99] = graphport::test::RED;
  Everything* child = &(*e.mutable_child_map())["kid"];
  (*child->mutable_child_map())["grandkid"].mutable_scalars()->set_str("deep");
  child->mutable_child()->mutable_child()->set_snake_case_name("x");
  e.set_field_2x(3);
  e.set_snake_case_name("snake");
  e.set_choice_str("");  // a oneof member set to its default is still printed
  e.mutable_int32_wrapper()->set_value(0);
  e.mutable_string_wrapper()->set_value("w");
  e.add_wrapper_list();
  e.mutable_any()->set_type_url("type.googleapis.com/graphport.test.Scalars");
  e.mutable_any()->set_value(testing::DeterministicBytes(EveryScalar()));
  e.add_any_list();
  // Maps with keys other than strings are sorted by both libprotobuf's writer and its printer
  // (CheckWire only vouches for string keys, so this is checked without its premise).
  for (int indent : {0, 2}) {
    EXPECT_EQ(WireText(e, indent), LibprotobufText(e, indent));
  }
  e.clear_int_map();
  e.clear_long_map();
  e.clear_uint_map();
  e.clear_bool_map();
  e.clear_fixed_map();
  ExpectSameText(e);
}

TEST(WireTextTest, PackedAndUnpackedRepeatedFields) {
  Everything e;
  for (int i = -3; i < 300; i += 7) {
    e.add_int_list(i * 1000);
    e.add_long_list(-static_cast<int64_t>(i) * (int64_t{1} << 35));
    e.add_dbl_list(i / 7.0);
    e.add_str_list(std::to_string(i));
    e.add_raw_list(std::string(1, static_cast<char>(i)));
  }
  ExpectSameText(e);
  // Unpacked records of a packable field parse the same, and print the same.
  tensorflow::AttrValue list;
  list.mutable_list()->add_i(5);
  list.mutable_list()->add_i(-6);
  std::string bytes = testing::DeterministicBytes(list);
  std::string unpacked = "\x18\x05\x18\xfa\xff\xff\xff\xff\xff\xff\xff\xff\x01";  // i: 5, -6
  std::string record = std::string("\x0a", 1) + static_cast<char>(unpacked.size()) + unpacked;
  WireTextPrinter printer(SchemaOf<tensorflow::AttrValue>());
  EXPECT_EQ(WireText(&printer, record, 1), LibprotobufText(list, 1));
  EXPECT_EQ(WireText(&printer, bytes, 1), LibprotobufText(list, 1));
}

TEST(WireTextTest, UnknownFieldsAreHiddenAndALeftOutFieldIsNotPrinted) {
  tensorflow::NodeDef node;
  node.set_name("a");
  node.set_op("Const");
  node.set_device("/cpu:0");
  node.add_input("x");
  std::string bytes = testing::DeterministicBytes(node);
  std::string with_unknown = bytes + std::string("\xf8\x07\x01", 3) + "\x92\x7d\x02hi";
  WireTextPrinter printer(SchemaOf<tensorflow::NodeDef>());
  EXPECT_EQ(WireText(&printer, with_unknown, 0), LibprotobufText(node, 0));
  tensorflow::NodeDef without_device = node;
  without_device.clear_device();
  EXPECT_EQ(WireText(&printer, bytes, 2, 64, tensorflow::NodeDef::kDeviceFieldNumber),
            LibprotobufText(without_device, 2));
}

TEST(WireTextTest, BytesThatDoNotParseAreRefusedWithoutACrash) {
  WireTextPrinter printer(SchemaOf<tensorflow::NodeDef>());
  const std::string cases[] = {
      std::string("\x0a\x05"
                  "ab",
                  4),                                                   // a length past the end
      std::string("\x0b\x0c", 2),                                       // a group
      std::string("\x0f", 1),                                           // wire type 7
      std::string("\x00\x01", 2),                                       // field number 0
      std::string("\x2a\x03\x0a\x01", 4),                               // an attr entry cut short
      std::string("\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01", 11),  // an overlong tag
  };
  for (const std::string& bytes : cases) {
    StringSink sink;
    TextOutput out(&sink);
    EXPECT_FALSE(printer.Print(bytes, 0, &out)) << bytes.size() << " bytes";
  }
  // Nesting past libprotobuf's limit is refused too, rather than recursing on.
  tensorflow::GraphDef graph = testing::DeeplyNestedGraph(40);  // 160 message levels
  StringSink sink;
  TextOutput out(&sink);
  WireTextPrinter graph_printer(SchemaOf<tensorflow::GraphDef>());
  EXPECT_FALSE(graph_printer.Print(testing::DeterministicBytes(graph), 0, &out));
}

class FailingSink : public ByteSink {
 public:
  void Write(const uint8_t*, size_t size) override {
    written += size;
    if (written > 100) throw std::runtime_error("disk full");
  }
  size_t written = 0;
};

TEST(WireTextTest, TheOutputKeepsTheSinksFirstFailureAndDropsTheRest) {
  FailingSink sink;
  TextOutput out(&sink, 64);
  for (int i = 0; i < 10; ++i) out.Append(std::string(50, 'x'));
  out.Flush();
  EXPECT_TRUE(out.failed());
  EXPECT_EQ(out.error(), "disk full");
  EXPECT_LE(sink.written, 200u);
}

// The text of every corpus graph, whole and node by node, equals the printer's; and the
// printer's claim holds over thousands of mutations of the nodes' bytes that CheckWire still
// calls canonical.
TEST(WireTextTest, CorpusGraphsNodesAndTheirMutations) {
  std::mt19937 random(20261202);
  WireChecker checker(SchemaOf<tensorflow::NodeDef>());
  WireTextPrinter node_printer(SchemaOf<tensorflow::NodeDef>());
  int graphs = 0, nodes = 0, mutated_canonical = 0;
  for (const auto& g : testing::CorpusGraphs()) {
    SCOPED_TRACE(g.relative);
    auto root = testing::ReferenceParse(g.kind, testing::ReadFile(g.path()));
    ASSERT_NE(root, nullptr);
    std::string root_bytes = testing::DeterministicBytes(*root);
    const MessageSchema& root_type = tf::KindSchema(g.kind);
    if (CheckWire(root_bytes, root_type).canonical) {
      WireTextPrinter root_printer(root_type);
      EXPECT_EQ(WireText(&root_printer, root_bytes, 0, size_t{1} << 16), LibprotobufText(*root, 0));
      ++graphs;
    }
    const tensorflow::GraphDef* graph = &testing::GraphOf(g.kind, *root);
    // The nodes one after another as WriteTextWithNodes prints them, against the printer on
    // a GraphDef of only those nodes.
    tensorflow::GraphDef only_nodes;
    *only_nodes.mutable_node() = graph->node();
    StringSink sink;
    TextOutput out(&sink, 4096);
    for (const tensorflow::NodeDef& node : graph->node()) {
      std::string bytes = testing::DeterministicBytes(node);
      ASSERT_TRUE(checker.Check(bytes).canonical) << node.name();
      out.Append("  node {\n");
      ASSERT_TRUE(node_printer.Print(bytes, 2, &out)) << node.name();
      out.Append("  }\n");
      ++nodes;
      for (int k = 0; k < 10; ++k) {
        std::string copy = bytes;
        copy[random() % copy.size()] ^= static_cast<char>(1 << (random() % 8));
        if (!checker.Check(copy).canonical) continue;
        ++mutated_canonical;
        tensorflow::NodeDef parsed;
        ASSERT_TRUE(parsed.ParseFromString(copy));
        ASSERT_EQ(WireText(&node_printer, copy, 1), LibprotobufText(parsed, 1))
            << node.name() << " mutation " << k;
      }
    }
    out.Flush();
    EXPECT_EQ(sink.bytes(), LibprotobufText(only_nodes, 1));
  }
  EXPECT_GT(graphs, 10);
  EXPECT_GT(nodes, 900);
  EXPECT_GT(mutated_canonical, 1000);
}

// Nodes whose attrs repeat (what WireTextMemo is for) beside ones that do not, printed one by one
// through one printer, as the text export prints a graph: at two indents, through an output
// that flushes every 64 bytes (most entries cross a flush and are not remembered) and one
// that flushes seldom (nearly every entry after the first two comes from the memo).
TEST(WireTextTest, RepeatedAttrsFromTheMemoPrintAsLibprotobufPrintsThem) {
  tensorflow::GraphDef graph;
  for (int i = 0; i < 400; ++i) {
    tensorflow::NodeDef* node = graph.add_node();
    node->set_name("n" + std::to_string(i));
    node->set_op(i % 2 ? "Add" : "Const");
    (*node->mutable_attr())["T"].set_type(tensorflow::DT_FLOAT);
    auto* shape = (*node->mutable_attr())["_output_shapes"].mutable_list()->add_shape();
    shape->add_dim()->set_size(i % 3 == 0 ? i : 8);  // repeated, and now and then not
    (*node->mutable_attr())["unique"].set_s("v" + std::to_string(i));
  }
  for (size_t chunk : {size_t{64}, size_t{1} << 20}) {
    for (int indent : {1, 3}) {
      WireTextPrinter printer(SchemaOf<tensorflow::NodeDef>());
      for (int pass = 0; pass < 2; ++pass) {
        for (const tensorflow::NodeDef& node : graph.node()) {
          ASSERT_EQ(WireText(&printer, testing::DeterministicBytes(node), indent, chunk),
                    LibprotobufText(node, indent))
              << node.name() << " chunk " << chunk << " indent " << indent;
        }
      }
    }
  }
}

// The same entry bytes as entries of one map field at different depths (a message's map and
// its child's), and of one map inside the other: each prints with its own indent.
TEST(WireTextTest, TheSameMapEntryAtAnotherDepthKeepsItsOwnIndent) {
  Everything top;
  (*top.mutable_child_map())["k"];
  (*top.mutable_child()->mutable_child_map())["k"];
  (*top.mutable_child()->mutable_child()->mutable_child_map())["k"];
  (*top.mutable_str_map())["k"] = "v";
  (*(*top.mutable_child_map())["j"].mutable_str_map())["k"] = "v";
  const std::string bytes = testing::DeterministicBytes(top);
  WireTextPrinter printer(SchemaOf<Everything>());
  for (int pass = 0; pass < 3; ++pass) {
    EXPECT_EQ(WireText(&printer, bytes, 0, size_t{1} << 20), LibprotobufText(top, 0)) << pass;
    EXPECT_EQ(WireText(&printer, bytes, 2, size_t{1} << 20), LibprotobufText(top, 2)) << pass;
  }
}

}  // namespace
}  // namespace graphport::proto

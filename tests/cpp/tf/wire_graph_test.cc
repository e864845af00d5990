// A binary GraphDef keeps its nodes as wire bytes (tf/wire_graph.h). Every export that writes
// them from those bytes must equal the export of the same model parsed whole, byte for byte,
// for canonical and non-canonical nodes, binary and text, every kind, and every node option
// (exportScope, clearDevices, stripDefaultAttrs, clearExtraneousSavers, saveDebugInfo).
#include "tf/wire_graph.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <utility>

#include "core/byte_stream.h"
#include "core/output_set.h"
#include "tensorflow/meta_graph.pb.h"
#include "tensorflow/saved_model.pb.h"
#include "test_util.h"
#include "tf/export.h"
#include "tf/inspect.h"
#include "tf/tf_model.h"

namespace graphport::tf {
namespace {

// The files of an export, and its info.
std::pair<std::vector<MemoryOutputSet::File>, nlohmann::json> ExportFiles(
    TfModel* model, const TfExportOptions& options) {
  MemoryOutputSet out;
  nlohmann::json info = Export(model, options, &out);
  return {out.files(), std::move(info)};
}

// A graph whose nodes call library functions, as their op (f_mm, which MatMul's defaulted attrs
// must not be stripped from) and through a func attr or a list of them (StatefulPartitionedCall,
// Case); the called bodies call further (f_nested calls f_mm) and hold defaulted attrs, and one
// function is never called (its op must not be listed). Nodes under "s" give exportScope a
// scope; devices give clearDevices work.
// How LibraryGraph() writes its library: as libprotobuf does; otherwise (a record of its own
// after the rest, one more function with a field written that proto3 leaves out); or with a
// field the schema lacks as well; or in two records, one before the nodes and one after, which
// a parse merges.
enum class LibraryForm { kCanonical, kWrittenOtherwise, kUnknownField, kTwoRecords };

std::string LibraryGraph(LibraryForm form = LibraryForm::kCanonical) {
  tensorflow::GraphDef graph;
  auto add_node = [](auto* nodes, const std::string& name, const std::string& op) {
    tensorflow::NodeDef* node = nodes->Add();
    node->set_name(name);
    node->set_op(op);
    return node;
  };
  auto set_false = [](tensorflow::NodeDef* node, const std::string& attr) {
    (*node->mutable_attr())[attr].set_b(false);
  };
  auto function = [&](const std::string& name) {
    tensorflow::FunctionDef* f = graph.mutable_library()->add_function();
    f->mutable_signature()->set_name(name);
    return f;
  };
  set_false(add_node(function("f_mm")->mutable_node_def(), "mm", "MatMul"), "transpose_b");
  tensorflow::FunctionDef* nested = function("f_nested");
  add_node(nested->mutable_node_def(), "inner", "f_mm");
  add_node(nested->mutable_node_def(), "square", "Square");
  add_node(function("f_branch")->mutable_node_def(), "neg", "Neg");
  add_node(function("f_unused")->mutable_node_def(), "sqrt", "Sqrt");

  tensorflow::NodeDef* call = add_node(graph.mutable_node(), "s/call", "f_mm");
  set_false(call, "transpose_a");
  call->set_device("/device:CPU:0");
  tensorflow::NodeDef* mm = add_node(graph.mutable_node(), "s/mm", "MatMul");
  set_false(mm, "transpose_a");
  mm->add_input("s/call");
  mm->set_device("/device:GPU:0");
  tensorflow::NodeDef* pc = add_node(graph.mutable_node(), "pc", "StatefulPartitionedCall");
  (*pc->mutable_attr())["f"].mutable_func()->set_name("f_nested");
  (*pc->mutable_attr())["_output_shapes"].mutable_list()->add_shape();
  tensorflow::NodeDef* branches = add_node(graph.mutable_node(), "s/case", "Case");
  (*branches->mutable_attr())["branches"].mutable_list()->add_func()->set_name("f_branch");
  branches->add_input("pc");
  add_node(graph.mutable_node(), "s/add", "AddV2")->add_input("s/mm");
  graph.mutable_versions()->set_producer(1205);
  if (form == LibraryForm::kCanonical) return testing::DeterministicBytes(graph);
  auto record = [](int number, const std::string& payload) {
    std::string out(1, static_cast<char>((number << 3) | 2));
    for (uint64_t n = payload.size();; n >>= 7) {
      out += static_cast<char>((n & 0x7f) | (n >= 0x80 ? 0x80 : 0));
      if (n < 0x80) break;
    }
    return out + payload;
  };
  std::string library = testing::DeterministicBytes(graph.library());
  tensorflow::FunctionDefLibrary first;
  *first.add_function() = graph.library().function(0);
  graph.clear_library();
  if (form == LibraryForm::kTwoRecords) {
    // A library's records are its functions': the first one's, then the others'.
    const std::string first_bytes = testing::DeterministicBytes(first);
    return record(2, first_bytes) + testing::DeterministicBytes(graph) +
           record(2, library.substr(first_bytes.size()));
  }
  // A signature whose description is written empty (proto3 leaves empty strings out).
  const std::string signature = record(1, "f_extra") + std::string("\x32\x00", 2);
  std::string extra = record(1, signature);
  if (form == LibraryForm::kUnknownField) extra += std::string("\xb8\x06\x01", 3);  // 103: 1
  library += record(1, extra);
  return testing::DeterministicBytes(graph) + record(2, library);
}

// The GraphDef of each corpus graph, plus one whose nodes libprotobuf would write otherwise.
std::vector<std::pair<std::string, std::string>> Graphs() {
  std::vector<std::pair<std::string, std::string>> graphs;
  for (const auto& g : testing::CorpusGraphs()) {
    auto root = testing::ReferenceParse(g.kind, testing::ReadFile(g.path()));
    if (root == nullptr) continue;
    const tensorflow::GraphDef* graph = &testing::GraphOf(g.kind, *root);
    // As TensorFlow writes them (deterministic: attrs sorted), and as libprotobuf's default
    // serialisation may (attrs in map order, which the index rewrites in libprotobuf's order).
    graphs.push_back({g.relative, testing::DeterministicBytes(*graph)});
    graphs.push_back({g.relative + " (map order)", graph->SerializeAsString()});
  }
  // A node whose device record starts past what WireNode::device_offset holds: clearDevices
  // finds it by walking the node's records instead.
  tensorflow::GraphDef far;
  tensorflow::NodeDef* wide = far.add_node();
  wide->set_name("wide");
  wide->set_op("AddN");
  for (int i = 0; i < 3000; ++i) wide->add_input("an/input/with/a/long/name/" + std::to_string(i));
  wide->set_device("/device:CPU:0");
  tensorflow::NodeDef* near = far.add_node();
  near->set_name("an/input/with/a/long/name/0");
  near->set_op("NoOp");
  near->set_device("/device:CPU:0");
  graphs.push_back({"a device record past 64 KiB", testing::DeterministicBytes(far)});
  graphs.push_back({"a library called as ops and through attrs", LibraryGraph()});
  graphs.push_back({"a library written otherwise", LibraryGraph(LibraryForm::kWrittenOtherwise)});
  graphs.push_back(
      {"a library with a field the schema lacks", LibraryGraph(LibraryForm::kUnknownField)});
  graphs.push_back({"a library in two records", LibraryGraph(LibraryForm::kTwoRecords)});
  // Nodes written by hand: attrs out of order, an explicit empty device, fields reversed, a
  // field the schema lacks; and versions before the nodes.
  std::string odd;
  auto field = [](int number, const std::string& payload) {
    return std::string(1, static_cast<char>((number << 3) | 2)) +
           std::string(1, static_cast<char>(payload.size())) + payload;
  };
  std::string attr_b = field(5, field(1, "b") + field(2, std::string("\x28\x01", 2)));
  std::string attr_a = field(5, field(1, "a") + field(2, std::string("\x18\x07", 2)));
  odd += field(4, std::string("\x08\x1b", 2));  // versions { producer: 27 }
  odd += field(1, field(1, "x") + field(2, "Const") + attr_b + attr_a + field(4, "/cpu:0"));
  odd += field(1, field(2, "NoOp") + field(1, "y") + field(4, ""));
  odd += field(1, field(1, "z") + field(2, "Identity") + field(3, "x") +
                      std::string("\x48\x05", 2) + field(4, "/gpu:1"));
  odd += field(
      1, field(1, "w") + field(2, "Identity") + field(3, "$unbound_inputs_v") + field(4, "/gpu:1"));
  graphs.push_back({"hand-written nodes", odd});
  // Canonical nodes under scope "s" (the first scope listed) for exportScope's byte edits: a
  // name that strips to nothing, inputs from outside (data, control, already unbound), and a
  // colocation attr, which only a parse rewrites (export_scope.h); devices to clear.
  std::string scoped;
  std::string colocation = field(5, field(1, "_class") + field(2, field(1, field(2, "loc:@s/a"))));
  scoped += field(1, field(1, "s/a") + field(2, "Const") + field(4, "/cpu:0"));
  scoped +=
      field(1, field(1, "s/b") + field(2, "Identity") + field(3, "s/a:1") + field(3, "^outside") +
                   field(3, "outside:1") + field(3, "$unbound_inputs_old") + field(4, "/gpu:0"));
  scoped += field(1, field(1, "s/") + field(2, "NoOp"));
  scoped += field(1, field(1, "s/c") + field(2, "Identity") + field(3, "^s/a") + colocation);
  scoped += field(1, field(1, "outside") + field(2, "NoOp"));
  graphs.push_back({"hand-written scoped nodes", scoped});
  return graphs;
}

// Exports `wire` and `parsed` (the same input, one still wire bytes, one parsed) to every
// kind, binary and text, under seven option sets; each pair must be the same bytes or the same
// error. Returns how many pairs it compared.
int CompareExports(TfModel* wire, TfModel* parsed) {
  int compared = 0;
  // A scope the graph has, for the scoped variants (the first listed; "" when none).
  nlohmann::json scopes = Inspect(*parsed)["scopes"];
  const std::string scope = scopes.empty() ? "" : scopes[0]["name"].get<std::string>();
  for (TfKind to : {TfKind::kGraphDef, TfKind::kMetaGraphDef, TfKind::kSavedModel}) {
    for (bool as_text : {false, true}) {
      for (int variant = 0; variant < 7; ++variant) {
        TfExportOptions options;
        options.to = to;
        options.as_text = as_text;
        options.clear_devices = variant == 1 || variant == 5;
        options.save_debug_info = variant == 2 || variant == 6;
        options.strip_default_attrs = variant == 3 || variant == 5;
        options.clear_extraneous_savers = variant == 4;
        if (variant >= 5) options.export_scope = scope.empty() ? "no_such_scope" : scope;
        SCOPED_TRACE(std::string(KindName(to)) + (as_text ? " text" : " binary") + " variant " +
                     std::to_string(variant));
        std::vector<MemoryOutputSet::File> a, b;
        nlohmann::json info_a, info_b;
        std::string error_a, error_b;
        try {
          std::tie(a, info_a) = ExportFiles(wire, options);
        } catch (const Error& e) {
          error_a = e.what();
        }
        try {
          std::tie(b, info_b) = ExportFiles(parsed, options);
        } catch (const Error& e) {
          error_b = e.what();
        }
        EXPECT_EQ(error_a, error_b);
        EXPECT_EQ(info_a, info_b);  // the ops listed, attrs stripped, names traced...
        EXPECT_EQ(a.size(), b.size());
        for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
          EXPECT_EQ(a[i].name, b[i].name);
          EXPECT_TRUE(a[i].bytes == b[i].bytes) << a[i].name << " differs";
        }
        ++compared;
      }
    }
  }
  return compared;
}

TEST(WireGraphTest, ExportsFromWireBytesEqualExportsOfTheParsedGraph) {
  int compared = 0, kept_as_bytes = 0, libraries_kept_as_bytes = 0;
  for (const auto& [name, bytes] : Graphs()) {
    SCOPED_TRACE(name);
    auto wire = testing::LoadGraphDefBinary(bytes);
    ASSERT_NE(wire->wire_graph(), nullptr);
    // Only text of nodes with fields to leave out makes an export parse the graph; any other
    // export writes node by node, a library's calls followed.
    const bool all_canonical = wire->wire_graph()->all_canonical();
    const bool library_kept = wire->wire_graph()->library_kept();
    auto parsed = testing::LoadGraphDefBinary(bytes);
    parsed->graph();  // parses it whole
    ASSERT_EQ(parsed->wire_graph(), nullptr);
    EXPECT_EQ(Inspect(*wire), Inspect(*parsed));
    compared += CompareExports(wire.get(), parsed.get());
    // Every option above wrote from the wire bytes: the graph was never parsed whole (text
    // of nodes with fields to leave out parses it).
    if (all_canonical) {
      EXPECT_NE(wire->wire_graph(), nullptr);
    }
    if (wire->wire_graph() != nullptr) ++kept_as_bytes;
    // A library kept as bytes stays bytes through every export but a parse of the nodes.
    if (library_kept && wire->wire_graph() != nullptr) {
      EXPECT_TRUE(wire->wire_graph()->library_kept());
      ++libraries_kept_as_bytes;
    }
  }
  EXPECT_GT(compared, 42 * 10);
  EXPECT_GT(kept_as_bytes, 0);
  EXPECT_GT(libraries_kept_as_bytes, 1);  // the corpus's and LibraryGraph()'s
}

// The index decides on the library once it has seen every record: two records (which a parse
// merges) go to the header, in their order; the nodes between them stay wire bytes.
TEST(WireGraphTest, ALibraryInTwoRecordsIsMergedInTheHeader) {
  auto model = testing::LoadGraphDefBinary(LibraryGraph(LibraryForm::kTwoRecords));
  const WireGraph* wire = model->wire_graph();
  ASSERT_NE(wire, nullptr);
  EXPECT_FALSE(wire->library_kept());
  EXPECT_EQ(wire->nodes().size(), 5u);
  std::vector<std::string> functions;
  for (const auto& f : wire->header().library().function()) {
    functions.push_back(f.signature().name());
  }
  EXPECT_EQ(functions, (std::vector<std::string>{"f_mm", "f_nested", "f_branch", "f_unused"}));
  ASSERT_EQ(wire->functions().size(), 4u);
  EXPECT_EQ(wire->functions()[1].name, "f_nested");
}

// A binary MetaGraphDef or SavedModel keeps its one GraphDef's nodes as wire bytes too; the
// rest is parsed. Its exports equal those of the model once parsed whole, and parsing it
// whole gives what libprotobuf's own parse of the file gives.
TEST(WireGraphTest, MetaGraphAndSavedModelInputsKeepTheirNodesAsWireBytes) {
  int kept = 0, with_library = 0, rewritten = 0, compared = 0;
  for (const auto& g : testing::CorpusGraphs()) {
    if (g.kind == TfKind::kGraphDef) continue;
    SCOPED_TRACE(g.relative);
    const std::string bytes = testing::ReadFile(g.path());
    auto reference = testing::ReferenceParse(g.kind, bytes);
    if (reference == nullptr) continue;  // text
    auto load = [&] {
      MemorySource source(bytes);
      TfLoadOptions options;
      options.format = std::string(KindName(g.kind)) + "-binary";
      return TfModel::Load(&source, options);
    };
    auto wire = load();
    const int meta_graphs =
        g.kind == TfKind::kSavedModel
            ? static_cast<tensorflow::SavedModel*>(reference.get())->meta_graphs_size()
            : 1;
    // Only a SavedModel with several MetaGraphDefs is parsed whole.
    EXPECT_EQ(wire->wire_graph() != nullptr, meta_graphs == 1);
    if (wire->wire_graph() == nullptr) continue;
    ++kept;
    EXPECT_TRUE(wire->wire_graph()->bytes() == bytes);  // loading leaves them as they are
    if (!wire->wire_graph()->functions().empty()) {
      // Kept as bytes, as libprotobuf writes them: TensorFlow's writers put a FunctionDef's
      // fields in another order, so these are the library's deterministic serialisation.
      ++with_library;
      EXPECT_TRUE(wire->wire_graph()->library_kept());
      EXPECT_FALSE(wire->wire_graph()->header().has_library());
      EXPECT_EQ(wire->wire_graph()->LibraryBytes(),
                testing::DeterministicBytes(testing::GraphOf(g.kind, *reference).library()));
    }
    auto parsed = load();
    EXPECT_EQ(testing::DeterministicBytes(parsed->root()),  // parses the nodes
              testing::DeterministicBytes(*reference));
    ASSERT_EQ(parsed->wire_graph(), nullptr);
    EXPECT_EQ(Inspect(*wire), Inspect(*parsed));
    compared += CompareExports(wire.get(), parsed.get());
    // After the first export every node is as libprotobuf writes it: TensorFlow's C++ writer
    // leaves attrs in hash order, and libprotobuf's order was written over the held bytes.
    ASSERT_NE(wire->wire_graph(), nullptr);
    EXPECT_TRUE(wire->wire_graph()->all_canonical());
    if (wire->wire_graph()->bytes() != bytes) ++rewritten;
  }
  EXPECT_GT(kept, 10);
  EXPECT_GT(with_library, 0);
  EXPECT_GT(rewritten, 5);
  EXPECT_GT(compared, 10 * 42);
}

TEST(WireGraphTest, CanonicalNodesAreCopiedAndTheOthersMarked) {
  auto graphs = Graphs();
  auto named = [&](const std::string& name) {
    for (const auto& [graph_name, bytes] : graphs) {
      if (graph_name == name) return bytes;
    }
    ADD_FAILURE() << "no graph " << name;
    return std::string();
  };
  auto odd = testing::LoadGraphDefBinary(named("hand-written nodes"));
  const WireGraph* wire = odd->wire_graph();
  ASSERT_NE(wire, nullptr);
  EXPECT_FALSE(wire->nodes()[0].canonical);  // as loaded
  odd->PrepareWireGraphForExport();          // what an export does first
  ASSERT_EQ(wire->nodes().size(), 4u);
  EXPECT_EQ(wire->name(0), "x");
  EXPECT_EQ(wire->name(1), "y");
  EXPECT_EQ(wire->op(2), "Identity");
  EXPECT_EQ(wire->op(3), "Identity");
  EXPECT_EQ(wire->ops().size(), 3u);  // Const, NoOp, Identity
  // Attrs b before a, the device after them: the same records in libprotobuf's order take as
  // many bytes, so the first export wrote that order over them, and copies the node.
  EXPECT_TRUE(wire->nodes()[0].canonical);
  tensorflow::NodeDef x;
  ASSERT_TRUE(x.ParseFromString(std::string(wire->NodeBytes(0))));
  EXPECT_EQ(wire->NodeBytes(0), testing::DeterministicBytes(x));
  EXPECT_EQ(x.attr().at("a").i(), 7);
  EXPECT_EQ(wire->nodes()[0].device_offset, 3u + 7u);  // after name and op, as now written
  EXPECT_EQ(wire->nodes()[0].device_bytes, 8u);
  // Written otherwise, but shorter (an empty device, left out) or with a field the schema
  // lacks (which a parse keeps for last): parsed when exported.
  EXPECT_FALSE(wire->nodes()[1].canonical);                // op before name, empty device
  EXPECT_FALSE(wire->nodes()[2].canonical);                // an unknown field
  EXPECT_EQ(wire->NodeBytes(1).substr(0, 2), "\x12\x04");  // left as it was: op first
  EXPECT_TRUE(wire->nodes()[3].canonical);
  EXPECT_TRUE(wire->nodes()[3].unbound_input);
  EXPECT_EQ(wire->nodes()[3].device_bytes, 8u);
  EXPECT_EQ(wire->nodes()[3].device_offset, 3u + 10u + 19u);  // after name, op and input
  auto far = testing::LoadGraphDefBinary(named("a device record past 64 KiB"));
  ASSERT_NE(far->wire_graph(), nullptr);
  EXPECT_EQ(far->wire_graph()->nodes()[0].device_offset, WireNode::kFarDevice);
  EXPECT_EQ(far->wire_graph()->nodes()[1].device_offset, 29u + 6u);
  EXPECT_EQ(wire->header().versions().producer(), 27);
  // The corpus nodes are all canonical: an export copies every one of them.
  auto corpus = testing::LoadGraphDefBinary(graphs.front().second);
  ASSERT_NE(corpus->wire_graph(), nullptr);
  EXPECT_TRUE(corpus->wire_graph()->all_canonical());
}

// A length prefix or a varint value with a padding byte (0x80, then 0x00) parses as the
// minimal one: such a node is not canonical, and an export writes it as libprotobuf does,
// never the input's bytes.
TEST(WireGraphTest, PaddedLengthsAndValuesAreWrittenAsLibprotobufWritesThem) {
  auto field = [](int number, const std::string& payload) {
    return std::string(1, static_cast<char>((number << 3) | 2)) +
           std::string(1, static_cast<char>(payload.size())) + payload;
  };
  const std::string op = field(2, "NoOp");
  const std::string padded_name = std::string("\x0a\x81\x00", 3) + "a" + op;
  const std::string padded_input = field(1, "b") + op + std::string("\x1a\x81\x00", 3) + "a";
  const std::string padded_value =
      field(1, "c") + op + field(5, field(1, "n") + field(2, std::string("\x18\x87\x00", 3)));
  const std::string padded_entry =
      field(1, "d") + op + std::string("\x2a\x87\x00", 3) + field(1, "n") + field(2, "\x18\x07");
  for (const std::string& node : {padded_name, padded_input, padded_value, padded_entry}) {
    const std::string bytes = field(1, field(1, "first") + op) + field(1, node);
    auto wire = testing::LoadGraphDefBinary(bytes);
    ASSERT_NE(wire->wire_graph(), nullptr);
    EXPECT_TRUE(wire->wire_graph()->nodes()[0].canonical);
    EXPECT_FALSE(wire->wire_graph()->nodes()[1].canonical);
    tensorflow::GraphDef parsed;
    ASSERT_TRUE(parsed.ParseFromString(bytes));
    const std::string expected = testing::DeterministicBytes(parsed);
    ASSERT_NE(expected, bytes);  // libprotobuf writes it shorter
    TfExportOptions options;
    options.to = TfKind::kGraphDef;
    auto [files, info] = ExportFiles(wire.get(), options);
    ASSERT_EQ(files.size(), 1u);
    EXPECT_TRUE(files[0].bytes == expected) << "the node's bytes were copied as they were";
  }
}

// A node rewritten in libprotobuf's order moves its records: its name, and the op list's view
// of an op first met in it, follow them.
TEST(WireGraphTest, RewritingANodeMovesWhatTheIndexViewsOfIt) {
  auto field = [](int number, const std::string& payload) {
    return std::string(1, static_cast<char>((number << 3) | 2)) +
           std::string(1, static_cast<char>(payload.size())) + payload;
  };
  const std::string graph = field(1, field(2, "Foo") + field(1, "first")) +
                            field(1, field(1, "second") + field(2, "Foo")) +
                            field(1, field(2, "Bar") + field(1, "third"));
  auto model = testing::LoadGraphDefBinary(graph);
  ASSERT_NE(model->wire_graph(), nullptr);
  model->PrepareWireGraphForExport();
  const WireGraph& wire = *model->wire_graph();
  EXPECT_TRUE(wire.all_canonical());
  EXPECT_EQ(wire.name(0), "first");
  EXPECT_EQ(wire.name(2), "third");
  EXPECT_EQ(wire.op(0), "Foo");
  EXPECT_EQ(wire.op(1), "Foo");
  EXPECT_EQ(wire.op(2), "Bar");
  ASSERT_EQ(wire.op_counts().size(), 2u);
  EXPECT_EQ(wire.op_counts()[0].first, "Bar");
  EXPECT_EQ(wire.op_counts()[1].first, "Foo");
  EXPECT_EQ(wire.op_counts()[1].second, 2u);
  EXPECT_EQ(wire.NodeBytes(0), field(1, "first") + field(2, "Foo"));
  EXPECT_EQ(Inspect(*model)["ops"], nlohmann::json({{"Bar", 1}, {"Foo", 2}}));
}

TEST(WireGraphTest, AScopedExportEditsNodeBytes) {
  auto model = testing::LoadGraphDefBinary(Graphs().back().second);
  ASSERT_NE(model->wire_graph(), nullptr);
  EXPECT_TRUE(model->wire_graph()->all_canonical());
  TfExportOptions options;
  options.to = TfKind::kGraphDef;
  options.export_scope = "s";
  options.clear_devices = true;
  auto files = ExportFiles(model.get(), options).first;
  ASSERT_EQ(files.size(), 1u);
  tensorflow::GraphDef graph;
  ASSERT_TRUE(graph.ParseFromString(files[0].bytes));
  ASSERT_EQ(graph.node_size(), 4);  // "outside" is left out
  EXPECT_EQ(graph.node(0).name(), "a");
  EXPECT_EQ(graph.node(0).device(), "");
  const auto& b = graph.node(1);
  ASSERT_EQ(b.input_size(), 4);
  EXPECT_EQ(b.input(0), "a:1");
  EXPECT_EQ(b.input(1), "^$unbound_inputs_outside");
  EXPECT_EQ(b.input(2), "$unbound_inputs_outside:1");
  // Outside the scope too, so renamed again, as TensorFlow does.
  EXPECT_EQ(b.input(3), "$unbound_inputs_$unbound_inputs_old");
  EXPECT_EQ(graph.node(2).name(), "");
  EXPECT_EQ(graph.node(3).attr().at("_class").list().s(0), "loc:@a");
  EXPECT_NE(model->wire_graph(), nullptr);  // written node by node, never parsed whole
}

// A graph with a library is written node by node too. Its stripped op list follows the calls
// (a function as an op, a func attr, a list of them) into the bodies, and leaves out what no
// node calls; stripDefaultAttrs keeps the attrs of a node that calls a function and strips the
// bodies' nodes.
TEST(WireGraphTest, ALibraryGraphIsWrittenNodeByNodeFollowingItsCalls) {
  auto model = testing::LoadGraphDefBinary(LibraryGraph());
  ASSERT_NE(model->wire_graph(), nullptr);
  // The library is its bytes, and what inspect() and the plan read of it.
  const WireGraph& wire = *model->wire_graph();
  EXPECT_TRUE(wire.library_kept());
  EXPECT_FALSE(wire.header().has_library());
  ASSERT_EQ(wire.functions().size(), 4u);
  EXPECT_EQ(wire.functions()[1].name, "f_nested");
  EXPECT_EQ(wire.functions()[1].node_count, 2u);
  // Written otherwise: kept as the library's deterministic serialisation.
  auto rewritten = testing::LoadGraphDefBinary(LibraryGraph(LibraryForm::kWrittenOtherwise));
  EXPECT_TRUE(rewritten->wire_graph()->library_kept());
  tensorflow::GraphDef reference;
  ASSERT_TRUE(reference.ParseFromString(LibraryGraph(LibraryForm::kWrittenOtherwise)));
  EXPECT_EQ(rewritten->wire_graph()->LibraryBytes(),
            testing::DeterministicBytes(reference.library()));
  EXPECT_NE(
      rewritten->wire_graph()->LibraryBytes(),
      std::string_view(rewritten->wire_graph()->bytes())
          .substr(rewritten->wire_graph()->bytes().size() - reference.library().ByteSizeLong()));
  // With a field the schema lacks it stays parsed, so that text output reports it.
  auto unknown = testing::LoadGraphDefBinary(LibraryGraph(LibraryForm::kUnknownField));
  ASSERT_NE(unknown->wire_graph(), nullptr);
  EXPECT_FALSE(unknown->wire_graph()->library_kept());
  EXPECT_TRUE(unknown->wire_graph()->header().has_library());
  EXPECT_EQ(unknown->wire_graph()->functions().size(), 5u);
  tensorflow::OpList registry;  // every op the graph might list, complete
  for (const char* op :
       {"AddV2", "Case", "MatMul", "Neg", "Sqrt", "Square", "StatefulPartitionedCall"}) {
    registry.add_op()->set_name(op);
  }
  tensorflow::OpDef* matmul = registry.mutable_op(2);
  for (const char* attr : {"transpose_a", "transpose_b"}) {
    tensorflow::OpDef::AttrDef* def = matmul->add_attr();
    def->set_name(attr);
    def->set_type("bool");
    def->mutable_default_value()->set_b(false);
  }
  TfExportOptions options;
  options.to = TfKind::kMetaGraphDef;
  options.clear_devices = true;
  options.strip_default_attrs = true;
  options.op_registry = &registry;
  auto [files, info] = ExportFiles(model.get(), options);
  EXPECT_NE(model->wire_graph(), nullptr);  // never parsed whole
  EXPECT_EQ(info["strippedOpList"], nlohmann::json({"AddV2", "Case", "MatMul", "Neg", "Square",
                                                    "StatefulPartitionedCall"}));
  EXPECT_EQ(info["unregisteredOps"], nlohmann::json::array());
  EXPECT_EQ(info["strippedDefaultAttrs"], 2);  // s/mm's transpose_a and f_mm's transpose_b
  ASSERT_EQ(files.size(), 1u);
  tensorflow::MetaGraphDef exported;
  ASSERT_TRUE(exported.ParseFromString(files[0].bytes));
  const tensorflow::GraphDef& graph = exported.graph_def();
  ASSERT_EQ(graph.node_size(), 5);
  EXPECT_EQ(graph.node(0).attr().count("transpose_a"), 1u);  // s/call calls f_mm
  EXPECT_EQ(graph.node(0).device(), "");
  EXPECT_EQ(graph.node(1).attr().count("transpose_a"), 0u);
  ASSERT_EQ(graph.library().function_size(), 4);
  EXPECT_EQ(graph.library().function(0).node_def(0).attr().count("transpose_b"), 0u);
  EXPECT_FALSE(model->wire_graph()->library_kept() && model->wire_graph()->header().has_library());
  // Without stripDefaultAttrs the library is written as its bytes.
  options.strip_default_attrs = false;
  auto copied = ExportFiles(model.get(), options).first;
  ASSERT_EQ(copied.size(), 1u);
  ASSERT_TRUE(exported.ParseFromString(copied[0].bytes));
  EXPECT_EQ(testing::DeterministicBytes(exported.graph_def().library()),
            std::string(model->wire_graph()->LibraryBytes()));
  EXPECT_EQ(exported.graph_def().library().function(0).node_def(0).attr().count("transpose_b"), 1u);
}

TEST(WireGraphTest, InputTheIndexCannotVouchForIsParsedWithTheExactError) {
  // A name that is not UTF-8: libprotobuf's parse refuses it, with the offset.
  std::string bad = std::string("\x0a\x03\x0a\x01\xff", 5);
  MemorySource source(bad);
  TfLoadOptions options;
  options.format = "graph-def-binary";
  options.name = "bad.pb";
  try {
    TfModel::Load(&source, options);
    FAIL() << "loaded";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kParseError) << e.what();
    EXPECT_NE(std::string(e.what()).find("bad.pb"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace graphport::tf

// Writes a synthetic, deterministic TensorFlow GraphDef for the benchmarks.
//
//   graphport_make_graph weights [OUT] [--mib N]   an MLP of MatMul/BiasAdd/Relu layers whose
//       weights are Const nodes with float tensor_content of 0.5-2 MiB each, until the weights
//       reach N MiB (default 200). ~5 nodes per layer: about 1,000 nodes for 200 MiB.
//   graphport_make_graph nodes [OUT] [--nodes N]   N small nodes (default 200,000; ~40 MB) in
//       blocks of Const/Add/Mul/Relu/Identity with devices and _output_shapes, no weights.
//
// OUT defaults to bench/out/weights.pb or bench/out/nodes.pb (relative to the working
// directory). The file is streamed node by node (a GraphDef is `repeated NodeDef node = 1`
// followed by its other fields), so the generator never holds the whole graph in memory. The
// same arguments always give the same bytes.
#include <fcntl.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "tensorflow/graph.pb.h"

namespace {

namespace io = google::protobuf::io;

// A fixed-seed generator: the bytes depend on nothing but the arguments.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    state_ ^= state_ << 13;
    state_ ^= state_ >> 7;
    state_ ^= state_ << 17;
    return state_;
  }
  int Range(int lo, int hi) { return lo + static_cast<int>(Next() % uint64_t(hi - lo + 1)); }

 private:
  uint64_t state_;
};

// Streams a GraphDef: nodes one at a time, then the versions.
class GraphWriter {
 public:
  explicit GraphWriter(int fd) : file_(fd), out_(new io::CodedOutputStream(&file_)) {
    out_->SetSerializationDeterministic(true);
  }

  void Add(const tensorflow::NodeDef& node) {
    out_->WriteTag(tensorflow::GraphDef::kNodeFieldNumber << 3 | 2);
    out_->WriteVarint64(node.ByteSizeLong());
    node.SerializeWithCachedSizes(out_.get());
    ++nodes_;
  }

  // Writes the tail, flushes and closes the file; false on any write error.
  bool Finish() {
    tensorflow::GraphDef tail;
    tail.mutable_versions()->set_producer(1205);
    tail.mutable_versions()->set_min_consumer(12);
    tail.SerializeToCodedStream(out_.get());
    bool ok = !out_->HadError();
    bytes_ = out_->ByteCount();
    out_.reset();
    return file_.Close() && ok;
  }

  int64_t nodes() const { return nodes_; }
  int64_t bytes() const { return bytes_; }

 private:
  io::FileOutputStream file_;
  std::unique_ptr<io::CodedOutputStream> out_;
  int64_t nodes_ = 0;
  int64_t bytes_ = 0;
};

const char kDevice[] = "/job:localhost/replica:0/task:0/device:CPU:0";

void SetType(tensorflow::NodeDef* node, const char* attr, tensorflow::DataType type) {
  (*node->mutable_attr())[attr].set_type(type);
}

void AddShapeAttr(tensorflow::NodeDef* node, std::initializer_list<int64_t> dims) {
  auto* shape = (*node->mutable_attr())["_output_shapes"].mutable_list()->add_shape();
  for (int64_t d : dims) shape->add_dim()->set_size(d);
}

tensorflow::NodeDef Op(const std::string& name, const char* op,
                       std::initializer_list<std::string> inputs) {
  tensorflow::NodeDef node;
  node.set_name(name);
  node.set_op(op);
  for (const auto& in : inputs) node.add_input(in);
  node.set_device(kDevice);
  SetType(&node, "T", tensorflow::DT_FLOAT);
  return node;
}

// A float Const of shape `dims` whose tensor_content is filled from `rng`.
tensorflow::NodeDef FloatConst(const std::string& name, std::vector<int64_t> dims, Rng* rng) {
  tensorflow::NodeDef node;
  node.set_name(name);
  node.set_op("Const");
  node.set_device(kDevice);
  SetType(&node, "dtype", tensorflow::DT_FLOAT);
  tensorflow::TensorProto* tensor = (*node.mutable_attr())["value"].mutable_tensor();
  tensor->set_dtype(tensorflow::DT_FLOAT);
  int64_t count = 1;
  for (int64_t d : dims) {
    tensor->mutable_tensor_shape()->add_dim()->set_size(d);
    count *= d;
  }
  std::string* content = tensor->mutable_tensor_content();
  content->resize(static_cast<size_t>(count) * sizeof(float));
  char* p = content->data();
  for (int64_t i = 0; i < count; ++i) {
    // Small weights in [-0.125, 0.125), like an initialised layer.
    float f =
        static_cast<float>(static_cast<int32_t>(rng->Next() >> 32)) * (0.125f / 2147483648.0f);
    std::memcpy(p + i * sizeof(float), &f, sizeof(float));
  }
  return node;
}

// Weights-heavy: Placeholder -> [MatMul(W) -> BiasAdd(b) -> Relu] x layers -> Identity.
void WriteWeights(GraphWriter* w, int64_t weight_bytes_wanted) {
  Rng rng(0x9e3779b97f4a7c15ull);
  tensorflow::NodeDef input;
  input.set_name("input");
  input.set_op("Placeholder");
  SetType(&input, "dtype", tensorflow::DT_FLOAT);
  {
    auto* shape = (*input.mutable_attr())["shape"].mutable_shape();
    shape->add_dim()->set_size(-1);
    shape->add_dim()->set_size(512);
  }
  w->Add(input);
  // Widths in [362, 724]: a [w_in, w_out] float matrix is then 0.5-2 MiB.
  int64_t width = 512;
  std::string x = "input";
  int64_t weight_bytes = 0;
  for (int layer = 0; weight_bytes < weight_bytes_wanted; ++layer) {
    int64_t next = rng.Range(362, 724);
    std::string scope = "dense_" + std::to_string(layer) + "/";
    tensorflow::NodeDef kernel = FloatConst(scope + "kernel", {width, next}, &rng);
    weight_bytes += width * next * 4;
    w->Add(kernel);
    w->Add(FloatConst(scope + "bias", {next}, &rng));
    weight_bytes += next * 4;
    tensorflow::NodeDef matmul = Op(scope + "MatMul", "MatMul", {x, scope + "kernel"});
    (*matmul.mutable_attr())["transpose_a"].set_b(false);
    (*matmul.mutable_attr())["transpose_b"].set_b(false);
    AddShapeAttr(&matmul, {-1, next});
    w->Add(matmul);
    tensorflow::NodeDef bias_add =
        Op(scope + "BiasAdd", "BiasAdd", {scope + "MatMul", scope + "bias"});
    (*bias_add.mutable_attr())["data_format"].set_s("NHWC");
    AddShapeAttr(&bias_add, {-1, next});
    w->Add(bias_add);
    tensorflow::NodeDef relu = Op(scope + "Relu", "Relu", {scope + "BiasAdd"});
    AddShapeAttr(&relu, {-1, next});
    w->Add(relu);
    x = scope + "Relu";
    width = next;
  }
  w->Add(Op("output", "Identity", {x}));
}

// Node-heavy: blocks of 8 small nodes, each block fed by the previous one.
void WriteNodes(GraphWriter* w, int64_t wanted) {
  Rng rng(0x2545f4914f6cdd1dull);
  tensorflow::NodeDef input;
  input.set_name("input");
  input.set_op("Placeholder");
  SetType(&input, "dtype", tensorflow::DT_FLOAT);
  w->Add(input);
  std::string x = "input";
  int64_t block = 0;
  while (w->nodes() < wanted) {
    char scope[96];  // room for any two int64 values
    std::snprintf(scope, sizeof scope, "model/encoder/layers/stage_%02lld/block_%05lld/",
                  (long long)(block / 1000), (long long)block);
    std::string s = scope;
    int64_t dim = rng.Range(8, 256);
    // Two tiny scalar constants (float_val, no tensor_content).
    for (const char* c : {"scale", "shift"}) {
      tensorflow::NodeDef k;
      k.set_name(s + c);
      k.set_op("Const");
      k.set_device(kDevice);
      SetType(&k, "dtype", tensorflow::DT_FLOAT);
      auto* t = (*k.mutable_attr())["value"].mutable_tensor();
      t->set_dtype(tensorflow::DT_FLOAT);
      t->mutable_tensor_shape();
      t->add_float_val(static_cast<float>(rng.Range(1, 1000)) / 1000.0f);
      w->Add(k);
    }
    tensorflow::NodeDef mul = Op(s + "mul", "Mul", {x, s + "scale"});
    AddShapeAttr(&mul, {-1, 16, 16, dim});
    w->Add(mul);
    tensorflow::NodeDef add = Op(s + "add", "AddV2", {s + "mul", s + "shift"});
    AddShapeAttr(&add, {-1, 16, 16, dim});
    w->Add(add);
    tensorflow::NodeDef relu = Op(s + "relu", "Relu", {s + "add"});
    AddShapeAttr(&relu, {-1, 16, 16, dim});
    w->Add(relu);
    tensorflow::NodeDef ident = Op(s + "out", "Identity", {s + "relu", "^" + s + "mul"});
    w->Add(ident);
    x = s + "out";
    ++block;
  }
}

int Usage() {
  std::fprintf(stderr,
               "usage: graphport_make_graph weights [OUT] [--mib N]\n"
               "       graphport_make_graph nodes [OUT] [--nodes N]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return Usage();
  std::string kind = argv[1];
  if (kind != "weights" && kind != "nodes") return Usage();
  std::string out = "bench/out/" + kind + ".pb";
  int64_t mib = 200;
  int64_t nodes = 200000;
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--mib" && i + 1 < argc) {
      mib = std::atoll(argv[++i]);
    } else if (a == "--nodes" && i + 1 < argc) {
      nodes = std::atoll(argv[++i]);
    } else if (!a.empty() && a[0] != '-') {
      out = a;
    } else {
      return Usage();
    }
  }
  // Written beside the target and renamed, so an interrupted run never leaves a valid-looking
  // half file for the cache in bench/run.sh.
  std::string tmp = out + ".tmp";
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) {
    std::fprintf(stderr, "make_graph: cannot write %s: %s\n", tmp.c_str(), std::strerror(errno));
    return 1;
  }
  bool ok;
  int64_t count, bytes;
  {
    GraphWriter w(fd);
    if (kind == "weights") {
      WriteWeights(&w, mib << 20);
    } else {
      WriteNodes(&w, nodes);
    }
    ok = w.Finish();
    count = w.nodes();
    bytes = w.bytes();
  }
  if (!ok || std::rename(tmp.c_str(), out.c_str()) != 0) {
    std::fprintf(stderr, "make_graph: writing %s failed\n", out.c_str());
    std::remove(tmp.c_str());
    return 1;
  }
  std::printf("%s: %s GraphDef, %lld nodes, %lld bytes (%.1f MiB)\n", out.c_str(), kind.c_str(),
              (long long)count, (long long)bytes, bytes / 1048576.0);
  return 0;
}

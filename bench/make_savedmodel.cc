// Writes a synthetic, deterministic TF2 SavedModel folder for the freeze benchmarks, laid out
// as TensorFlow 2 / Keras saves one (../shared/research/savedmodel_freeze.md §1-2):
//
//   OUT/saved_model.pb      the signature serving_default: a StatefulPartitionedCall of the
//                           wrapper function, fed the input and one VarHandleOp per variable;
//                           the wrapper calls the model's function, whose body reads each
//                           variable (ReadVariableOp) into Conv2D/MatMul + BiasAdd (+ Relu)
//                           layers named sequential/conv2d_3/..., sequential/dense_12/...; the
//                           object graph binds the captured resources to variable objects.
//   OUT/variables/          a TensorBundle: variables.index + variables.data-00000-of-00001,
//                           the weights under layer_with_weights-N/{kernel,bias}/.ATTRIBUTES/
//                           VARIABLE_VALUE and the checkpoint's object graph, crc32c correct.
//
//   graphport_make_savedmodel freeze200 [OUT] [--mib N]   Conv2D layers of 3x3 kernels with
//       320-512 channels (5-9 MiB each) until the variables reach N MiB (default 200), then a
//       global average (Mean) and two Dense layers: a few dozen layers.
//   graphport_make_savedmodel keras5k [OUT] [--layers N]  N small layers (default 700), half
//       Conv2D (8-32 channels), then a Mean, then Dense (16-64): 4,908 nodes in the SavedModel
//       (1,402 at the top, 3,506 in its functions), 6,309 once inlined and frozen, 2,104 after
//       tfjs-converter's optimizations.
//
// OUT defaults to bench/out/<kind>. The weights are streamed into the data file as they are
// made, so the generator never holds them. The same arguments always give the same bytes.
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench/tensor_bundle_writer.h"
#include "tensorflow/saved_model.pb.h"
#include "tensorflow/trackable_object_graph.pb.h"

namespace {

using graphport::bench::TensorBundleWriter;

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

struct Layer {
  bool conv = false;  // Conv2D 3x3 SAME, else MatMul
  bool relu = true;
  int64_t in = 0;
  int64_t out = 0;
  std::string name;  // conv2d_3, dense_12
  std::vector<int64_t> kernel_shape() const {
    return conv ? std::vector<int64_t>{3, 3, in, out} : std::vector<int64_t>{in, out};
  }
  int64_t kernel_bytes() const { return (conv ? 9 : 1) * in * out * 4; }
};

Layer MakeLayer(bool conv, bool relu, int64_t in, int64_t out) {
  Layer l;
  l.conv = conv;
  l.relu = relu;
  l.in = in;
  l.out = out;
  return l;
}

struct Spec {
  std::vector<int64_t> input_shape;  // -1 for the batch
  std::vector<Layer> layers;         // the conv layers first, then a Mean, then the dense ones
};

void Name(std::vector<Layer>* layers) {
  int convs = 0;
  int denses = 0;
  for (Layer& l : *layers) {
    int& n = l.conv ? convs : denses;
    l.name = std::string(l.conv ? "conv2d" : "dense") + (n == 0 ? "" : "_" + std::to_string(n));
    ++n;
  }
}

Spec Freeze200(int64_t mib) {
  Rng rng(0x9e3779b97f4a7c15ull);
  Spec spec;
  spec.input_shape = {-1, 16, 16, 3};
  const int64_t head = 512 * 1024 * 4 + 1024 * 1000 * 4;  // the two Dense layers' kernels
  int64_t bytes = 0;
  int64_t width = 3;
  while (bytes + head < (mib << 20)) {
    int64_t next = width == 3 ? 64 : rng.Range(320, 512);
    Layer l = MakeLayer(true, true, width, next);
    bytes += l.kernel_bytes() + next * 4;
    spec.layers.push_back(l);
    width = next;
  }
  spec.layers.push_back(MakeLayer(false, true, width, 1024));
  spec.layers.push_back(MakeLayer(false, false, 1024, 1000));
  Name(&spec.layers);
  return spec;
}

Spec Keras5k(int layers) {
  Rng rng(0x2545f4914f6cdd1dull);
  Spec spec;
  spec.input_shape = {-1, 8, 8, 3};
  int64_t width = 3;
  for (int i = 0; i < layers; ++i) {
    bool conv = i < layers / 2;
    int64_t next = conv ? rng.Range(8, 32) : rng.Range(16, 64);
    spec.layers.push_back(MakeLayer(conv, i + 1 < layers, width, next));
    width = next;
  }
  Name(&spec.layers);
  return spec;
}

// --- the graph -------------------------------------------------------------------------------

void SetType(tensorflow::NodeDef* node, const char* attr, tensorflow::DataType type) {
  (*node->mutable_attr())[attr].set_type(type);
}

void SetShape(tensorflow::TensorShapeProto* shape, const std::vector<int64_t>& dims) {
  shape->Clear();
  for (int64_t d : dims) shape->add_dim()->set_size(d);
}

void SetInts(tensorflow::NodeDef* node, const char* attr, std::initializer_list<int64_t> values) {
  auto* list = (*node->mutable_attr())[attr].mutable_list();
  for (int64_t v : values) list->add_i(v);
}

tensorflow::NodeDef* Add(tensorflow::FunctionDef* f, const std::string& name, const char* op,
                         std::initializer_list<std::string> inputs) {
  tensorflow::NodeDef* node = f->add_node_def();
  node->set_name(name);
  node->set_op(op);
  for (const auto& in : inputs) node->add_input(in);
  return node;
}

// The attrs a traced call of a function carries.
void CallAttrs(tensorflow::NodeDef* call, const std::string& function, int user_inputs,
               int resources) {
  auto* tin = (*call->mutable_attr())["Tin"].mutable_list();
  for (int i = 0; i < user_inputs; ++i) tin->add_type(tensorflow::DT_FLOAT);
  for (int i = 0; i < resources; ++i) tin->add_type(tensorflow::DT_RESOURCE);
  (*call->mutable_attr())["Tout"].mutable_list()->add_type(tensorflow::DT_FLOAT);
  (*call->mutable_attr())["f"].mutable_func()->set_name(function);
  auto* read_only = (*call->mutable_attr())["_read_only_resource_inputs"].mutable_list();
  for (int i = 0; i < resources; ++i) read_only->add_i(user_inputs + i);
  (*call->mutable_attr())["_collective_manager_ids"].mutable_list();
  (*call->mutable_attr())["config"].set_s("");
  (*call->mutable_attr())["config_proto"].set_s("");
  (*call->mutable_attr())["executor_type"].set_s("");
}

tensorflow::OpDef::ArgDef* ResourceArg(tensorflow::FunctionDef* f, const std::string& name,
                                       const std::vector<int64_t>& shape) {
  auto* arg = f->mutable_signature()->add_input_arg();
  arg->set_name(name);
  arg->set_type(tensorflow::DT_RESOURCE);
  auto* handle = arg->add_handle_data();
  handle->set_dtype(tensorflow::DT_FLOAT);
  SetShape(handle->mutable_shape(), shape);
  return arg;
}

// "sequential/conv2d_3/BiasAdd/ReadVariableOp" -> the resource argument's name TensorFlow
// gives it: lower case, '/' as '_', "_resource" appended.
std::string ResourceArgName(const std::string& read) {
  std::string name;
  for (char c : read) name += c == '/' ? '_' : static_cast<char>(std::tolower(c));
  return name + "_resource";
}

// The model's function: the input, then one resource per variable (kernel, bias per layer).
tensorflow::FunctionDef ModelFunction(const Spec& spec, const std::string& name) {
  tensorflow::FunctionDef f;
  f.mutable_signature()->set_name(name);
  f.mutable_signature()->set_is_stateful(true);
  auto* input = f.mutable_signature()->add_input_arg();
  input->set_name("input_1");
  input->set_type(tensorflow::DT_FLOAT);
  auto* shapes = (*f.mutable_attr())["_input_shapes"].mutable_list();
  SetShape(shapes->add_shape(), spec.input_shape);
  std::string x = "input_1";
  std::vector<std::string> reads;
  bool pooled = false;
  for (const Layer& l : spec.layers) {
    const std::string scope = "sequential/" + l.name + "/";
    if (!l.conv && !pooled && spec.layers.front().conv) {
      // Global average pooling between the convolutions and the dense layers.
      const std::string pool = "sequential/global_average_pooling2d/Mean";
      tensorflow::NodeDef* axes = Add(&f, pool + "/reduction_indices", "Const", {});
      SetType(axes, "dtype", tensorflow::DT_INT32);
      auto* t = (*axes->mutable_attr())["value"].mutable_tensor();
      t->set_dtype(tensorflow::DT_INT32);
      SetShape(t->mutable_tensor_shape(), {2});
      t->add_int_val(1);
      t->add_int_val(2);
      tensorflow::NodeDef* mean = Add(&f, pool, "Mean", {x, pool + "/reduction_indices:output:0"});
      SetType(mean, "T", tensorflow::DT_FLOAT);
      SetType(mean, "Tidx", tensorflow::DT_INT32);
      (*mean->mutable_attr())["keep_dims"].set_b(false);
      x = pool + ":output:0";
      pooled = true;
    }
    const std::string op = l.conv ? "Conv2D" : "MatMul";
    const std::string kernel_read = scope + op + "/ReadVariableOp";
    const std::string bias_read = scope + "BiasAdd/ReadVariableOp";
    for (const auto& [read, shape] :
         {std::pair{kernel_read, l.kernel_shape()}, std::pair{bias_read, std::vector{l.out}}}) {
      std::string arg = ResourceArgName(read);
      ResourceArg(&f, arg, shape);
      SetShape(shapes->add_shape(), {});
      tensorflow::NodeDef* node = Add(&f, read, "ReadVariableOp", {arg});
      SetType(node, "dtype", tensorflow::DT_FLOAT);
      reads.push_back(read);
    }
    tensorflow::NodeDef* contraction =
        Add(&f, scope + op, op.c_str(), {x, kernel_read + ":value:0"});
    SetType(contraction, "T", tensorflow::DT_FLOAT);
    if (l.conv) {
      SetInts(contraction, "strides", {1, 1, 1, 1});
      SetInts(contraction, "dilations", {1, 1, 1, 1});
      (*contraction->mutable_attr())["padding"].set_s("SAME");
      (*contraction->mutable_attr())["data_format"].set_s("NHWC");
      (*contraction->mutable_attr())["use_cudnn_on_gpu"].set_b(true);
      (*contraction->mutable_attr())["explicit_paddings"].mutable_list();
    } else {
      (*contraction->mutable_attr())["transpose_a"].set_b(false);
      (*contraction->mutable_attr())["transpose_b"].set_b(false);
    }
    tensorflow::NodeDef* bias =
        Add(&f, scope + "BiasAdd", "BiasAdd",
            {scope + op + (l.conv ? ":output:0" : ":product:0"), bias_read + ":value:0"});
    SetType(bias, "T", tensorflow::DT_FLOAT);
    (*bias->mutable_attr())["data_format"].set_s("NHWC");
    x = scope + "BiasAdd:output:0";
    if (l.relu) {
      SetType(Add(&f, scope + "Relu", "Relu", {x}), "T", tensorflow::DT_FLOAT);
      x = scope + "Relu:activations:0";
    }
  }
  tensorflow::NodeDef* identity = Add(&f, "Identity", "Identity", {x, "^NoOp"});
  SetType(identity, "T", tensorflow::DT_FLOAT);
  tensorflow::NodeDef* noop = Add(&f, "NoOp", "NoOp", {});
  for (const auto& read : reads) noop->add_input("^" + read);
  auto* out = f.mutable_signature()->add_output_arg();
  out->set_name("identity");
  out->set_type(tensorflow::DT_FLOAT);
  (*f.mutable_ret())["identity"] = "Identity:output:0";
  f.mutable_signature()->add_control_output("NoOp");
  (*f.mutable_control_ret())["NoOp"] = "NoOp";
  return f;
}

// The signature's wrapper: input_1, unknown, unknown_0, ... calling the model's function.
tensorflow::FunctionDef Wrapper(const Spec& spec, const std::string& name,
                                const std::string& model) {
  tensorflow::FunctionDef f;
  f.mutable_signature()->set_name(name);
  f.mutable_signature()->set_is_stateful(true);
  auto* input = f.mutable_signature()->add_input_arg();
  input->set_name("input_1");
  input->set_type(tensorflow::DT_FLOAT);
  auto* shapes = (*f.mutable_attr())["_input_shapes"].mutable_list();
  SetShape(shapes->add_shape(), spec.input_shape);
  tensorflow::NodeDef* call =
      Add(&f, "StatefulPartitionedCall", "StatefulPartitionedCall", {"input_1"});
  int k = 0;
  for (const Layer& l : spec.layers) {
    for (const auto& shape : {l.kernel_shape(), std::vector{l.out}}) {
      std::string arg = k == 0 ? "unknown" : "unknown_" + std::to_string(k - 1);
      ResourceArg(&f, arg, shape);
      SetShape(shapes->add_shape(), {});
      call->add_input(arg);
      ++k;
    }
  }
  CallAttrs(call, model, 1, k);
  tensorflow::NodeDef* identity =
      Add(&f, "Identity", "Identity", {"StatefulPartitionedCall:output:0", "^NoOp"});
  SetType(identity, "T", tensorflow::DT_FLOAT);
  Add(&f, "NoOp", "NoOp", {"^StatefulPartitionedCall"});
  auto* out = f.mutable_signature()->add_output_arg();
  out->set_name("identity");
  out->set_type(tensorflow::DT_FLOAT);
  (*f.mutable_ret())["identity"] = "Identity:output:0";
  f.mutable_signature()->add_control_output("StatefulPartitionedCall");
  (*f.mutable_control_ret())["StatefulPartitionedCall"] = "StatefulPartitionedCall";
  return f;
}

// --- the object graphs -----------------------------------------------------------------------

// Node ids, the same in the SavedModel's object graph and the checkpoint's: 0 the root,
// 1 its signatures, 2 serving_default, then per layer its object, kernel and bias.
constexpr int kFirstLayerObject = 3;

std::string CheckpointKey(size_t layer, const char* variable) {
  return "layer_with_weights-" + std::to_string(layer) + "/" + variable +
         "/.ATTRIBUTES/VARIABLE_VALUE";
}

void Child(google::protobuf::RepeatedPtrField<
               tensorflow::TrackableObjectGraph::TrackableObject::ObjectReference>* children,
           int id, const std::string& name) {
  auto* ref = children->Add();
  ref->set_node_id(id);
  ref->set_local_name(name);
}

void UserObject(tensorflow::SavedObject* object, const char* identifier) {
  object->mutable_user_object()->set_identifier(identifier);
  object->mutable_user_object()->mutable_version()->set_producer(1);
  object->mutable_user_object()->mutable_version()->set_min_consumer(1);
}

void ObjectGraphs(const Spec& spec, const std::string& wrapper, tensorflow::SavedObjectGraph* saved,
                  tensorflow::TrackableObjectGraph* checkpoint) {
  auto* root = saved->add_nodes();
  UserObject(root, "_generic_user_object");
  Child(root->mutable_children(), 1, "signatures");
  UserObject(saved->add_nodes(), "signature_map");
  Child(saved->mutable_nodes(1)->mutable_children(), 2, "serving_default");
  auto* function = saved->add_nodes()->mutable_bare_concrete_function();
  function->set_concrete_function_name(wrapper);
  function->add_argument_keywords("input_1");
  auto& concrete = (*saved->mutable_concrete_functions())[wrapper];
  for (size_t i = 0; i < spec.layers.size(); ++i) {
    const Layer& l = spec.layers[i];
    int id = kFirstLayerObject + 3 * static_cast<int>(i);
    Child(saved->mutable_nodes(0)->mutable_children(), id,
          "layer_with_weights-" + std::to_string(i));
    auto* layer = saved->add_nodes();
    UserObject(layer, "_tf_keras_layer");
    Child(layer->mutable_children(), id + 1, "kernel");
    Child(layer->mutable_children(), id + 2, "bias");
    for (const auto& [suffix, shape] :
         {std::pair{"kernel", l.kernel_shape()}, std::pair{"bias", std::vector{l.out}}}) {
      auto* v = saved->add_nodes()->mutable_variable();
      v->set_dtype(tensorflow::DT_FLOAT);
      SetShape(v->mutable_shape(), shape);
      v->set_trainable(true);
      v->set_name(l.name + "/" + suffix);
    }
    concrete.add_bound_inputs(id + 1);
    concrete.add_bound_inputs(id + 2);
  }
  // The checkpoint's graph: the same nodes and children; variables name their keys.
  for (int i = 0; i < saved->nodes_size(); ++i) {
    auto* node = checkpoint->add_nodes();
    *node->mutable_children() = saved->nodes(i).children();
    if (i >= kFirstLayerObject && (i - kFirstLayerObject) % 3 != 0) {
      size_t layer = static_cast<size_t>((i - kFirstLayerObject) / 3);
      const char* variable = (i - kFirstLayerObject) % 3 == 1 ? "kernel" : "bias";
      auto* attribute = node->add_attributes();
      attribute->set_name("VARIABLE_VALUE");
      attribute->set_full_name(spec.layers[layer].name + "/" + variable);
      attribute->set_checkpoint_key(CheckpointKey(layer, variable));
    }
  }
}

// --- the files -------------------------------------------------------------------------------

tensorflow::SavedModel MakeSavedModel(const Spec& spec, tensorflow::TrackableObjectGraph* objects) {
  const std::string wrapper =
      "__inference_signature_wrapper_" + std::to_string(1000 + 7 * spec.layers.size());
  const std::string model =
      "__inference__wrapped_model_" + std::to_string(900 + 7 * spec.layers.size());
  tensorflow::SavedModel saved_model;
  saved_model.set_saved_model_schema_version(1);
  tensorflow::MetaGraphDef* meta = saved_model.add_meta_graphs();
  meta->mutable_meta_info_def()->add_tags("serve");
  meta->mutable_meta_info_def()->set_tensorflow_version("2.15.0");
  meta->mutable_meta_info_def()->set_tensorflow_git_version("v2.15.0-0-g6887368d6d4");
  tensorflow::GraphDef* graph = meta->mutable_graph_def();
  graph->mutable_versions()->set_producer(1645);
  graph->mutable_versions()->set_min_consumer(12);

  tensorflow::NodeDef* input = graph->add_node();
  input->set_name("serving_default_input_1");
  input->set_op("Placeholder");
  SetType(input, "dtype", tensorflow::DT_FLOAT);
  SetShape((*input->mutable_attr())["shape"].mutable_shape(), spec.input_shape);
  std::vector<std::string> handles;
  for (const Layer& l : spec.layers) {
    for (const auto& [suffix, shape] :
         {std::pair{"kernel", l.kernel_shape()}, std::pair{"bias", std::vector{l.out}}}) {
      tensorflow::NodeDef* handle = graph->add_node();
      handle->set_name(l.name + "/" + suffix);
      handle->set_op("VarHandleOp");
      SetType(handle, "dtype", tensorflow::DT_FLOAT);
      SetShape((*handle->mutable_attr())["shape"].mutable_shape(), shape);
      (*handle->mutable_attr())["shared_name"].set_s(handle->name());
      (*handle->mutable_attr())["container"].set_s("");
      (*handle->mutable_attr())["allowed_devices"].mutable_list();
      handles.push_back(handle->name());
    }
  }
  tensorflow::NodeDef* call = graph->add_node();
  call->set_name("StatefulPartitionedCall");
  call->set_op("StatefulPartitionedCall");
  call->add_input("serving_default_input_1");
  for (const auto& h : handles) call->add_input(h);
  CallAttrs(call, wrapper, 1, static_cast<int>(handles.size()));
  *graph->mutable_library()->add_function() = Wrapper(spec, wrapper, model);
  *graph->mutable_library()->add_function() = ModelFunction(spec, model);

  tensorflow::SignatureDef& signature = (*meta->mutable_signature_def())["serving_default"];
  signature.set_method_name("tensorflow/serving/predict");
  tensorflow::TensorInfo& in = (*signature.mutable_inputs())["input_1"];
  in.set_name("serving_default_input_1:0");
  in.set_dtype(tensorflow::DT_FLOAT);
  SetShape(in.mutable_tensor_shape(), spec.input_shape);
  tensorflow::TensorInfo& out = (*signature.mutable_outputs())["output_0"];
  out.set_name("StatefulPartitionedCall:0");
  out.set_dtype(tensorflow::DT_FLOAT);
  SetShape(out.mutable_tensor_shape(), {-1, spec.layers.back().out});

  ObjectGraphs(spec, wrapper, meta->mutable_object_graph_def(), objects);
  return saved_model;
}

// Each variable's values streamed in 1 MiB pieces: small weights in [-0.125, 0.125), biases
// near 0.01, like an initialised layer.
void WriteVariables(const Spec& spec, const tensorflow::TrackableObjectGraph& objects,
                    TensorBundleWriter* bundle) {
  Rng rng(0x5851f42d4c957f2dull);
  auto floats = [&rng](int64_t count, float scale) {
    return [&rng, scale, left = count](std::string* piece) mutable {
      int64_t n = std::min<int64_t>(left, 1 << 18);
      piece->resize(static_cast<size_t>(n) * sizeof(float));
      for (int64_t i = 0; i < n; ++i) {
        float f =
            static_cast<float>(static_cast<int32_t>(rng.Next() >> 32)) * (scale / 2147483648.0f);
        std::memcpy(piece->data() + i * sizeof(float), &f, sizeof(float));
      }
      left -= n;
      return left > 0;
    };
  };
  for (size_t i = 0; i < spec.layers.size(); ++i) {
    const Layer& l = spec.layers[i];
    bundle->AddTensor(CheckpointKey(i, "kernel"), tensorflow::DT_FLOAT, l.kernel_shape(),
                      floats(l.kernel_bytes() / 4, 0.125f));
    bundle->AddTensor(CheckpointKey(i, "bias"), tensorflow::DT_FLOAT, {l.out},
                      floats(l.out, 0.01f));
  }
  bundle->AddScalarString("_CHECKPOINTABLE_OBJECT_GRAPH", objects.SerializeAsString());
}

bool WriteFile(const std::string& path, const std::string& bytes) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return false;
  bool wrote = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  return std::fclose(f) == 0 && wrote;
}

int Usage() {
  std::fprintf(stderr,
               "usage: graphport_make_savedmodel freeze200 [OUT] [--mib N]\n"
               "       graphport_make_savedmodel keras5k [OUT] [--layers N]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return Usage();
  std::string kind = argv[1];
  if (kind != "freeze200" && kind != "keras5k") return Usage();
  std::string out = "bench/out/" + kind;
  int64_t mib = 200;
  int layers = 700;
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--mib" && i + 1 < argc) {
      mib = std::atoll(argv[++i]);
    } else if (a == "--layers" && i + 1 < argc) {
      layers = std::atoi(argv[++i]);
    } else if (!a.empty() && a[0] != '-') {
      out = a;
    } else {
      return Usage();
    }
  }
  if (mib < 1 || layers < 2) return Usage();
  const Spec spec = kind == "freeze200" ? Freeze200(mib) : Keras5k(layers);

  // Written beside the target and renamed, so an interrupted run never leaves a valid-looking
  // half folder for the cache in bench/run.sh.
  const std::string tmp = out + ".tmp";
  std::string clear = "rm -rf '" + tmp + "'";
  if (std::system(clear.c_str()) != 0 || ::mkdir(tmp.c_str(), 0755) != 0 ||
      ::mkdir((tmp + "/variables").c_str(), 0755) != 0) {
    std::fprintf(stderr, "make_savedmodel: cannot make %s: %s\n", tmp.c_str(),
                 std::strerror(errno));
    return 1;
  }
  tensorflow::TrackableObjectGraph objects;
  tensorflow::SavedModel saved_model = MakeSavedModel(spec, &objects);
  std::string graph_bytes;
  saved_model.SerializeToString(&graph_bytes);
  TensorBundleWriter bundle(tmp + "/variables/variables");
  WriteVariables(spec, objects, &bundle);
  bool ok = WriteFile(tmp + "/saved_model.pb", graph_bytes) && bundle.Finish();
  std::string replace = "rm -rf '" + out + "'";
  if (!ok || std::system(replace.c_str()) != 0 || std::rename(tmp.c_str(), out.c_str()) != 0) {
    std::fprintf(stderr, "make_savedmodel: writing %s failed\n", out.c_str());
    return 1;
  }
  int64_t nodes = 0;
  for (const auto& f : saved_model.meta_graphs(0).graph_def().library().function()) {
    nodes += f.node_def_size();
  }
  std::printf(
      "%s: %s SavedModel, %zu layers, %zu variables, %lld function nodes, "
      "saved_model.pb %zu bytes, variables %.1f MiB\n",
      out.c_str(), kind.c_str(), spec.layers.size(), 2 * spec.layers.size(),
      static_cast<long long>(nodes), graph_bytes.size(), bundle.data_bytes() / 1048576.0);
  return 0;
}

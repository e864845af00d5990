// The whole-operator decompositions compute what the operators compute: Softmax, LayerNorm,
// GroupNorm and InstanceNorm dumped as FBS v1 are evaluated here, operator by operator, by a
// small interpreter of the operators they write, and compared with the operators' definitions
// (compat_rewrite_ops_test.cc checks the operators themselves).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <map>

#include "mge/param_json.h"
#include "mge/read.h"
#include "mge_test_util.h"
#include "one_op_model.h"

namespace graphport::mge {
namespace {

using namespace testing;  // NOLINT

struct Nd {
  std::vector<uint32_t> shape;
  std::vector<double> v;
};

size_t Count(const std::vector<uint32_t>& shape) {
  size_t n = 1;
  for (uint32_t d : shape) n *= d;
  return n;
}

// Numpy broadcasting of any number of operands, then f on each element.
Nd BroadcastNd(const std::vector<Nd>& in, const std::function<double(std::vector<double>)>& f) {
  size_t rank = 0;
  for (const Nd& t : in) rank = std::max(rank, t.shape.size());
  std::vector<uint32_t> shape(rank, 1);
  for (const Nd& t : in) {
    for (size_t i = 0; i < t.shape.size(); ++i) {
      uint32_t& d = shape[rank - t.shape.size() + i];
      if (t.shape[i] != 1) d = t.shape[i];
    }
  }
  Nd out{shape, std::vector<double>(Count(shape))};
  for (size_t flat = 0; flat < out.v.size(); ++flat) {
    std::vector<double> args;
    for (const Nd& t : in) {
      size_t rem = flat, index = 0, stride = 1;
      for (size_t k = rank; k-- > 0;) {
        size_t coord = rem % shape[k];
        rem /= shape[k];
        size_t tk = k + t.shape.size();
        if (tk >= rank) {
          uint32_t d = t.shape[tk - rank];
          index += (d == 1 ? 0 : coord) * stride;
          stride *= d;
        }
      }
      args.push_back(t.v[index]);
    }
    out.v[flat] = f(args);
  }
  return out;
}

Nd Reduce(const Nd& x, const std::string& mode, int axis) {
  if (axis < 0) axis += static_cast<int>(x.shape.size());
  size_t outer = 1, inner = 1, n = x.shape[axis];
  for (int i = 0; i < axis; ++i) outer *= x.shape[i];
  for (size_t i = axis + 1; i < x.shape.size(); ++i) inner *= x.shape[i];
  Nd out{x.shape, std::vector<double>(outer * inner)};
  out.shape[axis] = 1;
  for (size_t o = 0; o < outer; ++o) {
    for (size_t i = 0; i < inner; ++i) {
      double acc = mode == "PRODUCT" ? 1 : mode == "MAX_" ? -INFINITY : 0;
      for (size_t k = 0; k < n; ++k) {
        double e = x.v[(o * n + k) * inner + i];
        if (mode == "MAX_") acc = std::max(acc, e);
        if (mode == "SUM" || mode == "MEAN") acc += e;
        if (mode == "SUM_SQR") acc += e * e;
        if (mode == "PRODUCT") acc *= e;
      }
      out.v[o * inner + i] = mode == "MEAN" ? acc / n : acc;
    }
  }
  return out;
}

double ElementwiseNd(const std::string& mode, const std::vector<double>& a) {
  if (mode == "SUB") return a[0] - a[1];
  if (mode == "ADD") return a[0] + a[1];
  if (mode == "MUL") return a[0] * a[1];
  if (mode == "TRUE_DIV") return a[0] / a[1];
  if (mode == "FLOOR_DIV") return std::floor(a[0] / a[1]);
  if (mode == "POW") return std::pow(a[0], a[1]);
  if (mode == "EXP") return std::exp(a[0]);
  if (mode == "NEGATE") return -a[0];
  if (mode == "FUSE_MUL_ADD3") return a[0] * a[1] + a[2];
  ADD_FAILURE() << "evaluator lacks Elemwise " << mode;
  return 0;
}

// Runs the first graph of a dump on the named inputs; returns its first output.
Nd EvaluateNd(const std::string& bytes, const std::map<std::string, Nd>& inputs) {
  auto file = ReadMgeFile(bytes, "t");
  const Graph& g = file->graphs[0];
  std::vector<Nd> vars(g.vars.size());
  for (const Operator& op : g.oprs) {
    const std::string key = op.cls->key;
    std::vector<Nd> in;
    if (op.inputs) {
      for (uint32_t id : *op.inputs) in.push_back(vars[id]);
    }
    nlohmann::json p;
    if (!op.params.empty()) p = ParamToJson(op.params[0])["fields"];
    Nd out;
    if (key == "Host2DeviceCopy") {
      out = inputs.at(*op.tensors[0].name);
    } else if (key == "ImmutableTensor") {
      const Tensor& t = op.tensors[0];
      out.shape = *t.shape;
      for (size_t i = 0; i + 4 <= t.value.size(); i += 4) {
        if (t.dtype->type == 4) {
          int32_t v;
          std::memcpy(&v, t.value.data() + i, 4);
          out.v.push_back(v);
        } else {
          float v;
          std::memcpy(&v, t.value.data() + i, 4);
          out.v.push_back(v);
        }
      }
    } else if (key == "Elemwise") {
      const std::string mode = p["mode"];
      out = BroadcastNd(in, [&](std::vector<double> a) { return ElementwiseNd(mode, a); });
    } else if (key == "PowC") {
      const double e = p["exp"];
      out = BroadcastNd(in, [&](std::vector<double> a) { return std::pow(a[0], e); });
    } else if (key == "TypeCvt") {
      out = in[0];
    } else if (key == "Reduce") {
      out = Reduce(in[0], p["mode"], p["axis"]);
    } else if (key == "GetVarShape") {
      out.shape = {static_cast<uint32_t>(in[0].shape.size())};
      for (uint32_t d : in[0].shape) out.v.push_back(d);
    } else if (key == "Subtensor") {  // x[:end] on axis 0, what the LayerNorm rewrite writes
      out = in[0];
      out.v.resize(static_cast<size_t>(in[1].v[0]));
      out.shape = {static_cast<uint32_t>(out.v.size())};
    } else if (key == "Concat") {  // of 1-D tensors
      for (const Nd& t : in) out.v.insert(out.v.end(), t.v.begin(), t.v.end());
      out.shape = {static_cast<uint32_t>(out.v.size())};
    } else if (key == "Reshape") {
      out = in[0];
      out.shape.clear();
      size_t known = 1, unknown = 0;
      for (double d : in[1].v) {
        if (d < 0) ++unknown;
        if (d >= 0) known *= static_cast<size_t>(d);
      }
      EXPECT_LE(unknown, 1u);
      for (double d : in[1].v) {
        out.shape.push_back(d < 0 ? static_cast<uint32_t>(in[0].v.size() / known)
                                  : static_cast<uint32_t>(d));
      }
      EXPECT_EQ(Count(out.shape), in[0].v.size());
    } else {
      ADD_FAILURE() << "evaluator lacks " << key;
    }
    vars[op.outputs[0]] = out;
  }
  return vars[g.outputs[0].compact_id];
}

Nd Filled(std::vector<uint32_t> shape, double scale) {
  Nd t{shape, std::vector<double>(Count(shape))};
  for (size_t i = 0; i < t.v.size(); ++i) t.v[i] = scale * std::sin(1.7 * i + 0.3) + 0.1 * i;
  return t;
}

std::string AsV1(const std::string& model) {
  auto l = Load(model);
  return Export(l.model.get(), {{"dumpFormat", "FBS"}}).model();
}

void ExpectNear(const Nd& got, const std::vector<double>& want, const std::string& what) {
  ASSERT_EQ(got.v.size(), want.size()) << what;
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got.v[i], want[i], 1e-4) << what << " " << i;
}

TEST(MgeCompatRewriteValues, SoftmaxOverAnAxis) {
  OneOp spec = {
      "Softmax",
      90,
      [](flatbuffers::FlatBufferBuilder& fbb) { return fbsp::CreateSoftmax(fbb, 1).Union(); },
      {{2, 5}}};
  Nd x = Filled({2, 5}, 3);
  Nd got = EvaluateNd(AsV1(Model(spec)), {{"i0", x}});
  EXPECT_EQ(got.shape, (std::vector<uint32_t>{2, 5}));
  std::vector<double> want;
  for (int r = 0; r < 2; ++r) {
    double sum = 0;
    for (int c = 0; c < 5; ++c) sum += std::exp(x.v[r * 5 + c]);
    for (int c = 0; c < 5; ++c) want.push_back(std::exp(x.v[r * 5 + c]) / sum);
  }
  ExpectNear(got, want, "softmax");
}

// (x - mean) / sqrt(var + eps) over `groups` contiguous blocks of each leading index, then
// w and b per channel when given.
std::vector<double> Normalized(const Nd& x, size_t lead, size_t groups, float eps,
                               const Nd* w = nullptr, const Nd* b = nullptr, size_t c = 1) {
  std::vector<double> out(x.v.size());
  const size_t block = x.v.size() / (lead * groups);
  for (size_t g = 0; g < lead * groups; ++g) {
    double mean = 0, sq = 0;
    for (size_t i = 0; i < block; ++i) mean += x.v[g * block + i];
    mean /= block;
    for (size_t i = 0; i < block; ++i) sq += std::pow(x.v[g * block + i] - mean, 2);
    const double sd = std::sqrt(sq / block + eps);
    for (size_t i = 0; i < block; ++i) {
      size_t at = g * block + i;
      out[at] = (x.v[at] - mean) / sd;
      if (w != nullptr) {
        size_t channel = (at / (x.v.size() / lead / c)) % c;
        out[at] = out[at] * w->v[channel] + b->v[channel];
      }
    }
  }
  return out;
}

TEST(MgeCompatRewriteValues, LayerNormOverTheLastAxis) {
  OneOp spec = {"LayerNorm",
                85,
                [](flatbuffers::FlatBufferBuilder& fbb) {
                  return fbsp::CreateLayerNorm(fbb, false, 1e-5f, 1, 4).Union();
                },
                {{2, 3, 4}},
                3};
  Nd x = Filled({2, 3, 4}, 2);
  Nd got = EvaluateNd(AsV1(Model(spec)), {{"i0", x}});
  EXPECT_EQ(got.shape, (std::vector<uint32_t>{2, 3, 4}));
  ExpectNear(got, Normalized(x, 6, 1, 1e-5f), "layer norm");
}

TEST(MgeCompatRewriteValues, GroupNormAndInstanceNormPerGroupWithAffine) {
  Nd x = Filled({2, 4, 3, 3}, 2);
  Nd w = Filled({1, 4, 1, 1}, 1);
  Nd b = Filled({1, 4, 1, 1}, 0.5);
  for (const auto& [key, groups] :
       std::vector<std::pair<std::string, size_t>>{{"GroupNorm", 2}, {"InstanceNorm", 4}}) {
    OneOp spec = {key,
                  92,
                  [](flatbuffers::FlatBufferBuilder& fbb) {
                    return fbsp::CreateGroupNorm(fbb, true, 1e-5f, 2).Union();
                  },
                  {{2, 4, 3, 3}, {1, 4, 1, 1}, {1, 4, 1, 1}},
                  3};
    Nd got = EvaluateNd(AsV1(Model(spec)), {{"i0", x}, {"i1", w}, {"i2", b}});
    EXPECT_EQ(got.shape, (std::vector<uint32_t>{2, 4, 3, 3})) << key;
    ExpectNear(got, Normalized(x, 2, groups, 1e-5f, &w, &b, 4), key);
  }
}

}  // namespace
}  // namespace graphport::mge

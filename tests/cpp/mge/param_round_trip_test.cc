// A graph with one operator per OperatorParam union member (1..99), every param field set to
// a value other than its default, built generically through reflection, round-trips through
// FBS_V2 and FBS v1 unchanged: param_copy rebuilds every table of the schema.
#include <flatbuffers/reflection.h>
#include <gtest/gtest.h>

#include "mge/opr_registry.h"
#include "mge/schema/schema_reflection.h"
#include "mge_test_util.h"

namespace graphport::mge {
namespace {

using namespace testing;  // NOLINT
namespace v2 = mgb::serialization::fbs::v2;

template <typename T>
void Put(uint8_t* at, T v) {
  flatbuffers::WriteScalar<T>(at, v);
}

// A non-default value for a scalar field: the second enum value, the other bool, default + 1.
void NonDefaultScalar(const reflection::Schema& schema, const reflection::Type& type,
                      reflection::BaseType base, int64_t def_int, double def_real, uint8_t* at) {
  int64_t v = def_int + 1;
  if (type.index() >= 0 && base != reflection::Obj) {
    const reflection::Enum* e =
        schema.enums()->Get(static_cast<flatbuffers::uoffset_t>(type.index()));
    for (const reflection::EnumVal* ev : *e->values()) {
      if (ev->value() != def_int) {
        v = ev->value();
        break;
      }
    }
  }
  switch (base) {
    case reflection::Bool:
      Put<uint8_t>(at, def_int ? 0 : 1);
      break;
    case reflection::Byte:
    case reflection::UByte:
      Put<uint8_t>(at, static_cast<uint8_t>(v));
      break;
    case reflection::Short:
    case reflection::UShort:
      Put<uint16_t>(at, static_cast<uint16_t>(v));
      break;
    case reflection::Int:
    case reflection::UInt:
      Put<uint32_t>(at, static_cast<uint32_t>(v));
      break;
    case reflection::Long:
    case reflection::ULong:
      Put<uint64_t>(at, static_cast<uint64_t>(v));
      break;
    case reflection::Float:
      Put<float>(at, static_cast<float>(def_real + 0.5));
      break;
    case reflection::Double:
      Put<double>(at, def_real + 0.5);
      break;
    default:
      break;
  }
}

void FillStruct(const reflection::Schema& schema, const reflection::Object& s, uint8_t* at) {
  for (const reflection::Field* f : *s.fields()) {
    const reflection::Type& t = *f->type();
    if (t.base_type() == reflection::Array) {
      size_t elem = flatbuffers::GetTypeSize(t.element());
      for (uint16_t i = 0; i < t.fixed_length(); ++i) {
        NonDefaultScalar(schema, t, t.element(), i, 0, at + f->offset() + i * elem);
      }
    } else if (t.base_type() == reflection::Obj) {
      FillStruct(schema, *schema.objects()->Get(t.index()), at + f->offset());
    } else {
      NonDefaultScalar(schema, t, t.base_type(), 0, 0, at + f->offset());
    }
  }
}

// Builds the param table of union member `type` with every field non-default.
flatbuffers::Offset<void> BuildParam(flatbuffers::FlatBufferBuilder* fbb, uint8_t type) {
  const reflection::Schema& schema = GraphV1Schema();
  const reflection::Object* obj = OperatorParamTable(schema, type);
  if (obj->name()->str() == "mgb.serialization.fbs.DType") {
    auto q = mgb::serialization::fbs::CreateLinearQuantizationParam(*fbb, 0.25f, 0);
    return mgb::serialization::fbs::CreateDType(
               *fbb, mgb::serialization::fbs::DTypeEnum_QuantizedS8,
               mgb::serialization::fbs::DTypeParam_LinearQuantizationParam, q.Union())
        .Union();
  }
  std::map<const reflection::Field*, flatbuffers::uoffset_t> vectors;
  for (const reflection::Field* f : *obj->fields()) {
    const reflection::Type& t = *f->type();
    if (t.base_type() != reflection::Vector) continue;
    size_t elem = 0, align = 0;
    std::vector<uint8_t> bytes;
    if (t.element() == reflection::Obj) {
      const reflection::Object* s = schema.objects()->Get(t.index());
      elem = s->bytesize();
      align = s->minalign();
      bytes.assign(2 * elem, 0);
      FillStruct(schema, *s, bytes.data());
      FillStruct(schema, *s, bytes.data() + elem);
    } else {
      elem = align = flatbuffers::GetTypeSize(t.element());
      bytes.assign(2 * elem, 0);
      NonDefaultScalar(schema, t, t.element(), 1, 0, bytes.data());
      NonDefaultScalar(schema, t, t.element(), 2, 0, bytes.data() + elem);
    }
    fbb->StartVector(2 * elem / align, align);
    fbb->PushBytes(bytes.data(), bytes.size());
    vectors[f] = fbb->EndVector(2);
  }
  auto start = fbb->StartTable();
  for (const reflection::Field* f : *obj->fields()) {
    const reflection::Type& t = *f->type();
    auto slot = static_cast<flatbuffers::voffset_t>(f->offset());
    if (t.base_type() == reflection::Vector) {
      fbb->AddOffset(slot, flatbuffers::Offset<void>(vectors[f]));
    } else if (t.base_type() == reflection::Obj) {
      const reflection::Object* s = schema.objects()->Get(t.index());
      std::vector<uint8_t> bytes(s->bytesize(), 0);
      FillStruct(schema, *s, bytes.data());
      fbb->Align(s->minalign());
      fbb->PushBytes(bytes.data(), bytes.size());
      fbb->TrackField(slot, fbb->GetSize());
    } else {
      uint8_t buf[8] = {};
      int64_t def = t.base_type() == reflection::ULong
                        ? static_cast<int64_t>(UnsignedFieldDefault(*f))
                        : f->default_integer();
      NonDefaultScalar(schema, t, t.base_type(), def, f->default_real(), buf);
      size_t size = flatbuffers::GetTypeSize(t.base_type());
      fbb->Align(size);
      fbb->PushBytes(buf, size);
      fbb->TrackField(slot, fbb->GetSize());
    }
  }
  return flatbuffers::Offset<void>(fbb->EndTable(start));
}

// One Elemwise-registered operator per union member (the writer does not tie params to
// classes; MegEngine's loader would, which is not what this test is about).
std::string BuildEveryParamModel(std::vector<uint8_t>* types) {
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<flatbuffers::Offset<v2::Operator>> oprs;
  for (int type = 1; type <= 255; ++type) {
    if (OperatorParamTable(GraphV1Schema(), static_cast<uint8_t>(type)) == nullptr) continue;
    types->push_back(static_cast<uint8_t>(type));
    auto param = BuildParam(&fbb, static_cast<uint8_t>(type));
    uint32_t id = static_cast<uint32_t>(oprs.size());
    auto outputs = fbb.CreateVector(std::vector<uint32_t>{id});
    auto name = fbb.CreateSharedString("Elemwise");
    v2::OperatorBuilder b(fbb);
    b.add_type(name);
    b.add_type_id(UnversionedTypeId("Elemwise"));
    b.add_outputs(outputs);
    b.add_opr_version(1);
    b.add_param_type(static_cast<v2::OperatorParam>(type));
    b.add_param(param);
    oprs.push_back(b.Finish());
  }
  auto opr_vec = fbb.CreateVector(oprs);
  auto outputs = fbb.CreateVector(std::vector<flatbuffers::Offset<v2::OutputVar>>{
      v2::CreateOutputVar(fbb, static_cast<uint32_t>(oprs.size() - 1), 1)});
  v2::ModelBuilder mb(fbb);
  mb.add_mge_version(1099900);
  mb.add_model_version(2);
  mb.add_oprs(opr_vec);
  mb.add_output_vars_idx(outputs);
  fbb.FinishSizePrefixed(mb.Finish(), v2::ModelIdentifier());
  return std::string(reinterpret_cast<const char*>(fbb.GetBufferPointer()), fbb.GetSize());
}

nlohmann::json Params(const nlohmann::json& inspect) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& op : inspect["megengine"]["operators"]) out.push_back(op["params"]);
  return out;
}

TEST(MgeParamRoundTrip, EveryParamTypeThroughV2AndV1) {
  std::vector<uint8_t> types;
  auto l = Load(BuildEveryParamModel(&types));
  EXPECT_EQ(types.size(), 99u);  // 1..99 in the v1 union
  nlohmann::json params = Params(l.model->Inspect());
  ASSERT_EQ(params.size(), types.size());
  // Every field decoded by name, none at its default (spot-checks of the decoder).
  EXPECT_EQ(params[2][0]["type"], "Convolution");
  EXPECT_EQ(params[2][0]["fields"]["mode"], "CONVOLUTION");
  EXPECT_EQ(params[2][0]["fields"]["stride_h"], 2);
  EXPECT_EQ(params[66][0]["type"], "DType");
  EXPECT_EQ(params[66][0]["fields"]["dtype"], "QuantizedS8");

  std::string v2_once = Export(l.model.get(), AsLoaded()).model();
  ASSERT_TRUE(VerifiesAsV2(v2_once));
  auto from_v2 = Load(v2_once);
  EXPECT_EQ(Params(from_v2.model->Inspect()), params);
  std::string v1 = Export(from_v2.model.get(), AsLoaded({{"dumpFormat", "FBS"}})).model();
  ASSERT_TRUE(VerifiesAsV1(v1));
  auto from_v1 = Load(v1);
  EXPECT_EQ(Params(from_v1.model->Inspect()), params);
  // Rebuilt in the Create helper's order both times: the same bytes again.
  EXPECT_EQ(Export(from_v1.model.get(), AsLoaded()).model(), v2_once);
  EXPECT_EQ(Export(from_v2.model.get(), AsLoaded()).model(), v2_once);
}

}  // namespace
}  // namespace graphport::mge

namespace graphport::mge {
namespace {

// A union member newer than the schemas (here 120): read, listed, and kept on re-dump
// (unknown_param_test.cc checks its bytes).
TEST(MgeParamRoundTrip, UnknownUnionMemberIsListedAndKeptOnRedump) {
  flatbuffers::FlatBufferBuilder fbb;
  auto start = fbb.StartTable();
  fbb.AddElement<uint32_t>(4, 7, 0);
  flatbuffers::Offset<void> param(fbb.EndTable(start));
  auto outputs = fbb.CreateVector(std::vector<uint32_t>{0});
  auto type = fbb.CreateSharedString("Elemwise");
  v2::OperatorBuilder b(fbb);
  b.add_type(type);
  b.add_type_id(UnversionedTypeId("Elemwise"));
  b.add_outputs(outputs);
  b.add_opr_version(1);
  b.add_param_type(static_cast<v2::OperatorParam>(120));
  b.add_param(param);
  auto oprs = fbb.CreateVector(std::vector<flatbuffers::Offset<v2::Operator>>{b.Finish()});
  auto outs = fbb.CreateVector(
      std::vector<flatbuffers::Offset<v2::OutputVar>>{v2::CreateOutputVar(fbb, 0, 1)});
  v2::ModelBuilder mb(fbb);
  mb.add_model_version(2);
  mb.add_oprs(oprs);
  mb.add_output_vars_idx(outs);
  fbb.FinishSizePrefixed(mb.Finish(), v2::ModelIdentifier());
  auto l = Load(std::string(reinterpret_cast<const char*>(fbb.GetBufferPointer()), fbb.GetSize()));
  nlohmann::json j = l.model->Inspect();
  EXPECT_EQ(j["megengine"]["operators"][0]["params"][0],
            nlohmann::json({{"union", 120}, {"type", nullptr}}));
  auto again = Load(Export(l.model.get(), nullptr).model());
  EXPECT_EQ(again.model->Inspect()["megengine"]["operators"][0]["params"][0],
            j["megengine"]["operators"][0]["params"][0]);
}

}  // namespace
}  // namespace graphport::mge

#include "one_op_model.h"

namespace graphport::mge {
namespace {

// uint64 params beyond Number.MAX_SAFE_INTEGER (2^53 - 1) are decimal strings in inspect(),
// smaller ones numbers; the written bytes keep the value either way.
TEST(MgeParamRoundTrip, Uint64ParamsBeyondTwoToThe53AreDecimalStrings) {
  for (uint64_t seed : {uint64_t{0}, (uint64_t{1} << 53) - 1, uint64_t{1} << 53,
                        (uint64_t{1} << 53) + 1, UINT64_MAX}) {
    testing::OneOp spec = {"Dropout",
                           86,
                           [seed](flatbuffers::FlatBufferBuilder& fbb) {
                             return testing::fbsp::CreateDropout(fbb, 0.5f, seed).Union();
                           },
                           {{4}},
                           2};
    auto l = testing::Load(testing::Model(spec));
    nlohmann::json got = l.model->Inspect()["megengine"]["operators"][1]["params"][0]["fields"];
    if (seed < (uint64_t{1} << 53)) {
      EXPECT_EQ(got["seed"], seed);
    } else {
      EXPECT_EQ(got["seed"], std::to_string(seed));
    }
    auto again = testing::Load(testing::Export(l.model.get(), nullptr).model());
    EXPECT_EQ(again.model->Inspect()["megengine"]["operators"][1]["params"][0]["fields"], got);
  }
}

}  // namespace
}  // namespace graphport::mge

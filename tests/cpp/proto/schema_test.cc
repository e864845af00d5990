// The generated schema tables (proto/schema.h) must say what libprotobuf's descriptors of the
// same .proto files say, for every message type, field and enum of the TensorFlow schemas.
#include "proto/schema.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "reference_pool.h"
#include "tensorflow/graph.pb.h"
#include "tensorflow/meta_graph.pb.h"
#include "tensorflow/schemas.h"

namespace graphport::proto {
namespace {

namespace pb = google::protobuf;
using testing::ReferencePool;

void ExpectSameEnum(const pb::EnumDescriptor* want, const EnumSchema* got) {
  ASSERT_NE(got, nullptr) << want->full_name();
  EXPECT_EQ(got->full_name, want->full_name());
  ASSERT_EQ(got->value_count, want->value_count()) << want->full_name();
  for (int i = 0; i < want->value_count(); ++i) {
    EXPECT_EQ(got->values[i].name, want->value(i)->name());
    EXPECT_EQ(got->values[i].number, want->value(i)->number());
    // The first value of a number is the one printed; an alias never is.
    const pb::EnumValueDescriptor* printed = want->FindValueByNumber(want->value(i)->number());
    EXPECT_EQ(got->FindByNumber(want->value(i)->number())->name, printed->name());
    EXPECT_EQ(got->FindByName(want->value(i)->name())->number, want->value(i)->number());
  }
}

void ExpectSameMessage(const pb::Descriptor* want, const MessageSchema* got) {
  ASSERT_NE(got, nullptr) << want->full_name();
  SCOPED_TRACE(want->full_name());
  EXPECT_EQ(got->full_name, want->full_name());
  EXPECT_EQ(got->name, want->name());
  EXPECT_EQ(got->proto3, want->file()->syntax() == pb::FileDescriptor::SYNTAX_PROTO3);
  EXPECT_EQ(got->map_entry, want->options().map_entry());
  ASSERT_EQ(got->field_count, want->field_count());
  ASSERT_EQ(got->oneof_count, want->real_oneof_decl_count());
  for (int i = 0; i < want->real_oneof_decl_count(); ++i) {
    EXPECT_EQ(got->oneofs[i], want->oneof_decl(i)->name());
  }
  ASSERT_EQ(got->reserved_name_count, want->reserved_name_count());
  for (int i = 0; i < want->reserved_name_count(); ++i) {
    EXPECT_EQ(got->reserved_names[i], want->reserved_name(i));
    EXPECT_TRUE(got->IsReservedName(want->reserved_name(i)));
  }
  int last_number = 0;
  for (const FieldSchema& field : *got) {
    EXPECT_GT(field.number, last_number) << "fields are sorted by number";
    last_number = field.number;
    const pb::FieldDescriptor* f = want->FindFieldByNumber(field.number);
    ASSERT_NE(f, nullptr) << field.name;
    SCOPED_TRACE(f->name());
    EXPECT_EQ(field.name, f->name());
    EXPECT_EQ(field.json_name, f->json_name());
    EXPECT_EQ(static_cast<int>(field.type), static_cast<int>(f->type()));
    EXPECT_EQ(field.repeated, f->is_repeated());
    EXPECT_EQ(field.packed, f->is_packed());
    EXPECT_EQ(field.packable(), f->is_packable());
    EXPECT_EQ(field.map, f->is_map());
    EXPECT_EQ(field.presence, f->has_presence());
    const pb::OneofDescriptor* oneof = f->real_containing_oneof();
    EXPECT_EQ(field.oneof, oneof != nullptr ? oneof->index() : -1);
    if (f->type() == pb::FieldDescriptor::TYPE_MESSAGE) {
      ASSERT_NE(field.message, nullptr);
      EXPECT_EQ(field.message->full_name, f->message_type()->full_name());
    } else {
      EXPECT_EQ(field.message, nullptr);
    }
    if (f->type() == pb::FieldDescriptor::TYPE_ENUM) {
      ExpectSameEnum(f->enum_type(), field.enumeration);
    } else {
      EXPECT_EQ(field.enumeration, nullptr);
    }
    EXPECT_EQ(got->FindFieldByNumber(f->number()), &field);
    EXPECT_EQ(got->FindFieldByName(f->name()), &field);
    EXPECT_EQ(got->FindFieldByJsonName(f->json_name()), &field);
  }
}

void CollectTypes(const pb::Descriptor* type, std::set<std::string>* names) {
  names->insert(type->full_name());
  for (int i = 0; i < type->nested_type_count(); ++i) CollectTypes(type->nested_type(i), names);
}

TEST(SchemaTables, EveryMessageTypeMatchesLibprotobufsDescriptor) {
  // graphport's lite copies of Any and BoolValue are in the tables as google.protobuf's, and
  // so in the reference pool.
  const ReferencePool& reference = ReferencePool::Tf();
  const SchemaSet& set = tf::TfSchemas();
  std::set<std::string> names = {"google.protobuf.Any", "google.protobuf.BoolValue"};
  for (const auto& file : reference.files().file()) {
    if (file.package() == "google.protobuf") continue;  // libprotobuf's, in the pool's place
    const pb::FileDescriptor* descriptor = reference.pool().FindFileByName(file.name());
    ASSERT_NE(descriptor, nullptr) << file.name();
    for (int i = 0; i < descriptor->message_type_count(); ++i) {
      CollectTypes(descriptor->message_type(i), &names);
    }
  }
  ASSERT_GT(names.size(), 100u);
  EXPECT_EQ(static_cast<size_t>(set.message_count), names.size());
  for (const std::string& name : names) {
    const MessageSchema* got = set.Find(name);
    ExpectSameMessage(reference.Find(name), got);
    if (got != nullptr) {
      EXPECT_EQ(got->set, &set);
    }
  }
}

TEST(SchemaTables, GeneratedClassesNameTheirSchema) {
  EXPECT_EQ(SchemaOf<tensorflow::NodeDef>().full_name, "tensorflow.NodeDef");
  EXPECT_EQ(SchemaOf<tensorflow::MetaGraphDef_MetaInfoDef>().full_name,
            "tensorflow.MetaGraphDef.MetaInfoDef");
  EXPECT_EQ(&SchemaOf<tensorflow::GraphDef>(), tf::TfSchemas().Find("tensorflow.GraphDef"));
  const FieldSchema* attr = SchemaOf<tensorflow::NodeDef>().FindFieldByName("attr");
  ASSERT_NE(attr, nullptr);
  EXPECT_TRUE(attr->map);
  EXPECT_TRUE(attr->message->map_entry);
  EXPECT_EQ(attr->message->FindFieldByNumber(2)->message, &SchemaOf<tensorflow::AttrValue>());
}

TEST(SchemaTables, LookupsMissGracefully) {
  const MessageSchema& node = SchemaOf<tensorflow::NodeDef>();
  EXPECT_EQ(node.FindFieldByNumber(0), nullptr);
  EXPECT_EQ(node.FindFieldByNumber(-3), nullptr);
  EXPECT_EQ(node.FindFieldByNumber(999), nullptr);
  EXPECT_EQ(node.FindFieldByName("no_such_field"), nullptr);
  EXPECT_EQ(node.FindFieldByJsonName("experimental_debug_info"),
            nullptr);  // that's the .proto name
  EXPECT_NE(node.FindFieldByJsonName("experimentalDebugInfo"), nullptr);
  EXPECT_FALSE(node.IsReservedName("name"));
  EXPECT_TRUE(tf::TfSchemas().Find("tensorflow.SavedObject")->IsReservedName("attributes"));
  EXPECT_EQ(tf::TfSchemas().Find("tensorflow.NoSuchType"), nullptr);
  EXPECT_EQ(tf::TfSchemas().Find(""), nullptr);
  EXPECT_EQ(tf::TfSchemas().Find("zzz"), nullptr);
  const EnumSchema* dtype =
      SchemaOf<tensorflow::TensorProto>().FindFieldByName("dtype")->enumeration;
  ASSERT_NE(dtype, nullptr);
  EXPECT_EQ(dtype->FindByNumber(123456), nullptr);
  EXPECT_EQ(dtype->FindByName("DT_NOPE"), nullptr);
}

}  // namespace
}  // namespace graphport::proto

// libprotobuf's own descriptors of a generated proto library, built from the descriptor set
// protoc wrote beside it (CMakeLists.txt: graphport_proto_library). graphport's message classes
// are lite and carry no descriptors; tests compare graphport's schema tables, text format and
// JSON with what libprotobuf's full runtime makes of the same bytes through these.
//
// The lite schemas declare their own copies of google.protobuf.Any and BoolValue
// (src/tf/proto/graphport/well_known.proto: a lite file may import only lite files). As
// TensorFlow's schemas have them, the pool uses libprotobuf's own two types in their place:
// the same wire bytes, and then text format and JSON treat them as the well-known types they
// are (an Any's [type URL] { ... } and {"@type": ...} forms), as graphport's tables do.
#ifndef GRAPHPORT_TESTS_CPP_REFERENCE_POOL_H_
#define GRAPHPORT_TESTS_CPP_REFERENCE_POOL_H_

#include <google/protobuf/any.pb.h>
#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/dynamic_message.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/message.h>
#include <google/protobuf/wrappers.pb.h>

#include <fstream>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>

#ifndef GRAPHPORT_TF_DESCRIPTOR_SET
#error "GRAPHPORT_TF_DESCRIPTOR_SET must be defined by tests/cpp/CMakeLists.txt"
#endif

namespace graphport::testing {

class ReferencePool {
 public:
  explicit ReferencePool(const std::string& descriptor_set_path) {
    std::ifstream in(descriptor_set_path, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    google::protobuf::FileDescriptorSet set;
    if (!in.good() && !in.eof()) throw std::runtime_error("cannot read " + descriptor_set_path);
    if (!set.ParseFromString(bytes) || set.file_size() == 0) {
      throw std::runtime_error("not a descriptor set: " + descriptor_set_path);
    }
    UseLibprotobufWellKnownTypes(&set);
    for (const auto& file : set.file()) {
      if (pool_.BuildFile(file) == nullptr) {
        throw std::runtime_error("descriptor set " + descriptor_set_path + ": cannot build " +
                                 file.name());
      }
    }
    set_ = std::move(set);
  }

  // The TensorFlow schemas' pool (the one most tests need), built once.
  static const ReferencePool& Tf() {
    static const ReferencePool* pool = new ReferencePool(GRAPHPORT_TF_DESCRIPTOR_SET);
    return *pool;
  }

#ifdef GRAPHPORT_TEST_DESCRIPTOR_SET
  // The JSON tests' schemas (tests/cpp/proto/proto_json_test.proto and proto_json_legacy.proto,
  // with the well-known types they import), for the executables linked to them.
  static const ReferencePool& Test() {
    static const ReferencePool* pool = new ReferencePool(GRAPHPORT_TEST_DESCRIPTOR_SET);
    return *pool;
  }
#endif

  const google::protobuf::DescriptorPool& pool() const { return pool_; }
  const google::protobuf::FileDescriptorSet& files() const { return set_; }

  const google::protobuf::Descriptor* Find(const std::string& full_name) const {
    const google::protobuf::Descriptor* type = pool_.FindMessageTypeByName(full_name);
    if (type == nullptr) throw std::runtime_error("no message type " + full_name);
    return type;
  }

  // A dynamic message of the type, parsed from `bytes` (the serialized form of a generated
  // message), or empty when `bytes` is empty.
  std::unique_ptr<google::protobuf::Message> New(const std::string& full_name,
                                                 const std::string& bytes = "") const {
    std::unique_ptr<google::protobuf::Message> message(
        factory_.GetPrototype(Find(full_name))->New());
    // Tests build messages deeper than parsers take (to check that they refuse them): the
    // reference copy of one is made without the recursion limit.
    google::protobuf::io::CodedInputStream input(reinterpret_cast<const uint8_t*>(bytes.data()),
                                                 static_cast<int>(bytes.size()));
    input.SetRecursionLimit(1 << 20);
    if (!bytes.empty() &&
        (!message->ParseFromCodedStream(&input) || !input.ConsumedEntireMessage())) {
      throw std::runtime_error("reference parse of " + full_name + " failed");
    }
    return message;
  }

 private:
  static constexpr char kOwnWellKnown[] = "graphport/well_known.proto";

  // graphport.well_known.X becomes google.protobuf.X, its file libprotobuf's any.proto and
  // wrappers.proto.
  static void UseLibprotobufWellKnownTypes(google::protobuf::FileDescriptorSet* set) {
    google::protobuf::FileDescriptorSet out;
    bool used = false;
    for (const auto& file : set->file()) {
      if (file.name() == kOwnWellKnown) {
        used = true;
        google::protobuf::Any::descriptor()->file()->CopyTo(out.add_file());
        google::protobuf::BoolValue::descriptor()->file()->CopyTo(out.add_file());
        continue;
      }
      google::protobuf::FileDescriptorProto* copy = out.add_file();
      *copy = file;
      for (std::string& dependency : *copy->mutable_dependency()) {
        if (dependency == kOwnWellKnown) dependency = "google/protobuf/any.proto";
      }
      bool wrappers = false;
      for (auto& message : *copy->mutable_message_type()) RenameTypes(&message, &wrappers);
      if (wrappers) copy->add_dependency("google/protobuf/wrappers.proto");
    }
    if (used) *set = std::move(out);
  }

  static void RenameTypes(google::protobuf::DescriptorProto* message, bool* wrappers) {
    for (auto& field : *message->mutable_field()) {
      const std::string prefix = ".graphport.well_known.";
      if (field.type_name().rfind(prefix, 0) != 0) continue;
      const std::string name = field.type_name().substr(prefix.size());
      if (name != "Any") *wrappers = true;
      field.set_type_name(".google.protobuf." + name);
    }
    for (auto& nested : *message->mutable_nested_type()) RenameTypes(&nested, wrappers);
  }

  google::protobuf::DescriptorPool pool_;
  google::protobuf::FileDescriptorSet set_;
  mutable google::protobuf::DynamicMessageFactory factory_{&pool_};
};

}  // namespace graphport::testing

#endif  // GRAPHPORT_TESTS_CPP_REFERENCE_POOL_H_

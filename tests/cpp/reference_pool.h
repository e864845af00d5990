// libprotobuf's own descriptors of a generated proto library, built from the descriptor set
// protoc wrote beside it (CMakeLists.txt: graphport_proto_library). graphport's message classes
// are lite and carry no descriptors; tests compare graphport's schema tables, text format and
// JSON with what libprotobuf's full runtime makes of the same bytes through these.
#ifndef GRAPHPORT_TESTS_CPP_REFERENCE_POOL_H_
#define GRAPHPORT_TESTS_CPP_REFERENCE_POOL_H_

#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/dynamic_message.h>
#include <google/protobuf/message.h>

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
    if (!bytes.empty() && !message->ParseFromString(bytes)) {
      throw std::runtime_error("reference parse of " + full_name + " failed");
    }
    return message;
  }

 private:
  google::protobuf::DescriptorPool pool_;
  google::protobuf::FileDescriptorSet set_;
  mutable google::protobuf::DynamicMessageFactory factory_{&pool_};
};

}  // namespace graphport::testing

#endif  // GRAPHPORT_TESTS_CPP_REFERENCE_POOL_H_

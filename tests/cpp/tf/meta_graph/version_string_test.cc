// meta_info_def.tensorflow_version must be a PEP 440 version: TensorFlow's importer compares
// it with packaging.version, which raises on anything else (tensorflow.md §1.11).
#include "tf/meta_graph/version_string.h"

#include <gtest/gtest.h>

namespace graphport::tf {
namespace {

TEST(VersionStringTest, Pep440Versions) {
  for (const char* v : {"1.15.0",
                        "2.14.0",
                        "0.12",
                        "1",
                        "1.1.0-rc2",
                        "1.0.0rc1",
                        "1.0.0-rc1",
                        "1.12.0-rc0",
                        "2.0.0.dev20190101",
                        "2.0.0-dev20190101",
                        "1!2.0",
                        "1.0+local.7",
                        "1.0+abc-1_2",
                        "1.0a1",
                        "1.0b2",
                        "1.0.post1",
                        "1.0-1",
                        "1.0.post1.dev2",
                        "v2.14.0",
                        "V1.0",
                        "1.0alpha1",
                        "1.0.0-beta.2",
                        "1.0c1",
                        "1.0pre1",
                        "1.0preview1",
                        "1.0.dev",
                        "1.0rc",
                        "1.0.rev3",
                        "1.0r3",
                        "2.1.0",
                        "1.5.0-rc1"}) {
    EXPECT_TRUE(IsPep440Version(v)) << v;
  }
}

TEST(VersionStringTest, NotVersions) {
  for (const char* v :
       {"", "mylib-0.1", "0.12.head", "1.0.0-", "abc", "v", "1.", ".1", "1..0", "1.0+", "1.0+a..b",
        "1!", "!1.0", "1.0-rc2-extra", "unknown", "1.0/2", "1.0rc1rc2", "1.0+a+b"}) {
    EXPECT_FALSE(IsPep440Version(v)) << v;
  }
}

}  // namespace
}  // namespace graphport::tf

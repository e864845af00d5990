// The lines both CLIs print after an export (api/export_text.h).
#include "api/export_text.h"

#include <gtest/gtest.h>

namespace graphport {
namespace {

using nlohmann::json;

TEST(ExportTextTest, WarningsThenNotesOneALine) {
  json info = {{"format", "mge"},
               {"notes", {"fused 2 conv+bias", "folded 1 constant"}},
               {"warnings", {"TF.js cannot run Foo x2"}}};
  EXPECT_EQ(ExportText(info),
            "graphport: warning: TF.js cannot run Foo x2\n"
            "graphport: note: fused 2 conv+bias\n"
            "graphport: note: folded 1 constant\n");
}

TEST(ExportTextTest, NothingToSayIsEmpty) {
  EXPECT_EQ(ExportText(json{{"format", "meta-graph"}}), "");
  EXPECT_EQ(ExportText(json{{"warnings", json::array()}, {"notes", json::array()}}), "");
  // A field of another shape is not a list of lines: printed as nothing, never thrown.
  EXPECT_EQ(ExportText(json{{"warnings", "one"}, {"notes", {1, "two"}}}), "graphport: note: two\n");
}

}  // namespace
}  // namespace graphport

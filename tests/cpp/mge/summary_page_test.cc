// inspect() lists the first operators only; the rest come a page at a time through
// OperatorPageJson. The pages, put together, must give back every operator as the full
// summary lists it, and the filter must keep exactly the operators whose type, class or name
// holds it.
#include <gtest/gtest.h>

#include <cctype>
#include <string>
#include <vector>

#include "core/error.h"
#include "mge/inspect.h"
#include "mge/read.h"
#include "mge_test_util.h"

namespace graphport::mge::testing {
namespace {

using nlohmann::json;

// A corpus file with its operators repeated until the graph has more than a summary lists.
std::unique_ptr<MgeFile> LongGraph() {
  auto file = ReadMgeFile(ReadCorpusFile(CorpusFiles()[0]), "long.mge");
  Graph& g = file->graphs[0];
  const std::vector<Operator> once = g.oprs;
  while (g.oprs.size() <= 2 * kSummaryOperators) {
    g.oprs.insert(g.oprs.end(), once.begin(), once.end());
  }
  return file;
}

json Page(const MgeFile& file, size_t offset, size_t limit, const std::string& filter = "") {
  SummaryPageRequest request;
  request.list = "operators";
  request.offset = offset;
  request.limit = limit;
  request.filter = filter;
  return json::parse(OperatorPageJson(file, InspectContext{}, request));
}

TEST(SummaryPage, SummaryListsTheFirstOperatorsAndCountsAll) {
  auto file = LongGraph();
  const size_t n = file->graphs[0].oprs.size();
  json paged = InspectMgeFile(*file, InspectContext{}, kSummaryOperators)["megengine"];
  json full = InspectMgeFile(*file, InspectContext{})["megengine"];
  EXPECT_EQ(paged["operatorCount"], n);
  ASSERT_EQ(paged["operators"].size(), kSummaryOperators);
  ASSERT_EQ(full["operators"].size(), n);
  for (size_t i = 0; i < kSummaryOperators; ++i) {
    EXPECT_EQ(paged["operators"][i], full["operators"][i]) << i;
  }
}

TEST(SummaryPage, PagesTogetherGiveEveryOperatorInOrder) {
  auto file = LongGraph();
  json full = InspectMgeFile(*file, InspectContext{})["megengine"]["operators"];
  json joined = json::array();
  constexpr size_t kLimit = 37;  // does not divide the count: the last page is short
  for (size_t offset = 0;; offset += kLimit) {
    json page = Page(*file, offset, kLimit);
    EXPECT_EQ(page["total"], full.size());
    EXPECT_EQ(page["matched"], full.size());
    EXPECT_EQ(page["offset"], offset);
    EXPECT_EQ(page["list"], "operators");
    for (const json& op : page["items"]) joined.push_back(op);
    if (page["items"].size() < kLimit) break;
  }
  EXPECT_EQ(joined, full);
  EXPECT_TRUE(Page(*file, full.size() + 5, 10)["items"].empty());
}

TEST(SummaryPage, FilterKeepsOperatorsWhoseTypeClassOrNameHoldsIt) {
  auto file = LongGraph();
  json full = InspectMgeFile(*file, InspectContext{})["megengine"]["operators"];
  for (const std::string filter : {"conv", "immutable", "host2device", "no such operator"}) {
    json expected = json::array();
    for (const json& op : full) {
      auto holds = [&](const json& v) {
        if (!v.is_string()) return false;
        std::string s = v.get<std::string>();
        for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return s.find(filter) != std::string::npos;
      };
      if (holds(op["type"]) || holds(op["class"]) || holds(op["name"])) expected.push_back(op);
    }
    json page = Page(*file, 0, full.size(), filter);
    EXPECT_EQ(page["matched"], expected.size()) << filter;
    EXPECT_EQ(page["items"], expected) << filter;
    if (expected.size() > 3) {
      json second = Page(*file, 2, 1, filter);
      ASSERT_EQ(second["items"].size(), 1u);
      EXPECT_EQ(second["items"][0], expected[2]) << filter;
    }
  }
  EXPECT_GT(Page(*file, 0, 1, "conv")["matched"], 0) << "the corpus file holds convolutions";
}

TEST(SummaryPage, OtherListsAreRefusedByName) {
  auto file = LongGraph();
  SummaryPageRequest request;
  request.list = "vars";
  try {
    OperatorPageJson(*file, InspectContext{}, request);
    FAIL() << "a list MegEngine does not page was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidOption);
    EXPECT_NE(std::string(e.what()).find("'vars'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace graphport::mge::testing

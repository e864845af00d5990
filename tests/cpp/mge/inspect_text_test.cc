// inspect()'s JSON text is written without a DOM for the operators (mge/json_text.h): it must
// be exactly nlohmann's canonical dump of the object it stands for (keys sorted, numbers and
// strings formatted as dump does), for every shape of model the family reads.
#include "core/inspect_text.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "mge/json_text.h"
#include "mge_test_util.h"
#include "test_model.h"

namespace graphport::mge::testing {
namespace {

std::string Canonical(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string TextOf(const Loaded& l) {
  const auto* text = dynamic_cast<const InspectsAsText*>(l.model.get());
  EXPECT_NE(text, nullptr) << "the MegEngine model writes its inspect text itself";
  return text == nullptr ? "" : text->InspectText();
}

void ExpectCanonical(const std::string& bytes, const std::string& what) {
  Loaded l = Load(bytes);
  std::string text = TextOf(l);
  nlohmann::json parsed = nlohmann::json::parse(text, nullptr, false);
  ASSERT_FALSE(parsed.is_discarded()) << what << ": not JSON";
  EXPECT_EQ(Canonical(parsed), text) << what;
  EXPECT_EQ(l.model->Inspect(), parsed) << what;
  EXPECT_FALSE(parsed["megengine"]["operators"].empty()) << what;
}

TEST(InspectText, IsTheCanonicalDumpForEveryFormat) {
  std::vector<std::pair<std::string, std::string>> models;
  for (const std::string& name : CorpusFiles()) {
    std::string bytes = ReadCorpusFile(name);
    models.emplace_back(name, bytes);
    Loaded l = Load(bytes);
    models.emplace_back(name + " as FBS", Export(l.model.get(), CompatV1Options()).model());
    models.emplace_back(name + " as FBS_V2",
                        Export(l.model.get(), {{"dumpFormat", "FBS_V2"}}).model());
  }
  models.emplace_back("test model", BuildTestModelV2());
  std::string container = std::string("mgbtest0\x01\0\0\0", 12) + ReadCorpusFile(kConvFile) +
                          ReadCorpusFile(kReshapeFile);
  models.emplace_back("mgbtest0 container", container);
  for (const auto& [what, bytes] : models) ExpectCanonical(bytes, what);
}

TEST(InspectText, StringsAndNumbersAreWrittenAsDumpWritesThem) {
  const std::vector<std::string> strings = {"",
                                            "plain/name_1",
                                            "quote \" and \\ backslash",
                                            std::string("nul \0 tab \t", 11),
                                            "\x7f del",
                                            "caf\xc3\xa9 \xe6\x97\xa5",
                                            "bad \xff\xfe utf-8",
                                            "cut \xe6\x97"};
  std::string out;
  {
    JsonText text(&out);  // the text is whole in `out` once this is gone
    text.BeginArray();
    for (const std::string& s : strings) text.String(s);
    text.Uint(0);
    text.Uint(UINT64_MAX);
    text.Int(INT64_MIN);
    text.Int(-1);
    text.Bool(false);
    text.Null();
    text.Dom(0.1);
    text.Uints({});
    text.BeginObject();
    text.EndObject();
    text.EndArray();
  }
  nlohmann::json expected = nlohmann::json::array();
  for (const std::string& s : strings) expected.push_back(s);
  expected.push_back(uint64_t{0});
  expected.push_back(UINT64_MAX);
  expected.push_back(INT64_MIN);
  expected.push_back(-1);
  expected.push_back(false);
  expected.push_back(nullptr);
  expected.push_back(0.1);
  expected.push_back(nlohmann::json::array());
  expected.push_back(nlohmann::json::object());
  EXPECT_EQ(out, Canonical(expected));
}

TEST(InspectText, ExtraMembersGoToTheirSortedPlaces) {
  nlohmann::json object = {{"b", 1}, {"d", {{"x", true}}}};
  auto write = [](const char* v) { return [v](JsonText* t) { t->String(v); }; };
  std::string out;
  {
    JsonText text(&out);
    WriteObjectWithMembers(
        object, {{"a", write("first")}, {"c", write("mid")}, {"e", write("end")}}, &text);
  }
  nlohmann::json expected = object;
  expected["a"] = "first";
  expected["c"] = "mid";
  expected["e"] = "end";
  EXPECT_EQ(out, Canonical(expected));
}

}  // namespace
}  // namespace graphport::mge::testing

// The registry's rules for every check: a well-formed id, its family as the id's prefix, a doc page
// compiled in and on disk, and a test file of its own that names it — and nothing in checks/docs/
// or tests/checks/ that is not a registered check.
#include <doctest/doctest.h>

#include <filesystem>
#include <regex>
#include <set>
#include <string>

#include "checks/registry.hpp"
#include "tests/support.hpp"

using namespace aoti::checks;

namespace {

// tests/checks/test_<family>_<name>.cpp for <family>.<name>, '-' as '_'.
std::string test_file_of(std::string_view id) {
  std::string name(id);
  for (char& ch : name)
    if (ch == '.' || ch == '-') ch = '_';
  return "test_" + name + ".cpp";
}

std::set<std::string> files_in(const std::filesystem::path& folder, std::string_view extension) {
  std::set<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(folder))
    if (entry.path().extension() == extension) names.insert(entry.path().filename().string());
  return names;
}

}  // namespace

TEST_CASE("every check: id, family, summary and doc page") {
  static const std::regex k_id(R"(^[a-z]+\.[a-z0-9-]+$)");
  std::set<std::string_view> ids;
  for (const auto& check : all_checks()) {
    const CheckInfo& info = check->info();
    INFO(info.id);
    CHECK(std::regex_match(std::string(info.id), k_id));
    CHECK(info.family == info.id.substr(0, info.id.find('.')));
    CHECK_FALSE(info.summary.empty());
    CHECK(check->doc().starts_with("# " + std::string(info.id)));
    CHECK(ids.insert(info.id).second);  // registered once
    CHECK(find_check(info.id) == check.get());
  }
  CHECK(check_infos().size() == all_checks().size());
  // Only error.unclassified reports what no other check explained.
  for (const auto& check : all_checks())
    CHECK(check->last_resort() == (check->id() == "error.unclassified"));
}

TEST_CASE("checks/docs/ holds exactly one page per registered check") {
  std::set<std::string> expected;
  for (const auto& check : all_checks()) expected.insert(std::string(check->id()) + ".md");
  CHECK(files_in(aoti::test::source_dir() / "checks" / "docs", ".md") == expected);
}

TEST_CASE(
    "tests/checks/ holds exactly one test file per registered check, and it names the check") {
  const auto folder = aoti::test::source_dir() / "tests" / "checks";
  std::set<std::string> expected;
  for (const auto& check : all_checks()) {
    const std::string file = test_file_of(check->id());
    expected.insert(file);
    INFO(file);
    REQUIRE(std::filesystem::exists(folder / file));
    CHECK(aoti::test::read_file(folder / file).find("\"" + std::string(check->id())) !=
          std::string::npos);
  }
  CHECK(files_in(folder, ".cpp") == expected);
}

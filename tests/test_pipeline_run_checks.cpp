// run_checks: a check that throws does not take the report down; it becomes a diagnostic that names
// the check (not a file), and the other checks' findings stay.
#include <doctest/doctest.h>

#include <memory>
#include <stdexcept>

#include "analyzer/pipeline/analyze.hpp"

namespace {

class FixedCheck : public aoti::checks::Check {
 public:
  explicit FixedCheck(bool throws) : m_throws(throws) {}
  static constexpr aoti::checks::CheckInfo k_throws{"test.throws", "test", "a check that throws"};
  static constexpr aoti::checks::CheckInfo k_finds{"test.finds", "test", "a check that finds"};
  const aoti::checks::CheckInfo& info() const override { return m_throws ? k_throws : k_finds; }
  std::vector<aoti::model::Finding> run(const aoti::model::Case&) const override {
    if (m_throws) throw std::out_of_range("vector index");
    aoti::model::Finding f;
    f.title = "found";
    return {f};
  }

 private:
  bool m_throws;
};

}  // namespace

TEST_CASE("run_checks: a throwing check is a diagnostic whose source is the check") {
  std::vector<std::unique_ptr<aoti::checks::Check>> checks;
  checks.push_back(std::make_unique<FixedCheck>(true));
  checks.push_back(std::make_unique<FixedCheck>(false));
  aoti::model::Case c;
  const auto findings = aoti::pipeline::run_checks(c, checks);
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].check == "test.finds");
  REQUIRE(c.diagnostics.size() == 1);
  CHECK(c.diagnostics[0].source == aoti::model::DiagnosticSource::check);
  CHECK(c.diagnostics[0].artifact == "test.throws");
  CHECK(c.diagnostics[0].message == "check failed internally: vector index");
}

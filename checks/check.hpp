// The interface every check implements, and the metadata each one declares about itself.
// Checks never throw and never read files: they read the Case and return findings.
//
// A check is a class in checks/<family>/<name>.{hpp,cpp} with a `static constexpr CheckInfo
// k_info`, listed by one line in checks/registry.cpp, documented in checks/docs/<id>.md and tested
// in tests/checks/test_<family>_<name>.cpp (scripts/new_check.py writes all of them).
#pragma once

#include <string_view>
#include <vector>

#include "model/case.hpp"
#include "model/finding.hpp"

namespace aoti::checks {

// What --list-checks, --explain and the SARIF rules say of a check. Static data, so that an id or
// summary can never outlive what it points at.
struct CheckInfo {
  std::string_view id;       // "device.input-mismatch": ^[a-z]+\.[a-z0-9-]+$
  std::string_view family;   // "device": the id's prefix, and the folder of its source
  std::string_view summary;  // one line for --list-checks and SARIF's shortDescription
  // A last-resort check reports what no other check explained: its findings are kept only for the
  // artifacts that no other finding explaining a failure cites (error.unclassified).
  bool last_resort = false;
};

class Check {
 public:
  virtual ~Check() = default;
  virtual const CheckInfo& info() const = 0;
  virtual std::vector<model::Finding> run(const model::Case& c) const = 0;

  std::string_view id() const { return info().id; }
  std::string_view family() const { return info().family; }
  std::string_view summary() const { return info().summary; }
  bool last_resort() const { return info().last_resort; }
  std::string_view doc() const;  // its page in checks/docs/, compiled in
};

// A new finding of `check`, with its severity and confidence; the check fills in the rest.
model::Finding new_finding(const CheckInfo& check, model::Severity severity, double confidence);

}  // namespace aoti::checks

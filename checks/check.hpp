// The interface every check implements. Checks never throw and never read files.
#pragma once

#include <string_view>
#include <vector>

#include "model/case.hpp"
#include "model/finding.hpp"

namespace aoti::checks {

class Check {
 public:
  virtual ~Check() = default;
  virtual std::string_view id() const = 0;       // "device.input-mismatch"
  virtual std::string_view family() const = 0;   // "device"
  virtual std::string_view summary() const = 0;  // one line for --list-checks
  virtual std::vector<model::Finding> run(const model::Case& c) const = 0;
  // A last-resort check reports what no other check explained: its findings are kept only for the
  // artifacts that no other finding explaining a failure cites (error.unclassified).
  virtual bool last_resort() const { return false; }
  // The doc page (checks/docs/<id>.md), compiled into the binary.
  std::string_view doc() const;
};

}  // namespace aoti::checks

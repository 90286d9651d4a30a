// error.unclassified: the last resort. An input that holds an error no other check explains gets
// one finding quoting the error that ended the run and the user's own frame (or the crash's top
// frame), so that no input holding an error ever yields "no findings".
#pragma once

#include "checks/check.hpp"

namespace aoti::checks {

class ErrorUnclassifiedCheck final : public Check {
 public:
  static constexpr CheckInfo k_info{
      "error.unclassified", "error",
      "An error no other check explains: the line that ended the run and the user's frame",
      /*last_resort=*/true};
  const CheckInfo& info() const override { return k_info; }
  std::vector<model::Finding> run(const model::Case& c) const override;
};

}  // namespace aoti::checks

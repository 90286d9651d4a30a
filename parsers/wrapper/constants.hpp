// The wrapper's constants (`constants_info_[N].<field> = ...;`): name, dtype, device, shape,
// stride, size and where they come from, one record per index whatever the order of the
// assignments.
#pragma once

#include <map>
#include <string_view>

#include "model/case.hpp"

namespace aoti::parsers::wrapper {

class ConstantReader {
 public:
  explicit ConstantReader(model::WrapperFacts& facts) : m_facts(facts) {}
  // A `constants_info_[` line.
  void read_constant(std::string_view line, int number);
  // Hands the constants to the facts, by index.
  void finish();

 private:
  model::WrapperFacts& m_facts;
  std::map<int, model::WrapperConstant> m_constants;
};

}  // namespace aoti::parsers::wrapper

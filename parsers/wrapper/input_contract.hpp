// The wrapper's input contract: the inputs (`inputs_info_[N].name`), the generated input checks
// (sizes and strides from their `if` lines, dtype and device from their `<input>_expected_*`
// declarations, with the labels their error messages print) and the runtime gate in front of them.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <utility>

#include "model/case.hpp"

namespace aoti::parsers::wrapper {

class InputContractReader {
 public:
  explicit InputContractReader(model::WrapperFacts& facts) : m_facts(facts) {}
  // `inputs_info_[0].name = "arg3_1";`
  void read_input(std::string_view line, int number);
  void read_condition(std::string_view line, int number);
  void read_input_handle(std::string_view line);
  // A dtype or device check of `input` (its value and label from the wrapper's code tables).
  void add_typed_check(model::InputCheck check, std::string_view input, int number);
  void read_check_label(std::string_view line);
  // Hands the inputs to the facts and gives every check the index of its input.
  void finish();
  int input_index_of(const std::string& name) const;

 private:
  model::WrapperFacts& m_facts;
  std::map<int, model::WrapperInput> m_inputs;
  std::map<std::string, int> m_input_index_by_name;  // from `input_handles[N]` in the checks
  std::map<std::string, int> m_info_index_by_name;   // from `inputs_info_[N].name`
  // The dtype / device check of each input, whose `if` line and printed label come after it.
  std::map<std::pair<std::string, model::InputCheckKind>, std::size_t> m_typed_checks;
};

}  // namespace aoti::parsers::wrapper

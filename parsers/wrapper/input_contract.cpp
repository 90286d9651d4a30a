#include "parsers/wrapper/input_contract.hpp"

#include <cstdint>
#include <optional>

#include "parsers/wrapper/cxx_scan.hpp"
#include "parsers/wrapper/statements.hpp"
#include "util/text.hpp"

namespace aoti::parsers::wrapper {

using model::InputCheckKind;

void InputContractReader::read_input(std::string_view line, int number) {
  const auto assignment = parse_indexed_assignment(line, "inputs_info_[");
  if (!assignment || assignment->field != "name") return;
  const auto name = unquote(assignment->value);
  if (!name) return;
  m_info_index_by_name.try_emplace(*name, assignment->index);
  m_inputs[assignment->index] = model::WrapperInput{assignment->index, *name, number, {}, {}, {}};
}

// The `if` lines of the input checks, and the runtime gate in front of them.
void InputContractReader::read_condition(std::string_view line, int number) {
  if (line.find("_check_aoti_runtime_check_inputs_env") != std::string_view::npos) {
    if (!m_facts.checks_gated_by_env) {
      m_facts.checks_gated_by_env = true;
      m_facts.gate_line = number;
    }
    return;
  }
  const std::size_t open = line.find('(');
  if (open == std::string_view::npos || !util::trim(line.substr(2, open - 2)).empty()) return;
  const auto condition = bracket_contents(line, open);
  if (!condition) return;
  const std::size_t op_at = condition->find_first_of("<>!=");
  if (op_at == std::string_view::npos) return;
  const std::size_t op_size =
      op_at + 1 < condition->size() && (*condition)[op_at + 1] == '=' ? 2 : 1;
  std::string op(condition->substr(op_at, op_size));
  const std::string_view lhs = util::trim(condition->substr(0, op_at));
  const std::string_view rhs = util::trim(condition->substr(op_at + op_size));

  for (const auto kind : {InputCheckKind::dtype, InputCheckKind::device_type}) {
    const std::string_view suffix =
        kind == InputCheckKind::dtype ? "_expected_dtype" : "_expected_device_type";
    if (!lhs.ends_with(suffix)) continue;
    const std::string input(lhs.substr(0, lhs.size() - suffix.size()));
    if (const auto found = m_typed_checks.find({input, kind}); found != m_typed_checks.end()) {
      m_facts.input_checks[found->second].line = number;
    }
    return;
  }

  auto access = parse_dim_access(lhs);
  std::optional<std::int64_t> value;
  if (access) {
    value = util::parse_int(rhs);
  } else if ((access = parse_dim_access(rhs))) {
    value = util::parse_int(lhs);
    if (op[0] == '<')
      op[0] = '>';
    else if (op[0] == '>')
      op[0] = '<';
  }
  if (!access || !value) return;

  model::InputCheck check;
  if (op == "!=") {
    check.kind = access->is_stride ? InputCheckKind::stride_equal : InputCheckKind::dim_equal;
  } else if (op == "<" && !access->is_stride) {
    check.kind = InputCheckKind::dim_min;
  } else if (op == ">" && !access->is_stride) {
    check.kind = InputCheckKind::dim_max;
  } else {
    return;
  }
  check.input_name = std::string(access->input);
  check.input_index = input_index_of(check.input_name);
  check.dim = access->dim;
  check.value = *value;
  check.line = number;
  m_facts.input_checks.push_back(std::move(check));
}

// `ConstantHandle arg3_1 = ConstantHandle(input_handles[0]);` or `auto arg3_1 =
// std::move(inputs[0]);`: how the check functions and run_impl name each input.
void InputContractReader::read_input_handle(std::string_view line) {
  const std::size_t equals = line.find('=');
  if (equals == std::string_view::npos || equals == 0 || equals + 1 >= line.size() ||
      line[equals + 1] == '=' ||
      std::string_view("<>!").find(line[equals - 1]) != std::string_view::npos) {
    return;
  }
  const std::string_view target = util::trim(line.substr(0, equals));
  const std::string_view name = identifier_before(target, target.size());
  const std::string_view value = line.substr(equals + 1);
  for (const std::string_view array : {"input_handles[", "inputs["}) {
    const std::size_t at = value.find(array);
    if (at == std::string_view::npos || (at > 0 && util::is_identifier_char(value[at - 1])))
      continue;
    const std::string_view rest = value.substr(at + array.size());
    const std::size_t close = rest.find(']');
    if (close == std::string_view::npos) return;
    const auto index = util::parse_index(rest.substr(0, close));
    if (index && !name.empty()) m_input_index_by_name[std::string(name)] = *index;
    return;
  }
}

void InputContractReader::add_typed_check(model::InputCheck check, std::string_view input,
                                          int number) {
  check.input_name = std::string(input);
  check.input_index = input_index_of(check.input_name);
  check.line = number;
  m_typed_checks[{check.input_name, check.kind}] = m_facts.input_checks.size();
  m_facts.input_checks.push_back(std::move(check));
}

// `<< "expected: " << arg3_1_expected_dtype << "(at::kLong), "`: the label the error prints.
void InputContractReader::read_check_label(std::string_view line) {
  for (const auto kind : {InputCheckKind::dtype, InputCheckKind::device_type}) {
    const std::string_view suffix =
        kind == InputCheckKind::dtype ? "_expected_dtype" : "_expected_device_type";
    const std::size_t at = line.find(suffix);
    if (at == std::string_view::npos) continue;
    const std::string_view after = line.substr(at + suffix.size());
    if (!after.empty() && util::is_identifier_char(after[0])) continue;
    const auto found = m_typed_checks.find({std::string(identifier_before(line, at)), kind});
    if (found == m_typed_checks.end()) return;
    std::string_view rest = util::trim(after);
    if (!rest.starts_with("<<")) return;
    rest = util::trim(rest.substr(2));
    if (rest.empty() || rest[0] != '"') return;
    const std::size_t end = rest.find('"', 1);
    if (end == std::string_view::npos) return;
    const std::string_view printed = rest.substr(1, end - 1);
    const std::size_t open = printed.find('(');
    const std::size_t close = printed.find(')', open);
    if (open == std::string_view::npos || close == std::string_view::npos || close == open + 1)
      return;
    m_facts.input_checks[found->second].label =
        std::string(printed.substr(open + 1, close - open - 1));
    return;
  }
}

void InputContractReader::finish() {
  for (auto& [index, input] : m_inputs) m_facts.inputs.push_back(std::move(input));
  for (auto& check : m_facts.input_checks) {
    if (check.input_index < 0) check.input_index = input_index_of(check.input_name);
  }
}

int InputContractReader::input_index_of(const std::string& name) const {
  if (const auto found = m_input_index_by_name.find(name); found != m_input_index_by_name.end()) {
    return found->second;
  }
  const auto declared = m_info_index_by_name.find(name);
  return declared == m_info_index_by_name.end() ? -1 : declared->second;
}

}  // namespace aoti::parsers::wrapper

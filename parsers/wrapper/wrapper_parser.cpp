#include "parsers/wrapper/wrapper_parser.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "parsers/wrapper/cpp_kernel.hpp"
#include "parsers/wrapper/text_scan.hpp"
#include "parsers/wrapper/triton_source.hpp"
#include "torch/codes.hpp"

namespace aoti::parsers::wrapper {

namespace {

using model::InputCheckKind;

// Past the head, stray binary bytes are garbage inside a wrapper, not a sign that it is none.
constexpr std::size_t k_sniff_bytes = 8192;
constexpr std::array<std::string_view, 3> k_markers = {"AOTInductorModel", "inputs_info_",
                                                       "run_impl"};

// Fallback ATen ops the wrapper calls directly (`aoti_torch_cuda_addmm_out`): each ends the
// scope of the `// ... Source Nodes` comment before it, as a kernel launch does.
constexpr std::array<std::string_view, 5> k_shim_op_prefixes = {
    "aoti_torch_cpu_", "aoti_torch_cuda_", "aoti_torch_xpu_", "aoti_torch_mps_", "aoti_torch_hip_"};

std::optional<std::size_t> binary_offset(std::string_view text) {
  const std::string_view head = text.substr(0, k_sniff_bytes);
  std::size_t controls = 0;
  std::optional<std::size_t> first_control;
  for (std::size_t i = 0; i < head.size(); ++i) {
    const auto c = static_cast<unsigned char>(head[i]);
    if (c == 0) return i;
    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v') || c == 0x7f) {
      if (!first_control) first_control = i;
      ++controls;
    }
  }
  if (controls * 10 > head.size()) return first_control;
  return std::nullopt;
}

// The identifier that ends just before `end` in `text`.
std::string_view identifier_before(std::string_view text, std::size_t end) {
  std::size_t begin = end;
  while (begin > 0 && is_identifier_char(text[begin - 1])) --begin;
  return text.substr(begin, end - begin);
}

// `arg3_1_size[0]` or `arg3_1_stride[1]`.
struct DimAccess {
  std::string_view input;
  int dim = 0;
  bool is_stride = false;
};
std::optional<DimAccess> parse_dim_access(std::string_view text) {
  text = trim(text);
  const std::string_view name = leading_identifier(text);
  DimAccess access;
  if (name.ends_with("_size")) {
    access.input = name.substr(0, name.size() - 5);
  } else if (name.ends_with("_stride")) {
    access.input = name.substr(0, name.size() - 7);
    access.is_stride = true;
  } else {
    return std::nullopt;
  }
  const std::string_view rest = text.substr(name.size());
  if (access.input.empty() || rest.size() < 3 || rest.front() != '[' || rest.back() != ']') {
    return std::nullopt;
  }
  const auto dim = parse_index(rest.substr(1, rest.size() - 2));
  if (!dim) return std::nullopt;
  access.dim = *dim;
  return access;
}

// `const int64_t s77 = arg0_1_size[0];` -> ("s77", "arg0_1_size[0]").
struct Declaration {
  std::string_view name;
  std::string_view value;
};
std::optional<Declaration> parse_declaration(std::string_view line) {
  for (const std::string_view qualifier : {"static ", "constexpr ", "const "}) {
    if (line.starts_with(qualifier)) line = trim(line.substr(qualifier.size()));
  }
  bool typed = false;
  for (const std::string_view type : {"int64_t ", "int32_t ", "auto ", "int "}) {
    if (line.starts_with(type)) {
      line = trim(line.substr(type.size()));
      typed = true;
      break;
    }
  }
  if (!typed) return std::nullopt;
  const std::string_view name = leading_identifier(line);
  if (name.empty()) return std::nullopt;
  std::string_view rest = trim(line.substr(name.size()));
  if (rest.empty() || rest[0] != '=' || (rest.size() > 1 && rest[1] == '=')) return std::nullopt;
  rest = rest.substr(1);
  // What follows the statement is a comment at most (`auto buf2 = std::move(buf1);  // reuse`).
  const std::size_t semicolon = rest.rfind(';');
  if (semicolon != std::string_view::npos) rest = rest.substr(0, semicolon);
  return Declaration{name, trim(rest)};
}

// `constants_info_[0].shape = {1000, 32};` -> (0, "shape", "{1000, 32}").
struct IndexedAssignment {
  int index = 0;
  std::string_view field;
  std::string_view value;
};
std::optional<IndexedAssignment> parse_indexed_assignment(std::string_view line,
                                                          std::string_view prefix) {
  line = line.substr(prefix.size());
  const std::size_t close = line.find(']');
  if (close == std::string_view::npos) return std::nullopt;
  const auto index = parse_index(line.substr(0, close));
  if (!index) return std::nullopt;
  std::string_view rest = line.substr(close + 1);
  if (rest.empty() || rest[0] != '.') return std::nullopt;
  const std::string_view field = leading_identifier(rest.substr(1));
  if (field.empty()) return std::nullopt;
  rest = trim(rest.substr(1 + field.size()));
  if (rest.empty() || rest[0] != '=') return std::nullopt;
  rest = rest.substr(1);
  const std::size_t semicolon = rest.rfind(';');
  if (semicolon != std::string_view::npos) rest = rest.substr(0, semicolon);
  return IndexedAssignment{*index, field, trim(rest)};
}

// The identifier that follows `key` in `text`: `cached_torch_dtype_float32` -> "float32".
std::string_view identifier_after(std::string_view text, std::string_view key) {
  const std::size_t at = text.find(key);
  if (at == std::string_view::npos) return {};
  return leading_identifier(text.substr(at + key.size()));
}

std::optional<std::vector<std::int64_t>> parse_int_list(std::string_view text) {
  text = trim(text);
  if (text.empty() || text[0] != '{') return std::nullopt;
  const auto contents = bracket_contents(text, 0);
  if (!contents) return std::nullopt;
  const auto items = split_top_level(*contents);
  if (!items) return std::nullopt;
  std::vector<std::int64_t> values;
  for (const auto item : *items) {
    const auto value = parse_int(item);
    if (!value) return std::nullopt;
    values.push_back(*value);
  }
  return values;
}

bool starts_cxx_definition(std::string_view raw) {
  if (raw.starts_with("}")) {
    const std::string_view rest = trim(raw.substr(1));
    return rest.empty() || rest.starts_with("//") || rest.starts_with(";");
  }
  for (const std::string_view keyword :
       {"template", "static ", "namespace ", "void ", "AOTI_NOINLINE", "extern ", "class ",
        "struct ", "using "}) {
    if (raw.starts_with(keyword)) return true;
  }
  return false;
}

struct SourceNodes {
  std::vector<std::string> nodes;
  std::vector<std::string> aten_ops;
};

class WrapperScanner {
 public:
  explicit WrapperScanner(const model::Location& where) { m_facts.where = where; }

  void scan_line(std::string_view raw, int number) {
    const std::string_view line = trim(raw);
    if (m_cpp_kernel) {
      if (m_cpp_kernel->read_line(line, number)) return;
      close_cpp_kernel(number);
      return;
    }
    if (m_kernel) {
      // The embedded source is indented; C++ at column 0 means its end quotes were lost.
      if (starts_cxx_definition(raw)) {
        close_kernel(number - 1);
      } else if (read_kernel_line(line, number)) {
        return;
      }
    }
    if (line.empty()) {
      m_command = nullptr;
      return;
    }
    // Generated function bodies are indented: anything at column 0 ends the statement run that
    // a source-nodes comment describes.
    if (raw[0] != ' ' && raw[0] != '\t' && raw[0] != '/') m_pending_nodes.reset();

    if (line.starts_with("//")) {
      read_comment(trim(line.substr(2)), number);
      return;
    }
    m_command = nullptr;

    if (line.find("async_compile.triton(") != std::string_view::npos &&
        TritonSourceReader::opens_source(line)) {
      m_kernel.emplace(line, number);
    } else if (CppKernelReader::opens_kernel(line)) {
      // A C++ kernel: declared before the model class, defined here in single-file wrappers.
      m_cpp_kernel.emplace(line, number);
      if (m_cpp_kernel->finished()) close_cpp_kernel(number);
    } else if (line.starts_with("inputs_info_[")) {
      read_input(line, number);
    } else if (line.starts_with("outputs_info_[")) {
      read_output(line);
    } else if (line.starts_with("constants_info_[")) {
      read_constant(line, number);
    } else if (line.starts_with("in_spec_") || line.starts_with("out_spec_")) {
      read_spec(line);
    } else if (line.starts_with("if")) {
      read_condition(line, number);
    } else if (line.starts_with("call_triton_") || line.starts_with("cpp_")) {
      read_kernel_call(line, number);
    } else if (line.starts_with("AtenTensorHandle ")) {
      read_tensor_array(line);
    } else if (line.find("aoti_torch_proxy_executor_call_function(") != std::string_view::npos) {
      read_proxy_call(line, number);
    } else if (line.find("input_handles[") != std::string_view::npos ||
               line.find("inputs[") != std::string_view::npos) {
      read_input_handle(line);
    } else if (const auto declaration = parse_declaration(line)) {
      read_declaration(*declaration, number);
    } else if (line.find("_expected_") != std::string_view::npos) {
      read_check_label(line);
    }
    if (m_pending_nodes) end_nodes_scope_at_shim_call(line);
  }

  model::WrapperFacts finish(int line_count) {
    if (m_kernel) close_kernel(line_count);
    if (m_cpp_kernel) close_cpp_kernel(line_count);
    m_facts.line_count = line_count;
    for (auto& [index, input] : m_inputs) m_facts.inputs.push_back(std::move(input));
    for (auto& [index, name] : m_outputs) m_facts.outputs.push_back(std::move(name));
    for (auto& [index, constant] : m_constants) m_facts.constants.push_back(std::move(constant));
    for (auto& check : m_facts.input_checks) {
      if (check.input_index < 0) check.input_index = input_index_of(check.input_name);
    }
    return std::move(m_facts);
  }

 private:
  // True when the line belonged to the embedded Triton source.
  bool read_kernel_line(std::string_view line, int number) {
    if (line.starts_with("*/")) {  // the comment closed without the closing quotes
      close_kernel(number - 1);
      return false;
    }
    if (line.find("async_compile.triton(") != std::string_view::npos &&
        TritonSourceReader::opens_source(line)) {
      close_kernel(number - 1);
      m_kernel.emplace(line, number);
      return true;
    }
    if (!m_kernel->read_line(line, number)) close_kernel(number);
    return true;
  }

  void close_kernel(int last_line) {
    m_facts.kernels.push_back(m_kernel->finish(last_line));
    m_kernel.reset();
  }

  // Only definitions are kept: a declaration says nothing the call and the kernel source do not.
  void close_cpp_kernel(int last_line) {
    if (m_cpp_kernel->defined()) m_facts.kernels.push_back(m_cpp_kernel->finish(last_line));
    m_cpp_kernel.reset();
  }

  void read_comment(std::string_view comment, int number) {
    if (comment == "Compile cmd") {
      m_command = &m_facts.compile_cmd;
      m_command_line = &m_facts.compile_cmd_line;
      return;
    }
    if (comment == "Link cmd") {
      m_command = &m_facts.link_cmd;
      m_command_line = &m_facts.link_cmd_line;
      return;
    }
    if (m_command) {
      if (m_command->empty()) {
        *m_command_line = number;
      } else {
        m_command->push_back(' ');
      }
      m_command->append(comment);
      return;
    }
    const std::size_t nodes = comment.find("Source Nodes:");
    if (nodes == std::string_view::npos) return;
    SourceNodes pending;
    const std::size_t nodes_open = comment.find('[', nodes);
    if (nodes_open != std::string_view::npos) pending.nodes = bracketed_items(comment, nodes_open);
    const std::size_t aten = comment.find("Original ATen:", nodes);
    if (aten != std::string_view::npos) {
      const std::size_t aten_open = comment.find('[', aten);
      if (aten_open != std::string_view::npos)
        pending.aten_ops = bracketed_items(comment, aten_open);
    }
    m_facts.source_node_comments.push_back({pending.nodes, pending.aten_ops, number});
    m_pending_nodes = std::move(pending);
  }

  void read_input(std::string_view line, int number) {
    const auto assignment = parse_indexed_assignment(line, "inputs_info_[");
    if (!assignment || assignment->field != "name") return;
    const auto name = unquote(assignment->value);
    if (!name) return;
    m_info_index_by_name.try_emplace(*name, assignment->index);
    m_inputs[assignment->index] = model::WrapperInput{assignment->index, *name, number};
  }

  void read_output(std::string_view line) {
    const auto assignment = parse_indexed_assignment(line, "outputs_info_[");
    if (!assignment || assignment->field != "name") return;
    if (const auto name = unquote(assignment->value)) m_outputs[assignment->index] = *name;
  }

  void read_constant(std::string_view line, int number) {
    const auto assignment = parse_indexed_assignment(line, "constants_info_[");
    if (!assignment) return;
    const std::string_view field = assignment->field;
    const std::string_view value = assignment->value;
    auto [it, inserted] = m_constants.try_emplace(assignment->index);
    model::WrapperConstant& constant = it->second;
    if (inserted) {
      constant.index = assignment->index;
      constant.line = number;
    }
    if (field == "name") {
      if (const auto name = unquote(value)) {
        constant.name = *name;
        constant.line = number;
      }
    } else if (field == "dtype") {
      constant.dtype = std::string(identifier_after(value, "dtype_"));
    } else if (field == "device_type") {
      constant.device_type = std::string(identifier_after(value, "device_type_"));
    } else if (field == "type") {
      constant.kind = std::string(identifier_after(value, "ConstantType::"));
    } else if (field == "original_fqn") {
      if (const auto fqn = unquote(value)) constant.original_fqn = *fqn;
    } else if (field == "data_size") {
      if (const auto size = parse_int(value)) constant.data_size = *size;
    } else if (field == "from_folded") {
      constant.from_folded = value == "true";
    } else if (field == "shape") {
      if (auto shape = parse_int_list(value)) constant.shape = std::move(*shape);
    } else if (field == "stride") {
      if (auto stride = parse_int_list(value)) constant.stride = std::move(*stride);
    }
  }

  void read_spec(std::string_view line) {
    const bool is_in = line.starts_with("in_spec_");
    std::string_view rest = trim(line.substr(is_in ? 8 : 9));
    if (rest.empty() || rest[0] != '=') return;
    rest = trim(rest.substr(1));
    if (!rest.empty() && rest.back() == ';') rest.remove_suffix(1);
    if (const auto spec = unquote(rest)) (is_in ? m_facts.in_spec : m_facts.out_spec) = *spec;
  }

  // The `if` lines of the input checks, and the runtime gate in front of them.
  void read_condition(std::string_view line, int number) {
    if (line.find("_check_aoti_runtime_check_inputs_env") != std::string_view::npos) {
      if (!m_facts.checks_gated_by_env) {
        m_facts.checks_gated_by_env = true;
        m_facts.gate_line = number;
      }
      return;
    }
    const std::size_t open = line.find('(');
    if (open == std::string_view::npos || !trim(line.substr(2, open - 2)).empty()) return;
    const auto condition = bracket_contents(line, open);
    if (!condition) return;
    const std::size_t op_at = condition->find_first_of("<>!=");
    if (op_at == std::string_view::npos) return;
    const std::size_t op_size =
        op_at + 1 < condition->size() && (*condition)[op_at + 1] == '=' ? 2 : 1;
    std::string op(condition->substr(op_at, op_size));
    const std::string_view lhs = trim(condition->substr(0, op_at));
    const std::string_view rhs = trim(condition->substr(op_at + op_size));

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
      value = parse_int(rhs);
    } else if ((access = parse_dim_access(rhs))) {
      value = parse_int(lhs);
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

  void read_kernel_call(std::string_view line, int number) {
    const std::string_view name = leading_identifier(line);
    if (name.size() >= line.size() || line[name.size()] != '(') return;
    const auto contents = bracket_contents(line, name.size());
    if (!contents) return;
    const auto args = split_top_level(*contents);
    if (!args) return;
    model::KernelCall call;
    call.kernel = std::string(name.starts_with("call_") ? name.substr(5) : name);
    call.args.assign(args->begin(), args->end());
    call.line = number;
    call.text = std::string(line);
    if (m_pending_nodes) {
      call.source_nodes = std::move(m_pending_nodes->nodes);
      call.aten_ops = std::move(m_pending_nodes->aten_ops);
      m_pending_nodes.reset();
    }
    m_facts.kernel_calls.push_back(std::move(call));
  }

  // Older wrappers pass the proxy executor named arrays: `AtenTensorHandle tensor_args_var_0[] =
  // {...};`.
  void read_tensor_array(std::string_view line) {
    const std::string_view rest = trim(line.substr(16));
    const std::string_view name = leading_identifier(rest);
    const std::size_t open = rest.find('{');
    if (name.empty() || open == std::string_view::npos) return;
    m_tensor_arrays[std::string(name)] = bracketed_items(rest, open);
  }

  void read_proxy_call(std::string_view line, int number) {
    constexpr std::string_view k_call = "aoti_torch_proxy_executor_call_function(";
    const std::size_t open = line.find(k_call) + k_call.size() - 1;
    const auto contents = bracket_contents(line, open);
    if (!contents) return;
    const auto args = split_top_level(*contents);
    if (!args || args->size() < 2) return;
    const auto node = parse_index((*args)[1]);
    if (!node) return;
    model::ProxyCall call;
    call.extern_node_index = *node;
    call.line = number;
    for (const auto arg : *args) {
      if (arg.find("AtenTensorHandle") != std::string_view::npos) {
        const std::size_t brace = arg.find('{');
        if (brace != std::string_view::npos) call.tensor_args = bracketed_items(arg, brace);
      } else if (const auto named = m_tensor_arrays.find(std::string(leading_identifier(arg)));
                 named != m_tensor_arrays.end()) {
        call.tensor_args = named->second;
      }
    }
    if (m_pending_nodes) {
      call.source_nodes = std::move(m_pending_nodes->nodes);
      call.aten_ops = std::move(m_pending_nodes->aten_ops);
      m_pending_nodes.reset();
    }
    m_facts.proxy_calls.push_back(std::move(call));
  }

  void read_declaration(const Declaration& declaration, int number) {
    const std::string_view name = declaration.name;
    const std::string_view value = declaration.value;
    if (name.ends_with("_expected_dtype")) {
      read_expected_dtype(name.substr(0, name.size() - 15), value, number);
    } else if (name.ends_with("_expected_device_type")) {
      read_expected_device(name.substr(0, name.size() - 21), value, number);
    } else if (const auto access = parse_dim_access(value)) {
      m_facts.bindings.push_back(model::SymbolBinding{std::string(name), std::string(access->input),
                                                     access->dim, access->is_stride, number});
    } else if (value.starts_with("std::move(")) {
      const auto moved = bracket_contents(value, 9);
      if (moved && !moved->empty() && leading_identifier(*moved).size() == moved->size()) {
        m_facts.buffer_reuses.push_back(
            model::BufferReuse{std::string(*moved), std::string(name), number});
      }
    }
  }

  // `ConstantHandle arg3_1 = ConstantHandle(input_handles[0]);` or `auto arg3_1 =
  // std::move(inputs[0]);`: how the check functions and run_impl name each input.
  void read_input_handle(std::string_view line) {
    const std::size_t equals = line.find('=');
    if (equals == std::string_view::npos || equals == 0 || equals + 1 >= line.size() ||
        line[equals + 1] == '=' ||
        std::string_view("<>!").find(line[equals - 1]) != std::string_view::npos) {
      return;
    }
    const std::string_view target = trim(line.substr(0, equals));
    const std::string_view name = identifier_before(target, target.size());
    const std::string_view value = line.substr(equals + 1);
    for (const std::string_view array : {"input_handles[", "inputs["}) {
      const std::size_t at = value.find(array);
      if (at == std::string_view::npos || (at > 0 && is_identifier_char(value[at - 1]))) continue;
      const std::string_view rest = value.substr(at + array.size());
      const std::size_t close = rest.find(']');
      if (close == std::string_view::npos) return;
      const auto index = parse_index(rest.substr(0, close));
      if (index && !name.empty()) m_input_index_by_name[std::string(name)] = *index;
      return;
    }
  }

  void read_expected_dtype(std::string_view input, std::string_view value, int number) {
    model::InputCheck check;
    check.kind = InputCheckKind::dtype;
    check.value = -1;
    if (const auto* type = torch::scalar_type_named(identifier_after(value, "dtype_"))) {
      check.value = type->code;
      check.label = std::string(type->aten);
    }
    add_typed_check(std::move(check), input, number);
  }

  void read_expected_device(std::string_view input, std::string_view value, int number) {
    model::InputCheck check;
    check.kind = InputCheckKind::device_type;
    check.value = -1;
    const std::string_view device = identifier_after(value, "device_type_");
    const auto code = parse_int(value);
    if (const auto* type = code ? torch::device_type(*code) : torch::device_type_of_shim(device)) {
      check.value = type->code;
      check.label = std::string(type->name);
    }
    if (code && check.value < 0) check.value = *code;
    add_typed_check(std::move(check), input, number);
  }

  void add_typed_check(model::InputCheck check, std::string_view input, int number) {
    check.input_name = std::string(input);
    check.input_index = input_index_of(check.input_name);
    check.line = number;
    m_typed_checks[{check.input_name, check.kind}] = m_facts.input_checks.size();
    m_facts.input_checks.push_back(std::move(check));
  }

  // `<< "expected: " << arg3_1_expected_dtype << "(at::kLong), "`: the label the error prints.
  void read_check_label(std::string_view line) {
    for (const auto kind : {InputCheckKind::dtype, InputCheckKind::device_type}) {
      const std::string_view suffix =
          kind == InputCheckKind::dtype ? "_expected_dtype" : "_expected_device_type";
      const std::size_t at = line.find(suffix);
      if (at == std::string_view::npos) continue;
      const std::string_view after = line.substr(at + suffix.size());
      if (!after.empty() && is_identifier_char(after[0])) continue;
      const auto found = m_typed_checks.find({std::string(identifier_before(line, at)), kind});
      if (found == m_typed_checks.end()) return;
      std::string_view rest = trim(after);
      if (!rest.starts_with("<<")) return;
      rest = trim(rest.substr(2));
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

  void end_nodes_scope_at_shim_call(std::string_view line) {
    for (const auto prefix : k_shim_op_prefixes) {
      if (line.find(prefix) != std::string_view::npos) {
        m_pending_nodes.reset();
        return;
      }
    }
  }

  int input_index_of(const std::string& name) const {
    if (const auto found = m_input_index_by_name.find(name); found != m_input_index_by_name.end()) {
      return found->second;
    }
    const auto declared = m_info_index_by_name.find(name);
    return declared == m_info_index_by_name.end() ? -1 : declared->second;
  }

  model::WrapperFacts m_facts;
  std::map<int, model::WrapperInput> m_inputs;
  std::map<int, std::string> m_outputs;
  std::map<int, model::WrapperConstant> m_constants;
  std::map<std::string, int> m_input_index_by_name;  // from `input_handles[N]` in the checks
  std::map<std::string, int> m_info_index_by_name;   // from `inputs_info_[N].name`
  // The dtype / device check of each input, whose `if` line and printed label come after it.
  std::map<std::pair<std::string, InputCheckKind>, std::size_t> m_typed_checks;
  std::map<std::string, std::vector<std::string>> m_tensor_arrays;
  std::optional<SourceNodes> m_pending_nodes;
  std::optional<TritonSourceReader> m_kernel;
  std::optional<CppKernelReader> m_cpp_kernel;
  std::string* m_command = nullptr;  // the compile or link command being read
  int* m_command_line = nullptr;
};

}  // namespace

Parsed<model::WrapperFacts> parse_wrapper(std::string_view text, const model::Location& where) {
  if (text.empty()) return fail("not a wrapper: empty");
  if (const auto offset = binary_offset(text)) {
    return fail(fmt::format("not a wrapper: binary data at byte {}", *offset));
  }
  const bool has_marker = std::any_of(
      k_markers.begin(), k_markers.end(),
      [&](std::string_view marker) { return text.find(marker) != std::string_view::npos; });
  if (!has_marker) {
    return fail(
        "not a wrapper: none of the AOTI markers (AOTInductorModel, inputs_info_, run_impl) found");
  }

  WrapperScanner scanner(where);
  int number = 0;
  std::size_t begin = 0;
  while (begin < text.size()) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string_view::npos) end = text.size();
    scanner.scan_line(text.substr(begin, end - begin), ++number);
    begin = end + 1;
  }
  model::WrapperFacts facts = scanner.finish(number);
  // The text itself travels with the facts, so that checks quote its lines instead of rebuilding them.
  facts.source = model::SourceText(std::string(text));
  return facts;
}

bool looks_like_wrapper(std::string_view head) {
  head = head.substr(0, k_sniff_bytes);
  if (head.find('\0') != std::string_view::npos) return false;
  // Logs quote AOTI paths and names too ("API call failed at .../aoti_runner/...", C++ stack frames
  // "torch::aot_inductor::AOTInductorModel::run_impl(...)"), so only a line that starts with an
  // include of the AOTI headers, or with the model class being defined, marks a wrapper.
  for (std::size_t start = 0; start < head.size();) {
    const std::size_t end = std::min(head.find('\n', start), head.size());
    const std::string_view line = head.substr(start, end - start);
    for (const std::string_view marker : {"#include <torch/csrc/inductor/aoti_", "AOTInductorModel::AOTInductorModel(",
                                          "void AOTInductorModel::run_impl("})
      if (line.starts_with(marker)) return true;
    start = end + 1;
  }
  return false;
}

}  // namespace aoti::parsers::wrapper

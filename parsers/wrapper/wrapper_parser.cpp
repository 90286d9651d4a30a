#include "parsers/wrapper/wrapper_parser.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "parsers/wrapper/constants.hpp"
#include "parsers/wrapper/cpp_kernel.hpp"
#include "parsers/wrapper/cxx_scan.hpp"
#include "parsers/wrapper/input_contract.hpp"
#include "parsers/wrapper/launches.hpp"
#include "parsers/wrapper/printer_calls.hpp"
#include "parsers/wrapper/statements.hpp"
#include "parsers/wrapper/triton_source.hpp"
#include "torch/codes.hpp"
#include "util/text.hpp"

namespace aoti::parsers::wrapper {

namespace {

using model::InputCheckKind;

// Past the head, stray binary bytes are garbage inside a wrapper, not a sign that it is none.
constexpr std::size_t k_sniff_bytes = 8192;
constexpr std::array<std::string_view, 3> k_markers = {"AOTInductorModel", "inputs_info_",
                                                       "run_impl"};

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

// `const int64_t s77 = arg0_1_size[0];` -> ("s77", "arg0_1_size[0]").
struct Declaration {
  std::string_view name;
  std::string_view value;
};
std::optional<Declaration> parse_declaration(std::string_view line) {
  for (const std::string_view qualifier : {"static ", "constexpr ", "const "}) {
    if (line.starts_with(qualifier)) line = util::trim(line.substr(qualifier.size()));
  }
  bool typed = false;
  for (const std::string_view type : {"int64_t ", "int32_t ", "auto ", "int "}) {
    if (line.starts_with(type)) {
      line = util::trim(line.substr(type.size()));
      typed = true;
      break;
    }
  }
  if (!typed) return std::nullopt;
  const std::string_view name = util::leading_identifier(line);
  if (name.empty()) return std::nullopt;
  std::string_view rest = util::trim(line.substr(name.size()));
  if (rest.empty() || rest[0] != '=' || (rest.size() > 1 && rest[1] == '=')) return std::nullopt;
  rest = rest.substr(1);
  // What follows the statement is a comment at most (`auto buf2 = std::move(buf1);  // reuse`).
  const std::size_t semicolon = rest.rfind(';');
  if (semicolon != std::string_view::npos) rest = rest.substr(0, semicolon);
  return Declaration{name, util::trim(rest)};
}

bool starts_cxx_definition(std::string_view raw) {
  if (raw.starts_with("}")) {
    const std::string_view rest = util::trim(raw.substr(1));
    return rest.empty() || rest.starts_with("//") || rest.starts_with(";");
  }
  for (const std::string_view keyword :
       {"template", "static ", "namespace ", "void ", "AOTI_NOINLINE", "extern ", "class ",
        "struct ", "using "}) {
    if (raw.starts_with(keyword)) return true;
  }
  return false;
}

class WrapperScanner {
 public:
  explicit WrapperScanner(const model::Location& where) { m_facts.where = where; }

  void scan_line(std::string_view raw, int number) {
    const std::string_view line = util::trim(raw);
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
    if (raw[0] != ' ' && raw[0] != '\t' && raw[0] != '/') m_launches.end_scope();

    if (line.starts_with("//")) {
      read_comment(util::trim(line.substr(2)), number);
      return;
    }
    m_command = nullptr;
    // The printer's calls name kernels (a fallback op's too) without being their launches: they
    // end no source-nodes scope.
    if (auto call = read_printer_call(line, number)) {
      m_facts.printer_calls.push_back(std::move(*call));
      return;
    }

    if (line.find("async_compile.triton(") != std::string_view::npos &&
        TritonSourceReader::opens_source(line)) {
      m_kernel.emplace(line, number);
    } else if (CppKernelReader::opens_kernel(line)) {
      // A C++ kernel: declared before the model class, defined here in single-file wrappers.
      m_cpp_kernel.emplace(line, number);
      if (m_cpp_kernel->finished()) close_cpp_kernel(number);
    } else if (line.starts_with("inputs_info_[")) {
      m_contract.read_input(line, number);
    } else if (line.starts_with("outputs_info_[")) {
      read_output(line);
    } else if (line.starts_with("constants_info_[")) {
      m_constants.read_constant(line, number);
    } else if (line.starts_with("in_spec_") || line.starts_with("out_spec_")) {
      read_spec(line);
    } else if (line.starts_with("if")) {
      m_contract.read_condition(line, number);
    } else if (line.starts_with("call_") || line.starts_with("cpp_")) {
      // `call_triton_poi_...(...)`, and `call_<user kernel>_0(...)` for a user Triton kernel.
      m_launches.read_kernel_call(line, number);
    } else if (line.starts_with("AtenTensorHandle ")) {
      m_launches.read_tensor_array(line);
    } else if (line.find("aoti_torch_proxy_executor_call_function(") != std::string_view::npos) {
      m_launches.read_proxy_call(line, number);
    } else if (line.find("input_handles[") != std::string_view::npos ||
               line.find("inputs[") != std::string_view::npos) {
      m_contract.read_input_handle(line);
    } else if (const auto declaration = parse_declaration(line)) {
      read_declaration(*declaration, number);
    } else if (line.find("_expected_") != std::string_view::npos) {
      m_contract.read_check_label(line);
    }
    m_launches.end_scope_at_shim_call(line);
  }

  model::WrapperFacts finish(int line_count) {
    if (m_kernel) close_kernel(line_count);
    if (m_cpp_kernel) close_cpp_kernel(line_count);
    m_facts.line_count = line_count;
    m_contract.finish();
    for (auto& [index, name] : m_outputs) m_facts.outputs.push_back(std::move(name));
    m_constants.finish();
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
    m_launches.read_source_nodes(comment, number);
  }

  void read_output(std::string_view line) {
    const auto assignment = parse_indexed_assignment(line, "outputs_info_[");
    if (!assignment || assignment->field != "name") return;
    if (const auto name = unquote(assignment->value)) m_outputs[assignment->index] = *name;
  }

  void read_spec(std::string_view line) {
    const bool is_in = line.starts_with("in_spec_");
    std::string_view rest = util::trim(line.substr(is_in ? 8 : 9));
    if (rest.empty() || rest[0] != '=') return;
    rest = util::trim(rest.substr(1));
    if (!rest.empty() && rest.back() == ';') rest.remove_suffix(1);
    if (const auto spec = unquote(rest)) (is_in ? m_facts.in_spec : m_facts.out_spec) = *spec;
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
      if (moved && !moved->empty() && util::leading_identifier(*moved).size() == moved->size()) {
        m_facts.buffer_reuses.push_back(
            model::BufferReuse{std::string(*moved), std::string(name), number});
      }
    }
  }

  void read_expected_dtype(std::string_view input, std::string_view value, int number) {
    model::InputCheck check;
    check.kind = InputCheckKind::dtype;
    check.value = -1;
    const std::string_view dtype = identifier_after(value, "dtype_");
    if (const auto* type = torch::scalar_type_named(dtype)) {
      check.value = type->code;
      check.label = std::string(type->aten);
    }
    m_contract.add_typed_check(std::move(check), input, number);
  }

  void read_expected_device(std::string_view input, std::string_view value, int number) {
    model::InputCheck check;
    check.kind = InputCheckKind::device_type;
    check.value = -1;
    const std::string_view device = identifier_after(value, "device_type_");
    const auto code = util::parse_int(value);
    if (const auto* type = code ? torch::device_type(*code) : torch::device_type_of_shim(device)) {
      check.value = type->code;
      check.label = std::string(type->name);
    }
    if (code && check.value < 0) check.value = *code;
    m_contract.add_typed_check(std::move(check), input, number);
  }

  model::WrapperFacts m_facts;
  InputContractReader m_contract{m_facts};
  LaunchReader m_launches{m_facts};
  ConstantReader m_constants{m_facts};
  std::map<int, std::string> m_outputs;
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
  // The text itself travels with the facts, so that checks quote its lines instead of rebuilding
  // them.
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
    for (const std::string_view marker :
         {"#include <torch/csrc/inductor/aoti_", "AOTInductorModel::AOTInductorModel(",
          "void AOTInductorModel::run_impl("})
      if (line.starts_with(marker)) return true;
    start = end + 1;
  }
  return false;
}

}  // namespace aoti::parsers::wrapper

#include "checks/support.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <regex>

#include <fmt/format.h>

#include "torch/codes.hpp"
#include "util/text.hpp"

namespace aoti::checks {
using namespace aoti::model;

Finding BasicCheck::new_finding(Severity severity, double confidence) const {
  Finding f;
  f.check = std::string(m_id);
  f.severity = severity;
  f.confidence = confidence;
  return f;
}

const ModelFacts* model_of(const Case& c, const LogEvent& e) {
  if (e.model < 0 || static_cast<std::size_t>(e.model) >= c.models.size()) return nullptr;
  return &c.models[static_cast<std::size_t>(e.model)];
}

Evidence event_evidence(const LogEvent& e, std::string note) {
  if (e.repeats > 1) note += fmt::format(" (the same line {} times)", e.repeats);
  if (e.where.line <= 0) return fact(e.where, e.text, std::move(note));
  Evidence evidence{e.where, e.text, std::move(note)};
  evidence.kind = EvidenceKind::quote;
  return evidence;
}

Evidence fact(Location where, std::string statement, std::string note) {
  return Evidence{std::move(where), std::move(statement), std::move(note)};
}

std::string cut(std::string_view text, std::size_t max) {
  if (text.size() <= max) return std::string(text);
  std::size_t end = max;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;  // not inside a character
  return std::string(text.substr(0, end)) + "…";
}

std::string quoted_line(std::string_view line) {
  constexpr std::size_t k_max_quote_line = 1000;
  const auto first = line.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return "";
  return cut(line.substr(first, line.find_last_not_of(" \t\r") - first + 1), k_max_quote_line);
}

Evidence quote_wrapper(const WrapperFacts& w, int first, std::string note, int last) {
  if (last < first) last = first;
  std::string text;
  for (int line = first; line <= last; ++line) {
    if (line > first) text += '\n';
    text += quoted_line(w.source.line(line));
  }
  // A wrapper whose text was not kept (never the case for one the analyzer read) gives no quote.
  if (w.source.line_count() < last || first < 1) return fact(wrapper_at(w, first), "", std::move(note));
  Evidence evidence{wrapper_at(w, first), std::move(text), std::move(note)};
  evidence.kind = EvidenceKind::quote;
  if (last > first) evidence.line_end = last + w.line_offset;
  return evidence;
}

std::string dim_contract(const WrapperFacts& w, int input_index, int dim) {
  std::optional<std::int64_t> low, high, exact;
  for (const auto& check : w.input_checks) {
    if (check.input_index != input_index || check.dim != dim) continue;
    if (check.kind == InputCheckKind::dim_min) low = check.value;
    if (check.kind == InputCheckKind::dim_max) high = check.value;
    if (check.kind == InputCheckKind::dim_equal) exact = check.value;
  }
  if (exact) return fmt::format("= {}", *exact);
  if (low || high)
    return fmt::format("in [{}, {}]", low ? std::to_string(*low) : "0", high ? std::to_string(*high) : "∞");
  return "";
}

std::string input_contract(const WrapperFacts& w, int input_index) {
  std::vector<std::string> parts;
  int max_dim = -1;
  for (const auto& check : w.input_checks)
    if (check.input_index == input_index && check.kind != InputCheckKind::stride_equal) max_dim = std::max(max_dim, check.dim);
  for (int dim = 0; dim <= max_dim; ++dim)
    if (auto text = dim_contract(w, input_index, dim); !text.empty()) parts.push_back(fmt::format("dim {} {}", dim, text));
  for (const auto& check : w.input_checks) {
    if (check.input_index != input_index) continue;
    if (check.kind == InputCheckKind::dtype)
      parts.push_back(check.label.empty() ? dtype_name_of_code(std::to_string(check.value)) : check.label);
    if (check.kind == InputCheckKind::device_type)
      parts.push_back("on " + (check.label.empty() ? device_name_of_code(std::to_string(check.value)) : check.label));
  }
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : ", ") + p;
  return out;
}

int input_index_of(const WrapperFacts& w, std::string_view name) {
  for (const auto& input : w.inputs)
    if (input.name == name) return input.index;
  return -1;
}

bool is_size_symbol(std::string_view arg) {
  std::size_t i = 0;
  if (arg.starts_with("ks")) i = 2;
  else if (!arg.empty() && (arg[0] == 's' || arg[0] == 'u')) i = 1;
  else return false;
  return i < arg.size() && std::all_of(arg.begin() + static_cast<long>(i), arg.end(),
                                       [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); });
}

std::optional<std::int64_t> integer_literal(std::string_view arg) {
  while (!arg.empty() && (arg.back() == 'L' || arg.back() == 'l' || arg.back() == 'U' || arg.back() == 'u')) arg.remove_suffix(1);
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(arg.data(), arg.data() + arg.size(), value);
  if (ec != std::errc() || end != arg.data() + arg.size() || arg.empty()) return std::nullopt;
  return value;
}

std::string shell_quote(std::string_view text) {
  std::string out = "'";
  for (char ch : text) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

std::string shell_word(std::string_view text) {
  constexpr std::string_view k_plain = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:=+@,%";
  if (!text.empty() && text.find_first_not_of(k_plain) == std::string_view::npos) return std::string(text);
  return shell_quote(text);
}

std::string show_lines_command(const Location& where, int first, int last) {
  first = std::max(first, 1);
  if (where.entry.empty()) return fmt::format("sed -n '{},{}p' {}", first, last, shell_quote(where.artifact));
  return fmt::format("unzip -p {} {} | sed -n '{},{}p'", shell_quote(where.artifact), shell_quote(where.entry), first, last);
}

std::string show_wrapper_lines_command(const WrapperFacts& w, int first, int last) {
  return show_lines_command(w.where, first + w.line_offset, last + w.line_offset);
}

int wrapper_line_with(const WrapperFacts& w, int first, std::string_view needle, int span) {
  for (int line = std::max(first, 1); line <= first + span && line <= w.source.line_count(); ++line)
    if (w.source.line(line).find(needle) != std::string_view::npos) return line;
  return 0;
}

Location wrapper_at(const WrapperFacts& w, int line) {
  Location at = w.where;
  at.line = line > 0 ? line + w.line_offset : 0;
  return at;
}

OpName parse_op_name(std::string_view text) {
  if (text.starts_with("torch.ops.")) text.remove_prefix(10);
  OpName op;
  std::string_view rest;
  if (const auto colons = text.find("::"); colons != std::string_view::npos) {
    op.ns = std::string(text.substr(0, colons));
    rest = text.substr(colons + 2);
  } else if (const auto dot = text.find('.'); dot != std::string_view::npos) {
    op.ns = std::string(text.substr(0, dot));
    rest = text.substr(dot + 1);
  }
  const auto dot = rest.find('.');
  op.name = std::string(rest.substr(0, dot));
  if (dot != std::string_view::npos && dot + 1 < rest.size()) op.overload = std::string(rest.substr(dot + 1));
  return op;
}

NextStep opcheck_step(const Case& c, std::string_view op_text, std::string what) {
  const OpName op = parse_op_name(op_text);
  if (!op.valid()) return {std::move(what), "", "python"};
  std::vector<std::string> args, tensors;
  bool found = false;
  for (const auto& model : c.models)
    for (const auto& node : model.extern_nodes) {
      if (found || parse_op_name(node.target).qualified() != op.qualified()) continue;
      found = true;
      for (const auto& input : node.inputs) {
        const auto space = input.value.find(' ');
        const std::string kind = input.value.substr(0, space);
        const std::string value = space == std::string::npos ? "" : input.value.substr(space + 1);
        const bool identifier = !input.name.empty() && std::all_of(input.name.begin(), input.name.end(), [](char ch) {
          return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
        }) && !std::isdigit(static_cast<unsigned char>(input.name.front()));
        if ((kind == "tensor" || kind == "tensors" || kind == "optional_tensor") && identifier) {
          args.push_back(input.name);
          tensors.push_back("`" + input.name + "`");
        } else if ((kind == "float" || kind == "int") && integer_literal(value).has_value()) {
          args.push_back(value);
        } else if (kind == "float" && !value.empty() && value.find_first_not_of("0123456789.e-+") == std::string::npos) {
          args.push_back(value);
        } else if (kind == "bool") {
          args.push_back(value == "true" ? "True" : "False");
        } else if (kind == "none") {
          args.push_back("None");
        } else if (identifier) {
          args.push_back(input.name);  // a symbolic size or a list: the user passes their own value
        }
      }
    }
  if (!found || args.empty()) args = {"x"}, tensors = {"`x`"};
  if (!tensors.empty()) what += fmt::format(" ({}: sample tensors of the sizes that failed)", join(tensors));
  const std::string tuple = args.size() == 1 ? args.front() + "," : join(args);
  return {std::move(what), fmt::format("torch.library.opcheck({}, ({}))", op.overload_path(), tuple), "python"};
}

std::string user_module_name(const Case& c) {
  static const std::regex k_export_call(R"(export\(\s*([A-Za-z_][A-Za-z_0-9.]*)\s*,)");
  for (const auto& trace : c.traces)
    for (const auto& call : trace.exports) {
      std::smatch m;
      if (std::regex_search(call.call_site.code, m, k_export_call)) return m[1].str();
    }
  return "model";
}

namespace {
const WrapperInput* input_named(const WrapperFacts& w, std::string_view name) {
  for (const auto& input : w.inputs)
    if (input.name == name) return &input;
  return nullptr;
}
const WrapperInput* input_at(const WrapperFacts& w, int index) {
  for (const auto& input : w.inputs)
    if (input.index == index) return &input;
  return nullptr;
}
}  // namespace

std::string input_display(const WrapperFacts& w, std::string_view wrapper_input) {
  const WrapperInput* input = input_named(w, wrapper_input);
  if (!input || input->user_name.empty() || input->user_name == wrapper_input) return fmt::format("`{}`", wrapper_input);
  return fmt::format("`{}` (your `{}`)", wrapper_input, input->user_name);
}

std::string dim_name_or(const WrapperFacts& w, int input_index, int dim, std::string fallback) {
  const WrapperInput* input = input_at(w, input_index);
  if (!input) return fallback;
  const auto it = input->dim_names.find(dim);
  return it == input->dim_names.end() ? fallback : it->second;
}

std::string dynamic_shapes_text(const WrapperFacts& w, int input_index, int dim, const std::string& dim_spec) {
  const std::string entry = fmt::format("{{{}: {}}}", dim, dim_spec);
  if (const WrapperInput* input = input_at(w, input_index); input && !input->user_name.empty())
    return fmt::format("dynamic_shapes = {{\"{}\": {}}}", input->user_name, entry);
  // Positional: one entry per forward argument, in order (the wrapper's inputs are the user's).
  std::vector<std::string> entries(std::max<std::size_t>(w.inputs.size(), 1), "None");
  entries[static_cast<std::size_t>(std::max(input_index, 0)) % entries.size()] = entry;
  return fmt::format("dynamic_shapes = ({},)", join(entries));
}

namespace {
// The command line of the crashed process, shell-quoted, from the first core that recorded one.
std::string recorded_command_line(const Case& c) {
  for (const auto& core : c.cores) {
    if (core.argv.empty()) continue;
    std::vector<std::string> words;
    for (const auto& arg : core.argv) words.push_back(shell_word(arg));
    return join(words, " ");
  }
  return "";
}

NextStep env_step(std::string what, std::string_view env, const std::string& program, std::string_view which) {
  if (!program.empty()) return {std::move(what), fmt::format("{} {}", env, program), "sh"};
  return {fmt::format("{}: set the variables, then run {} again in the same shell", what, which),
          fmt::format("export {}", env), "sh"};
}
}  // namespace

NextStep rerun_step(const Case& c, std::string what, std::string_view env) {
  return env_step(std::move(what), env, recorded_command_line(c), "the failing program");
}

NextStep repackage_step(const Case& c, std::string what, std::string_view env) {
  // A core is of the program that ran the model; it also exported only when the trace's export call
  // is in the same script.
  std::string program = recorded_command_line(c);
  bool same_script = false;
  for (const auto& trace : c.traces)
    for (const auto& call : trace.exports)
      for (const auto& core : c.cores)
        for (const auto& arg : core.argv) same_script = same_script || (!call.call_site.file.empty() && arg == call.call_site.file);
  if (!same_script) program.clear();
  return env_step(std::move(what), env, program, "the script that exports and packages the model");
}

std::string reanalyze_command(const Case& c, std::string_view extra) {
  std::vector<std::string> words = {"aoti-analyze"};
  for (const auto& artifact : c.artifacts)
    if (artifact.analyzed) words.push_back(shell_quote(artifact.path));
  if (!extra.empty()) words.emplace_back(extra);
  return join(words, " ");
}

Location kernel_at(const WrapperFacts& w, const TritonKernel& kernel, int line) {
  if (kernel.source.artifact.empty()) return wrapper_at(w, line);
  Location at = kernel.source;
  at.line = line;
  return at;
}

Evidence quote_kernel(const WrapperFacts& w, const TritonKernel& kernel, int line, const std::string& text,
                      std::string statement, std::string note) {
  if (kernel.source.artifact.empty() && line > 0 && line <= w.source.line_count()) return quote_wrapper(w, line, std::move(note));
  if (!text.empty() && line > 0) {
    Evidence quote{kernel_at(w, kernel, line), text, std::move(note)};
    quote.kind = EvidenceKind::quote;
    return quote;
  }
  return fact(kernel_at(w, kernel, 0), std::move(statement), std::move(note));
}

std::string argument_name(std::string_view arg) {
  const auto at = arg.find(".data_ptr()");
  if (at == std::string_view::npos) return std::string(arg);
  std::size_t begin = at;
  while (begin > 0 && (std::isalnum(static_cast<unsigned char>(arg[begin - 1])) || arg[begin - 1] == '_')) --begin;
  return std::string(arg.substr(begin, at - begin));
}

std::string argument_for(const TritonKernel& kernel, const KernelCall& call, std::string_view param) {
  const auto it = std::find(kernel.params.begin(), kernel.params.end(), param);
  if (it == kernel.params.end()) return "";
  const auto position = static_cast<std::size_t>(it - kernel.params.begin());
  return position < call.args.size() ? argument_name(call.args[position]) : "";
}

std::vector<RangeHazard> unguarded_ranges(const WrapperFacts& w) {
  // `(yindex % ks0)`: the index runs over 0..ks0-1, whatever the grid.
  static const std::regex k_modulo(R"(^\(?\s*[xyrz]\d?index\s*%\s*(ks\d+)\s*\)?$)");
  std::vector<RangeHazard> out;
  for (const auto& kernel : w.kernels) {
    if (kernel.language != KernelLanguage::triton) continue;
    const KernelCall* call = nullptr;
    for (const auto& k : w.kernel_calls)
      if (k.kernel == kernel.name) call = &k;
    if (!call) continue;
    for (const auto& assertion : kernel.asserts) {
      const auto bound = integer_literal(assertion.bound);
      const auto expression = kernel.assignments.find(assertion.index_var);
      if (!bound || expression == kernel.assignments.end()) continue;
      std::smatch m;
      if (!std::regex_match(expression->second, m, k_modulo)) continue;
      RangeHazard r;
      r.kernel = &kernel, r.assertion = &assertion, r.call = call, r.bound = *bound;
      r.param = m[1].str(), r.expression = expression->second;
      const std::string symbol = argument_for(kernel, *call, r.param);
      for (const auto& b : w.bindings)
        if (b.symbol == symbol && !b.is_stride) r.binding = &b;
      if (!r.binding) continue;
      r.input_index = input_index_of(w, r.binding->input);
      for (const auto& check : w.input_checks) {
        if (check.input_index != r.input_index || check.dim != r.binding->dim) continue;
        if (check.kind == InputCheckKind::dim_min) r.min = check.value;
        if (check.kind == InputCheckKind::dim_max) r.max = check.value, r.max_line = check.line;
      }
      if (r.max && *r.max <= *bound) continue;  // the contract keeps the index below the bound
      r.expression_line = wrapper_line_with(w, kernel.line, assertion.index_var + " = ", std::max(kernel.source_end - kernel.line, 1));
      // The table the index addresses: a constant loaded with it, with a dim of exactly the bound.
      for (const auto& load : kernel.loads) {
        if (load.offset.find(assertion.index_var) == std::string::npos) continue;
        const std::string arg = argument_for(kernel, *call, load.pointer);
        for (const auto& constant : w.constants)
          if (constant.name == arg && std::find(constant.shape.begin(), constant.shape.end(), *bound) != constant.shape.end())
            r.table = &constant;
      }
      out.push_back(r);
    }
  }
  return out;
}

namespace {
std::string table_name(const RangeHazard& r) {
  return !r.table ? "" : r.table->original_fqn.empty() ? r.table->name : r.table->original_fqn;
}
std::string range_text(const RangeHazard& r) {
  return r.max ? fmt::format("[{}, {}]", r.min, *r.max) : fmt::format("[{}, int_oo]", r.min);
}
}  // namespace

std::string range_hazard_sentence(const WrapperFacts& w, const RangeHazard& r) {
  const std::string table = table_name(r);
  return fmt::format(
      "The index is not data: `{}` = `{}` runs over dim {} of {} (`{}` is bound at the launch to `{}`), which the "
      "package accepts in {}, while the kernel only takes indices below {}{}: every size above {} passes the input "
      "checks and trips `{}`",
      r.assertion->index_var, r.expression, r.binding->dim, input_display(w, r.binding->input), r.param,
      r.binding->symbol, range_text(r), r.bound, table.empty() ? "" : fmt::format(" (the rows of `{}`)", table), r.bound,
      r.assertion->message);
}

std::vector<Evidence> range_hazard_evidence(const WrapperFacts& w, const RangeHazard& r) {
  std::vector<Evidence> out;
  if (r.expression_line > 0)
    out.push_back(quote_wrapper(w, r.expression_line, fmt::format("the index `{}` follows the dim's size", r.assertion->index_var)));
  if (r.table) {
    const int shape_line = wrapper_line_with(w, r.table->line, fmt::format("constants_info_[{}].shape", r.table->index));
    out.push_back(quote_wrapper(w, shape_line ? shape_line : r.table->line, fmt::format("`{}` has {} rows", table_name(r), r.bound)));
  }
  out.push_back(quote_wrapper(w, r.binding->line, fmt::format("`{}` is dim {} of {}", r.binding->symbol, r.binding->dim,
                                                              input_display(w, r.binding->input))));
  if (r.max_line) out.push_back(quote_wrapper(w, r.max_line, fmt::format("the input check allows up to {}", *r.max)));
  return out;
}

NextStep range_hazard_fix(const WrapperFacts& w, const RangeHazard& r) {
  const std::string table = table_name(r);
  const std::string dim_name = dim_name_or(w, r.input_index, r.binding->dim, "d");
  return {fmt::format("re-export with the dim's range capped at {}{}, then re-package (or give the table as many rows "
                      "as the largest size you serve)",
                      r.bound, table.empty() ? "" : fmt::format(", the rows of `{}`", table)),
          dynamic_shapes_text(w, r.input_index, r.binding->dim,
                              fmt::format("torch.export.Dim(\"{}\", min={}, max={})", dim_name, r.min, r.bound)),
          "python"};
}

std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::string out = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + std::to_string(shape[i]);
  return out + "]";
}

std::string join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string out;
  for (const auto& p : parts) {
    if (!out.empty()) out += separator;
    out += p;
  }
  return out;
}

std::optional<Evidence> device_evidence(const ModelFacts& model) {
  const std::string device = model.device();
  if (device.empty()) return std::nullopt;
  if (const auto it = model.metadata.find("AOTI_DEVICE_KEY"); it != model.metadata.end() && it->second == device)
    return Evidence{model.metadata_where, "AOTI_DEVICE_KEY = " + device,
                    fmt::format("the device the {} was compiled for", artifact_word(model))};
  if (model.so && !model.so->needed.empty())
    return Evidence{model.so->where, "DT_NEEDED: " + join(model.so->needed),
                    device == "cuda" ? "the model .so links the CUDA runtime (libtorch_cuda / libcuda): compiled for cuda"
                                     : fmt::format("the model .so links libtorch_cpu and no GPU runtime: compiled for {}", device)};
  return std::nullopt;
}

std::string artifact_word(const ModelFacts& model) {
  return model.so && model.so->where.entry.empty() && !model.package.empty() ? "model .so" : "package";
}

bool is_cxx_runtime_symbol(std::string_view symbol) {
  return symbol.starts_with("std::") || symbol.starts_with("__cxxabiv1") || symbol.starts_with("__gnu_cxx") ||
         symbol.starts_with("__cxa_") || symbol.starts_with("operator new") || symbol.starts_with("operator delete");
}

std::string module_name(std::string_view path) {
  const auto slash = path.find_last_of('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

std::string frame_text(const StackFrame& frame, std::size_t index) {
  std::string symbol = frame.symbol.empty() ? fmt::format("0x{:x}", frame.pc) : util::short_symbol(frame.symbol);
  if (symbol.size() > 160) symbol = symbol.substr(0, 157) + "...";
  return fmt::format("#{} {} in {}", index, symbol,
                     !frame.package.empty() ? "the model .so" : frame.module.empty() ? "?" : module_name(frame.module));
}

std::string candidate_frames(const CoreThread& thread, std::size_t max, const FrameFilter& keep) {
  std::vector<std::string> lines;
  for (std::size_t i = 0; i < thread.frames.size() && lines.size() < max; ++i) {
    const StackFrame& frame = thread.frames[i];
    if (frame.unwound() || (frame.symbol.empty() && frame.package.empty()) || (keep && !keep(i))) continue;
    lines.push_back(frame_text(frame, i));
  }
  if (lines.empty()) return "";
  return std::string(k_stack_scan_label) + ":\n" + join(lines, "\n");
}

std::string frames_excerpt(const CoreThread& thread, std::size_t max, std::size_t max_candidates, const FrameFilter& keep) {
  std::vector<std::string> lines;
  for (std::size_t i = 0; i < thread.frames.size() && lines.size() < max; ++i)
    if (thread.frames[i].unwound() && (!keep || keep(i))) lines.push_back(frame_text(thread.frames[i], i));
  if (const std::string candidates = candidate_frames(thread, max_candidates, keep); !candidates.empty())
    lines.push_back(candidates);
  return join(lines, "\n");
}

const MappedModule* mapped(const CoreFacts& core, std::string_view prefix) {
  for (const auto& module : core.modules)
    if (module_name(module.path).starts_with(prefix)) return &module;
  return nullptr;
}

Location core_location(const CoreFacts& core) { return Location{core.artifact, "", 0}; }

std::string dtype_name_of_code(std::string_view code) {
  // As AOTI's input checks print it: "6(at::kFloat)", or the bare number.
  if (const auto number = util::parse_int(code.substr(0, code.find('('))))
    if (const auto* type = torch::scalar_type(*number)) return std::string(type->name);
  return "dtype " + std::string(code);
}

std::string device_name_of_code(std::string_view code) {
  if (const auto number = util::parse_int(code))
    if (const auto* type = torch::device_type(*number)) return std::string(type->name);
  return "device type " + std::string(code);
}

}  // namespace aoti::checks
